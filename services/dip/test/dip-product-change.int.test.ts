import { randomUUID } from 'node:crypto';
import {
  DIP_MESSAGES,
  type EventEnvelope,
  type PanelActivatedEvent,
  SEARCH_EVENT_TYPES,
  SHARING_EVENT_TYPES,
  createEnvelope,
} from '@lsp/contracts';
import { Outbox, ProcessedEvents } from '@lsp/service-kit';
import { type CookieClient, useHarness } from '@lsp/testing';
import { DipRepository } from '../src/data/dips';
import { handlePanelActivated } from '../src/events/consumed';
import { HOUR, startDipHarness } from './dip-harness';

/** online_dips as stored, as far as these tests read it. */
interface StoredDip {
  version: number;
  expiresAt: Date;
  snapshot: {
    lenderId: string;
    productId: string;
    lenderName: string;
    productName: string;
    loan: { netLoan: { toString(): string } };
  };
  productChange?: { panelVersion: string; change: string; at: Date } | null;
  pricedUnder?: string | null;
}

const NOTICE_KINDS = ['withdrawn', 'repriced'];

describe('a lender panel change to the product a DIP was issued from', () => {
  const h = useHarness(startDipHarness);
  let owner: { client: CookieClient; user: { userId: string; email: string } };
  let other: { client: CookieClient; user: { userId: string; email: string } };
  let searchId: string;
  /** Each activation a minute after the one before: the latest change is the one kept. */
  let activations = 0;
  const firstActivation = Date.now();

  beforeAll(async () => {
    owner = await h.signedIn({ name: 'Alex Investor' });
    other = await h.signedIn({ name: 'Other Person' });
    searchId = await h.savedSearch(owner.client, owner.user.userId);
  });

  async function newDip(index = 0, validHours = 48) {
    const res = await owner.client.post(`/api/online-dip/create/${searchId}/${index}`, { validHours });
    expect(res.status).toBe(201);
    return res.json() as { dipId: string; quoteCode: string; shareUrl: string };
  }

  async function stored(dipId: string): Promise<StoredDip> {
    const doc = await h.dipDb.collection('online_dips').findOne({ _id: dipId as never });
    if (!doc) throw new Error(`no DIP ${dipId}`);
    return doc as unknown as StoredDip;
  }

  async function productOf(dipId: string) {
    const doc = await stored(dipId);
    return { lenderId: doc.snapshot.lenderId, productId: doc.snapshot.productId };
  }

  type ProductChange = PanelActivatedEvent['changedProducts'][number];

  /**
   * An activation as search writes it; a product's `sameTermsIn` is, unless given, only the new
   * version (none for a removed product): terms no DIP was priced on.
   */
  function activation(
    version: string,
    changedProducts: Array<Omit<ProductChange, 'sameTermsIn'> & Partial<Pick<ProductChange, 'sameTermsIn'>>>,
    activatedAt = new Date(firstActivation + ++activations * 60_000),
  ): EventEnvelope<PanelActivatedEvent> {
    const data: PanelActivatedEvent = {
      version,
      previousVersion: 'panel-before',
      rollback: false,
      activatedBy: 'ops@example.com',
      activatedAt: activatedAt.toISOString(),
      changedProducts: changedProducts.map((p) => ({
        ...p,
        sameTermsIn: p.sameTermsIn ?? (p.change === 'removed' ? [] : [version]),
      })),
    };
    return {
      ...createEnvelope('search', { type: SEARCH_EVENT_TYPES.panelActivated, subject: version, data }),
      data,
    };
  }

  /** Publishes the activation as search does and waits until dip has handled it. */
  async function deliver(envelope: EventEnvelope) {
    const before = await markersOf(envelope.id);
    await h.bus.publish(envelope);
    await h.until(async () => (await markersOf(envelope.id)) > before || null, `${envelope.id} handled`);
  }
  const markersOf = (eventId: string) =>
    h.dipDb.collection('processed_events').countDocuments({ eventId, consumer: 'dip:panel' });

  async function productEvents(userId: string, panelVersion?: string) {
    const rows = await h.dipDb.collection('outbox').find({ type: 'dip.product.changed' }).toArray();
    return rows
      .map((row) => JSON.parse(row.payload as string))
      .filter((e) => e.data.userId === userId && (!panelVersion || e.data.panelVersion === panelVersion));
  }

  it('marks every live DIP of a changed product, keeps its terms, shows the owner alone, and tells the owner once', async () => {
    const first = await newDip(0);
    const second = await newDip(0);
    const elsewhere = await newDip(1);
    const product = await productOf(first.dipId);
    const otherProduct = await productOf(elsewhere.dipId);
    const sameProduct =
      otherProduct.lenderId === product.lenderId && otherProduct.productId === product.productId;
    const before = await stored(first.dipId);

    const changed = activation('panel-2027-01', [
      { ...product, change: 'changed' },
      // A product no DIP was issued from concerns nobody.
      { lenderId: 'no-such-lender', productId: 'no-such-product', change: 'removed' },
    ]);
    await deliver(changed);

    const after = await stored(first.dipId);
    expect(after.productChange).toEqual({
      panelVersion: 'panel-2027-01',
      change: 'repriced',
      at: new Date(changed.data.activatedAt),
    });
    // The DIP as issued: the same snapshot, the same version (so the same PDF), the same expiry.
    expect(after.snapshot).toEqual(before.snapshot);
    expect(after.version).toBe(before.version);
    expect(after.expiresAt).toEqual(before.expiresAt);
    expect((await stored(second.dipId)).productChange?.change).toBe('repriced');
    if (!sameProduct) expect((await stored(elsewhere.dipId)).productChange ?? null).toBeNull();

    // The owner's view, list and online page say so; the terms they show are as issued.
    const notice = { panelVersion: 'panel-2027-01', change: 'repriced', at: changed.data.activatedAt };
    const view = await owner.client.get(`/api/online-dip/${first.dipId}`);
    expect(view.status).toBe(200);
    expect(view.json().dip.productChange).toEqual(notice);
    expect(view.json().dip.loan.netLoanAmount).toBe(Number(before.snapshot.loan.netLoan.toString()));
    const list = await owner.client.get(`/api/online-dip/user/${owner.user.userId}`);
    const listed = list.json().dips.find((d: { id: string }) => d.id === first.dipId);
    expect(listed.productChange).toEqual(notice);
    const slug = first.shareUrl.split('/').pop();
    expect((await owner.client.get(`/api/online-dip/${slug}`)).json().productChange).toEqual(notice);

    // Someone else is refused the owner's view as before.
    const refused = await other.client.get(`/api/online-dip/${first.dipId}`);
    expect(refused.status).toBe(403);
    expect(refused.json().error).toBe(DIP_MESSAGES.accessDenied);

    // One event for the owner, naming both DIPs of the product.
    const events = await productEvents(owner.user.userId, 'panel-2027-01');
    expect(events).toHaveLength(1);
    expect(events[0].subject).toBe(owner.user.userId);
    expect(events[0].data.dips).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ dipId: first.dipId, quoteCode: first.quoteCode, change: 'repriced' }),
        expect.objectContaining({ dipId: second.dipId, quoteCode: second.quoteCode, change: 'repriced' }),
      ]),
    );
    expect(events[0].data.dips[0].lenderName).toBe(before.snapshot.lenderName);
    expect(events[0].data.dips[0].productName).toBe(before.snapshot.productName);

    // Delivered again, the activation marks and publishes nothing more: on the bus, and handed to the
    // handler once more.
    await h.bus.publish(changed);
    await deliver(activation('panel-2027-01-after', []));
    const dips = new DipRepository(h.dipDb, await Outbox.open(h.dipDb));
    await handlePanelActivated(changed, {
      processed: await ProcessedEvents.open(h.dipDb),
      dips,
      clock: h.clock,
    });
    expect(await markersOf(changed.id)).toBe(1);
    expect(await productEvents(owner.user.userId, 'panel-2027-01')).toHaveLength(1);
    expect((await stored(first.dipId)).productChange).toEqual(after.productChange);
  });

  it('tells someone the DIP was shared with nothing of it', async () => {
    const dip = await newDip(0);
    await deliver(activation('panel-2027-02', [{ ...(await productOf(dip.dipId)), change: 'changed' }]));
    const recipient = await h.signedIn({ name: 'Robin Recipient' });
    const slug = dip.shareUrl.split('/').pop();
    await h.bus.publish(
      createEnvelope('sharing', {
        type: SHARING_EVENT_TYPES.shareCreated,
        subject: dip.dipId,
        data: {
          shareId: randomUUID(),
          dipId: dip.dipId,
          ownerUserId: owner.user.userId,
          sharedByName: 'Alex Investor',
          inviteType: 'targeted',
          recipientEmail: recipient.user.email,
          permissions: { view: true, downloadPdf: true },
          message: null,
          quoteCode: dip.quoteCode,
          shareUrl: `http://localhost:8080/shared/${slug}?e=x&sig=y`,
          expiresAt: new Date(Date.now() + 48 * HOUR).toISOString(),
          createdAt: new Date().toISOString(),
        },
      }),
    );
    const seen = await h.until(async () => {
      const res = await recipient.client.get(`/api/online-dip/${slug}`);
      return res.status === 200 ? (res.json() as { quoteCode: string; productChange: unknown }) : null;
    }, 'the recipient to open the DIP');
    expect(seen.quoteCode).toBe(dip.quoteCode);
    expect(seen.productChange).toBeNull();
    expect((await owner.client.get(`/api/online-dip/${slug}`)).json().productChange.change).toBe('repriced');
  });

  it("keeps the latest change; leaves expired and revoked DIPs and an older or 'added'-only activation alone", async () => {
    const live = await newDip(0);
    const revoked = await newDip(0);
    expect((await owner.client.post(`/api/online-dip/${revoked.dipId}/revoke`, {})).status).toBe(200);
    const expiring = await newDip(0, 1);
    h.clock.advance(2 * HOUR);
    const product = await productOf(live.dipId);
    const eventsBefore = await productEvents(owner.user.userId);

    const withdrawn = activation('panel-2027-03', [{ ...product, change: 'removed' }]);
    await deliver(withdrawn);
    expect((await stored(live.dipId)).productChange).toMatchObject({
      panelVersion: 'panel-2027-03',
      change: 'withdrawn',
    });
    expect((await stored(revoked.dipId)).productChange ?? null).toBeNull();
    expect((await stored(expiring.dipId)).productChange ?? null).toBeNull();
    const [event] = await productEvents(owner.user.userId, 'panel-2027-03');
    const named = event.data.dips.map((d: { dipId: string }) => d.dipId);
    expect(named).toContain(live.dipId);
    expect(named).not.toContain(revoked.dipId);
    expect(named).not.toContain(expiring.dipId);
    expect(event.data.dips.every((d: { change: string }) => NOTICE_KINDS.includes(d.change))).toBe(true);

    // An activation that only adds the product (a rollback bringing it back) changes nothing.
    await deliver(activation('panel-2027-04', [{ ...product, change: 'added' }]));
    // One activated before the latest, handled late, does not overwrite it.
    await deliver(
      activation('panel-2026-12', [{ ...product, change: 'changed' }], new Date(firstActivation)),
    );
    expect((await stored(live.dipId)).productChange).toMatchObject({
      panelVersion: 'panel-2027-03',
      change: 'withdrawn',
    });
    expect(await productEvents(owner.user.userId, 'panel-2027-04')).toHaveLength(0);
    expect(await productEvents(owner.user.userId, 'panel-2026-12')).toHaveLength(0);
    expect(await productEvents(owner.user.userId)).toHaveLength(eventsBefore.length + 1);
  });

  it('ends the notice, telling nobody, when a rollback brings the product back to the terms the DIP was priced on', async () => {
    const dip = await newDip(0);
    // The panel version of the search run the offer came from, carried by search.saved.
    const pricedUnder = (await stored(dip.dipId)).pricedUnder;
    if (!pricedUnder) throw new Error('the DIP does not record the panel version it was priced under');
    const product = await productOf(dip.dipId);

    await deliver(activation('panel-2027-05', [{ ...product, change: 'changed' }]));
    expect((await stored(dip.dipId)).productChange?.change).toBe('repriced');
    expect(await productEvents(owner.user.userId, 'panel-2027-05')).toHaveLength(1);

    // Rolled back: the product's terms are those of the version the DIP was priced under.
    const back = activation(pricedUnder, [
      { ...product, change: 'changed', sameTermsIn: [pricedUnder, 'panel-2026-01'] },
    ]);
    await deliver(back);
    expect((await stored(dip.dipId)).productChange).toBeNull();
    expect((await owner.client.get(`/api/online-dip/${dip.dipId}`)).json().dip.productChange).toBeNull();
    expect(await productEvents(owner.user.userId, pricedUnder)).toHaveLength(0);

    // The repricing activation delivered again late does not bring the notice back.
    await deliver(
      activation('panel-2027-05-late', [{ ...product, change: 'changed' }], new Date(firstActivation)),
    );
    expect((await stored(dip.dipId)).productChange).toBeNull();
    expect(await productEvents(owner.user.userId, 'panel-2027-05-late')).toHaveLength(0);

    // Terms other than those it was priced on mark it again, and its owner hears of it.
    await deliver(activation('panel-2027-07', [{ ...product, change: 'changed' }]));
    expect((await stored(dip.dipId)).productChange).toMatchObject({
      panelVersion: 'panel-2027-07',
      change: 'repriced',
    });
    expect(await productEvents(owner.user.userId, 'panel-2027-07')).toHaveLength(1);
  });
});
