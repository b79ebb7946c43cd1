import type { PanelProductEditBody, PanelProductView } from '@lsp/contracts';
import { type Panel, type Product, panelSchema } from './schema';

/** A product's editable terms, one shape for the three loan types (rates per month for bridging). */
export function productView(product: Product): PanelProductView {
  const bridging = product.loanType === 'bridging';
  return {
    id: product.id,
    name: product.name,
    loanType: product.loanType,
    ratePer: bridging ? 'month' : 'year',
    rateCard:
      product.loanType === 'bridging'
        ? product.rateCard.map((band) => ({ maxRatio: band.maxRatio, rate: band.ratePerMonth }))
        : product.rateCard.map((band) => ({ maxRatio: band.maxRatio, rate: band.ratePerYear })),
    maxRatioBands: product.loanType === 'development' ? product.maxLtgdvBands : product.maxLtvBands,
    fees: product.fees,
    minLoan: product.minLoan,
    maxLoan: product.maxLoan,
    minTermMonths: product.minTermMonths,
    maxTermMonths: product.maxTermMonths,
    refusedPropertyClasses: product.refusedPropertyClasses,
  };
}

function editedProduct(product: Product, changes: PanelProductEditBody['changes']): Product {
  const { rateCard, maxRatioBands, fees, regions: _regions, ...plain } = changes;
  const next = { ...product, ...plain, fees: { ...product.fees, ...fees } } as Product;
  if (rateCard)
    next.rateCard = (
      next.loanType === 'bridging'
        ? rateCard.map((band) => ({ maxRatio: band.maxRatio, ratePerMonth: band.rate }))
        : rateCard.map((band) => ({ maxRatio: band.maxRatio, ratePerYear: band.rate }))
    ) as never;
  if (maxRatioBands) {
    if (next.loanType === 'development') next.maxLtgdvBands = maxRatioBands;
    else next.maxLtvBands = maxRatioBands;
  }
  return next;
}

export type ProductEditOutcome =
  | { ok: true; panel: Panel }
  | { ok: false; notFound: true }
  | { ok: false; notFound: false; problems: Array<{ line: null; reason: string }> };

/**
 * The panel with one product's terms (and its lender's regions) changed, under a new version, validated
 * in full as an uploaded file is: an edit can break a rule that spans fields (a rate card that stops
 * below the highest cap), and nothing is stored then.
 */
export function applyProductEdit(panel: Panel, edit: PanelProductEditBody): ProductEditOutcome {
  const lender = panel.lenders.find((l) => l.id === edit.lenderId);
  const product = lender?.products.find((p) => p.id === edit.productId);
  if (!lender || !product) return { ok: false, notFound: true };
  const candidate = {
    ...panel,
    version: edit.version,
    description: edit.description ?? `${panel.version} with ${lender.name}'s ${product.name} changed`,
    lenders: panel.lenders.map((l) =>
      l.id !== lender.id
        ? l
        : {
            ...l,
            regions: edit.changes.regions ?? l.regions,
            products: l.products.map((p) => (p.id === product.id ? editedProduct(p, edit.changes) : p)),
          },
    ),
  };
  const parsed = panelSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, panel: parsed.data };
  return {
    ok: false,
    notFound: false,
    problems: parsed.error.issues.map((issue) => ({
      line: null,
      reason: `${issue.path.join('.') || 'panel'}: ${issue.message}`,
    })),
  };
}
