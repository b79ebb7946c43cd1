import type { Panel } from './schema';

/**
 * `panel` under another version with every product's rates `cut` lower (0.1: a tenth lower), rounded
 * as a panel file writes rates: the market moving, as the chaos run, the re-pricing bench and the
 * whole-system tests activate it.
 */
export function panelWithRatesCut(panel: Panel, version: string, cut: number, description?: string): Panel {
  const lower = (rate: number) => Math.round(rate * (1 - cut) * 1e6) / 1e6;
  const next = structuredClone(panel);
  next.version = version;
  next.description = description ?? `Rates ${Math.round(cut * 100)}% lower`;
  for (const lender of next.lenders)
    for (const product of lender.products)
      product.rateCard = product.rateCard.map((band) =>
        'ratePerMonth' in band
          ? { ...band, ratePerMonth: lower(band.ratePerMonth) }
          : { ...band, ratePerYear: lower(band.ratePerYear) },
      ) as never;
  return next;
}
