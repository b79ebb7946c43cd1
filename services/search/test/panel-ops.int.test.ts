import { PANEL_OPS_MESSAGES, PANEL_VERSION_RULES, type PanelImpact } from '@lsp/contracts';
import { type CookieClient, useHarness, waitFor } from '@lsp/testing';
import { type Panel, loadDefaultPanel, serialisePanel } from '../src/panel';
import { productView } from '../src/panel/product-edit';
import {
  BRIDGING_PAYLOAD,
  envelopeOf,
  halfRatesPanel,
  runAndSaveSearch,
  startSearchHarness,
} from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

const base = loadDefaultPanel();

describe('the lender panel as operations run it, through the gateway', () => {
  const h = useHarness(startSearchHarness);
  let ops: CookieClient;
  let borrower: CookieClient;
  let borrowerId: string;

  beforeAll(async () => {
    ops = (await h.signedIn({ email: 'oncall@example.com', roles: ['ops'] })).client;
    const signedIn = await h.signedIn();
    borrower = signedIn.client;
    borrowerId = signedIn.user.userId;
  });

  /** The product that makes the bridging deal's best offer today, as the search answers it. */
  async function bestProductNow() {
    const run = await borrower.post('/api/bridging', BRIDGING_PAYLOAD);
    expect(run.status).toBe(200);
    const [best] = run.json().data.Results;
    const lender = base.lenders.find((l) => l.id === best.LenderId)!;
    return { lender, product: lender.products.find((p) => p.id === best.ProductId)!, best };
  }

  /** The shipped panel with the deal's best product at half its rates, under a new version. */
  async function cheaperPanel(version: string): Promise<Panel> {
    const { lender, product } = await bestProductNow();
    return halfRatesPanel(base, version, lender.id, product.id);
  }

  const versionsStored = async () => (await ops.get('/api/ops/panel')).json().versions.length as number;

  it('refuses every route to a signed-out caller (401) and to a borrower (403), changing nothing', async () => {
    const before = await versionsStored();
    const file = { content: serialisePanel({ ...base, version: 'refused' }) };
    const calls: Array<[string, string, object?]> = [
      ['GET', '/api/ops/panel'],
      ['POST', '/api/ops/panel/drafts', file],
      [
        'POST',
        '/api/ops/panel/drafts/product-edit',
        { version: 'x', lenderId: 'a', productId: 'b', changes: { minLoan: 1 } },
      ],
      ['GET', `/api/ops/panel/versions/${base.version}`],
      ['GET', `/api/ops/panel/versions/${base.version}/diff`],
      ['POST', `/api/ops/panel/versions/${base.version}/impact`],
      ['GET', `/api/ops/panel/versions/${base.version}/impact`],
      ['POST', `/api/ops/panel/versions/${base.version}/activate`],
    ];
    for (const [method, path, body] of calls) {
      const anonymous = h.client();
      const asNobody = method === 'GET' ? await anonymous.get(path) : await anonymous.post(path, body ?? {});
      expect([path, asNobody.status]).toEqual([path, 401]);
      const asBorrower = method === 'GET' ? await borrower.get(path) : await borrower.post(path, body ?? {});
      expect([path, asBorrower.status]).toEqual([path, 403]);
    }
    expect(await versionsStored()).toBe(before);
    expect(await h.outboxEntries('panel.activated')).toHaveLength(0);
  });

  it('refuses a bad file with each line and its reason, and stores nothing', async () => {
    const before = await versionsStored();
    const lines = serialisePanel({ ...base, version: 'broken' })
      .trimEnd()
      .split('\n');
    lines[3] = '{ not json';
    const answer = await ops.post('/api/ops/panel/drafts', {
      fileName: 'broken.jsonl',
      content: lines.join('\n'),
    });
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({
      success: false,
      error: PANEL_OPS_MESSAGES.fileRefused,
      problems: [{ line: 4, reason: expect.stringMatching(/^not valid JSON/) }],
    });
    expect(await versionsStored()).toBe(before);
  });

  it('refuses a body its schema refuses with a 400 in words, not a 500, and stores nothing', async () => {
    const before = await versionsStored();
    const refusals: Array<[string, object, string, string]> = [
      ['/api/ops/panel/drafts', {}, 'content', 'The panel file is required'],
      ['/api/ops/panel/drafts', { content: '' }, 'content', 'The panel file is empty'],
      ['/api/ops/panel/drafts/product-edit', {}, 'version', PANEL_VERSION_RULES.required],
      [
        '/api/ops/panel/drafts/product-edit',
        { version: '2027-z', lenderId: 'a', productId: 'b' },
        'changes',
        'Change at least one term',
      ],
      [
        '/api/ops/panel/drafts/product-edit',
        { version: '2027-z', lenderId: 'a', productId: 'b', changes: { minLoan: 'lots' } },
        'changes.minLoan',
        expect.any(String),
      ],
    ];
    for (const [path, body, field, message] of refusals) {
      const answer = await ops.post(path, body);
      expect([path, body, answer.status]).toEqual([path, body, 400]);
      expect(answer.json()).toMatchObject({ success: false, error: message, fields: { [field]: message } });
    }
    expect(await versionsStored()).toBe(before);
  });

  it('refuses a new version whose name a URL segment cannot carry (a slash), and stores nothing', async () => {
    const before = await versionsStored();
    const { lender, product } = await bestProductNow();
    for (const version of ['2027/12', '../x', 'a?b', 'with space', '.hidden']) {
      const uploaded = await ops.post('/api/ops/panel/drafts', {
        content: serialisePanel({ ...base, version }),
      });
      expect([version, uploaded.status]).toEqual([version, 400]);
      expect(uploaded.json()).toMatchObject({
        error: PANEL_OPS_MESSAGES.fileRefused,
        problems: [{ line: 1, reason: expect.stringContaining(PANEL_VERSION_RULES.characters) }],
      });
      const edited = await ops.post('/api/ops/panel/drafts/product-edit', {
        version,
        lenderId: lender.id,
        productId: product.id,
        changes: { minLoan: 30_000 },
      });
      expect([version, edited.status]).toEqual([version, 400]);
      expect(edited.json()).toMatchObject({
        error: PANEL_VERSION_RULES.characters,
        fields: { version: PANEL_VERSION_RULES.characters },
      });
    }
    expect(await versionsStored()).toBe(before);
  });

  it('uploads a draft, shows its diff and impact, activates it (searches switch) and rolls back', async () => {
    // A borrower's saved search, for the impact measurement to re-price.
    await runAndSaveSearch(borrower, borrowerId, BRIDGING_PAYLOAD, 'bridging');

    const { lender, product } = await bestProductNow();
    const draft = await cheaperPanel('2027-cheaper');
    const uploaded = await ops.post('/api/ops/panel/drafts', {
      fileName: 'cheaper.jsonl',
      content: serialisePanel(draft),
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.json()).toMatchObject({
      version: '2027-cheaper',
      status: 'draft',
      createdBy: 'oncall@example.com',
      source: 'upload: cheaper.jsonl',
    });
    // The same file again changes nothing; other content under the version is refused.
    expect((await ops.post('/api/ops/panel/drafts', { content: serialisePanel(draft) })).status).toBe(201);
    const clash = await ops.post('/api/ops/panel/drafts', {
      content: serialisePanel({ ...base, version: '2027-cheaper' }),
    });
    expect(clash.status).toBe(409);

    const diff = (await ops.get('/api/ops/panel/versions/2027-cheaper/diff')).json();
    expect(diff).toMatchObject({ version: '2027-cheaper', against: base.version, lenders: [] });
    expect(diff.products).toEqual([
      expect.objectContaining({ lenderId: lender.id, productId: product.id, change: 'changed' }),
    ]);
    expect(diff.products[0].fields[0].field).toMatch(/^rateCard\[\d+\]\.ratePerMonth$/);

    const started = await ops.post('/api/ops/panel/versions/2027-cheaper/impact');
    expect(started.status).toBe(202);
    expect(started.json()).toMatchObject({
      version: '2027-cheaper',
      against: base.version,
      startedBy: 'oncall@example.com',
    });
    const impact = await waitFor(async () => {
      const now = (await ops.get('/api/ops/panel/versions/2027-cheaper/impact')).json() as PanelImpact;
      return now.status === 'done' ? now : null;
    }, 'the impact measurement to finish');
    expect(impact).toMatchObject({
      total: 1,
      done: 1,
      betterBest: 1,
      worseBest: 0,
      gainOffer: 0,
      loseOffer: 0,
      skipped: 0,
    });

    const activated = await ops.post('/api/ops/panel/versions/2027-cheaper/activate');
    expect(activated.status).toBe(200);
    expect(activated.json()).toMatchObject({
      version: '2027-cheaper',
      previousVersion: base.version,
      rollback: false,
      activatedBy: 'oncall@example.com',
      changedProducts: 1,
    });
    const after = await borrower.post('/api/bridging', BRIDGING_PAYLOAD);
    expect(after.json().data.Summary.panelVersion).toBe('2027-cheaper');
    const [event] = await h.outboxEntries('panel.activated');
    expect(envelopeOf(event).data).toMatchObject({
      version: '2027-cheaper',
      changedProducts: [
        { lenderId: lender.id, productId: product.id, change: 'changed', sameTermsIn: ['2027-cheaper'] },
      ],
    });

    expect((await ops.post('/api/ops/panel/versions/2027-cheaper/activate')).json()).toMatchObject({
      error: PANEL_OPS_MESSAGES.alreadyActive,
    });
    const back = await ops.post(`/api/ops/panel/versions/${base.version}/activate`);
    expect(back.json()).toMatchObject({
      version: base.version,
      rollback: true,
      previousVersion: '2027-cheaper',
    });
    expect((await borrower.post('/api/bridging', BRIDGING_PAYLOAD)).json().data.Summary.panelVersion).toBe(
      base.version,
    );
    // The rollback names the version whose terms the product is back on: DIPs priced under it lose
    // their notice.
    const rollbackEvent = (await h.outboxEntries('panel.activated'))
      .map(envelopeOf)
      .find((e) => e.data.version === base.version);
    expect(rollbackEvent?.data.changedProducts).toEqual([
      { lenderId: lender.id, productId: product.id, change: 'changed', sameTermsIn: [base.version] },
    ]);

    const overview = (await ops.get('/api/ops/panel')).json();
    expect(overview.active).toMatchObject({ version: base.version, status: 'active' });
    expect(overview.audit.slice(0, 4).map((a: { action: string }) => a.action)).toEqual([
      'rolled-back',
      'activated',
      'impact-measured',
      'uploaded',
    ]);
  });

  it("makes a draft from one product's edited terms, refusing an unknown product, a broken rule and a taken version", async () => {
    const { lender, product } = await bestProductNow();
    const detail = (await ops.get(`/api/ops/panel/versions/${base.version}`)).json();
    const shown = detail.lenders
      .find((l: { id: string }) => l.id === lender.id)
      .products.find((p: { id: string }) => p.id === product.id);
    expect(shown).toEqual(productView(product));

    const edit = (changes: object, version = '2027-edit') => ({
      version,
      lenderId: lender.id,
      productId: product.id,
      changes,
    });
    const made = await ops.post(
      '/api/ops/panel/drafts/product-edit',
      edit({ fees: { exitFeePct: product.fees.exitFeePct + 0.001 }, regions: ['London'] }),
    );
    expect(made.status).toBe(201);
    expect(made.json()).toMatchObject({
      version: '2027-edit',
      status: 'draft',
      source: `edit of ${base.version}: ${lender.id}/${product.id}`,
    });
    const diff = (await ops.get('/api/ops/panel/versions/2027-edit/diff')).json();
    expect(diff.products[0].fields).toEqual([
      { field: 'fees.exitFeePct', before: product.fees.exitFeePct, after: product.fees.exitFeePct + 0.001 },
    ]);
    expect(diff.lenders[0]).toMatchObject({
      lenderId: lender.id,
      fields: [{ field: 'regions', after: ['London'] }],
    });

    const unknown = await ops.post('/api/ops/panel/drafts/product-edit', {
      ...edit({ minLoan: 30_000 }, '2027-x'),
      productId: 'nope',
    });
    expect(unknown.status).toBe(404);
    const broken = await ops.post(
      '/api/ops/panel/drafts/product-edit',
      edit({ rateCard: [{ maxRatio: 0.1, rate: 0.01 }] }, '2027-y'),
    );
    expect(broken.status).toBe(400);
    expect(broken.json().problems[0].reason).toMatch(/rate card stops below/);
    const taken = await ops.post('/api/ops/panel/drafts/product-edit', edit({ minLoan: 30_000 }));
    expect(taken.status).toBe(409);
    expect((await ops.get('/api/ops/panel/versions/2027-y')).status).toBe(404);
    expect((await ops.get('/api/ops/panel/versions/never/impact')).status).toBe(404);
  });
});
