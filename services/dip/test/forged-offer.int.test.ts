import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forgedOffer, silentLogger } from '@lsp/testing';
import { PdfRenderer, renderDipHtml } from '../src/pdf';
import { DEVELOPMENT_PAYLOAD } from '../../search/test/search-harness';
import { type DipHarness, startDipHarness } from './dip-harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FORGED = /Forged|Guaranteed|guaranteed|invented-product/;

/**
 * A borrower edits every field of every offer in the answer they save: the DIP made from it, its
 * online page and its PDF show only what the panel offered.
 */
describe('a DIP from a search saved with edited offers', () => {
  let h: DipHarness;
  let renderer: PdfRenderer;
  let dir: string;
  let lastPdf: Buffer | null = null;

  beforeAll(async () => {
    renderer = new PdfRenderer({ executablePath: CHROMIUM, concurrency: 1, logger: silentLogger() });
    h = await startDipHarness({
      pdfs: {
        get: async (dip) => {
          lastPdf = await renderer.render(renderDipHtml(dip));
          return lastPdf;
        },
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'dip-forged-'));
  });

  afterAll(async () => {
    await h?.close();
    await renderer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the run’s own lender, product and figures in the DIP, its online page and its PDF', async () => {
    const owner = await h.signedIn({ name: 'Alex Investor' });
    const { userId } = owner.user;
    const run = (await owner.client.post('/api/development', { ...DEVELOPMENT_PAYLOAD, userId })).json();
    const real = run.data.Results[0];
    const saved = await owner.client.post('/api/search', {
      userId,
      loanType: 'development',
      searchData: { ...DEVELOPMENT_PAYLOAD, projectName: 'Forged Bank PLC' },
      apiResponse: {
        ...run,
        data: {
          ...run.data,
          Results: [
            ...run.data.Results.map(forgedOffer),
            { ...forgedOffer(real), ProductId: 'invented-product' },
          ],
        },
      },
    });
    expect(saved.status).toBe(201);
    const created = await owner.client.post(`/api/online-dip/create/${saved.json().search.id}/0`, {
      validHours: 48,
    });
    expect(created.status).toBe(201);
    const dip = created.json() as { dipId: string; quoteCode: string; shareUrl: string };

    const ownerView = await owner.client.get(`/api/online-dip/${dip.dipId}`);
    const online = await owner.client.get(`/api/online-dip/${dip.shareUrl.split('/').pop()}`);
    const pdf = await owner.client.get(`/api/online-dip/pdf/${dip.quoteCode}`);
    expect([ownerView.status, online.status, pdf.status]).toEqual([200, 200, 200]);
    expect(lastPdf).not.toBeNull();
    const file = path.join(dir, 'dip.pdf');
    writeFileSync(file, lastPdf as Buffer);
    const pdfText = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });

    for (const seen of [ownerView.text, online.text, pdfText]) expect(seen).not.toMatch(FORGED);
    expect(ownerView.text).toContain(real.LenderName);
    expect(pdfText).toContain(real.LenderName);
    expect(online.json().loan.netLoan).toBe(real.NetLoan);
  });
});
