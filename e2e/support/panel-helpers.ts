// The lender panel as the browser tests change it: the shipped panel file, a cheaper version of it,
// and the version active now (to put it back after a spec).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';

/** The panel shipped with the search service (JSON Lines: the header, then one lender per line). */
export const SHIPPED_PANEL = readFileSync(
  path.resolve(__dirname, '../../services/search/src/panel/data/lender-panel.jsonl'),
  'utf8',
);

interface PanelProduct {
  id: string;
  name: string;
  loanType: string;
  rateCard: Array<{ maxRatio: number; ratePerMonth: number }>;
}
interface PanelLender {
  id: string;
  name: string;
  products: PanelProduct[];
}

/**
 * The shipped panel under `version` with one bridging product's rates halved; returns the file and
 * what changed, for the diff.
 */
export function cheaperPanelFile(version: string, lenderId: string, productId: string) {
  const [header, ...lenders] = SHIPPED_PANEL.trimEnd().split('\n');
  let changed: { lender: string; product: string; before: number; after: number } | null = null;
  const lines = lenders.map((line) => {
    const lender = JSON.parse(line) as PanelLender;
    if (lender.id !== lenderId) return line;
    for (const product of lender.products) {
      if (product.id !== productId || product.loanType !== 'bridging') continue;
      const before = product.rateCard[0].ratePerMonth;
      product.rateCard = product.rateCard.map((band) => ({
        ...band,
        ratePerMonth: Math.round((band.ratePerMonth / 2) * 1e6) / 1e6,
      }));
      changed = {
        lender: lender.name,
        product: product.name,
        before,
        after: product.rateCard[0].ratePerMonth,
      };
    }
    return JSON.stringify(lender);
  });
  if (!changed) throw new Error(`no bridging product ${lenderId}/${productId} in the shipped panel`);
  const content = [JSON.stringify({ ...JSON.parse(header), version }), ...lines].join('\n') + '\n';
  return { content, changed: changed as { lender: string; product: string; before: number; after: number } };
}

/** The version the panel has active now. */
export async function activeVersion(request: APIRequestContext): Promise<string> {
  const overview = await request.get('/api/ops/panel');
  expect(overview.status()).toBe(200);
  return ((await overview.json()) as { active: { version: string } }).active.version;
}
