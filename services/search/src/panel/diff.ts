import type { PanelDiff, PanelProductChange } from '@lsp/contracts';
import type { Lender, Panel } from './schema';

type FieldChange = PanelDiff['products'][number]['fields'][number];

/** Every leaf of a value by its path (`fees.exitFeePct`, `rateCard[1].ratePerYear`). */
function leaves(value: unknown, path: string, into: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value)) {
    if (value.length === 0 || value.every((v) => typeof v !== 'object' || v === null)) into.set(path, value);
    else value.forEach((item, i) => leaves(item, `${path}[${i}]`, into));
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) into.set(path, value);
    for (const [key, item] of entries) leaves(item, path ? `${path}.${key}` : key, into);
  } else {
    into.set(path, value);
  }
  return into;
}

/** The leaves that differ between two values, in path order (a leaf on one side only: null on the other). */
export function fieldChanges(before: unknown, after: unknown, omit: readonly string[] = []): FieldChange[] {
  const a = leaves(before, '', new Map());
  const b = leaves(after, '', new Map());
  const paths = [...new Set([...a.keys(), ...b.keys()])].filter((p) => !omit.includes(p)).sort();
  return paths
    .filter((path) => JSON.stringify(a.get(path)) !== JSON.stringify(b.get(path)))
    .map((field) => ({ field, before: a.get(field) ?? null, after: b.get(field) ?? null }));
}

function productsOf(panel: Panel | null) {
  const products = new Map<string, { lender: Lender; product: Lender['products'][number] }>();
  for (const lender of panel?.lenders ?? [])
    for (const product of lender.products) products.set(`${lender.id}/${product.id}`, { lender, product });
  return products;
}

/**
 * What `after` changes against `before`, product by product and field by field, and lender by lender
 * for the lender's own terms (name, kind, regions). Order: the panel's own order of lenders and products.
 */
export function diffPanels(before: Panel | null, after: Panel): Omit<PanelDiff, 'version' | 'against'> {
  const was = productsOf(before);
  const now = productsOf(after);
  const products: PanelProductChange[] = [];
  const described = (key: string, change: PanelProductChange['change'], fields: FieldChange[]) => {
    const { lender, product } = (now.get(key) ?? was.get(key))!;
    products.push({
      lenderId: lender.id,
      lenderName: lender.name,
      productId: product.id,
      productName: product.name,
      change,
      fields,
    });
  };
  for (const [key, { product }] of now) {
    const old = was.get(key);
    if (!old) described(key, 'added', []);
    else {
      const fields = fieldChanges(old.product, product);
      if (fields.length) described(key, 'changed', fields);
    }
  }
  for (const key of was.keys()) if (!now.has(key)) described(key, 'removed', []);

  const lendersBefore = new Map((before?.lenders ?? []).map((l) => [l.id, l]));
  const lendersAfter = new Map(after.lenders.map((l) => [l.id, l]));
  const lenders: PanelDiff['lenders'] = [];
  for (const [id, lender] of lendersAfter) {
    const old = lendersBefore.get(id);
    if (!old) lenders.push({ lenderId: id, change: 'added', fields: [] });
    else {
      const fields = fieldChanges(old, lender, []).filter((f) => !f.field.startsWith('products'));
      if (fields.length) lenders.push({ lenderId: id, change: 'changed', fields });
    }
  }
  for (const id of lendersBefore.keys())
    if (!lendersAfter.has(id)) lenders.push({ lenderId: id, change: 'removed', fields: [] });
  return { products, lenders };
}

/**
 * For each product change, the versions in which the product had exactly the terms `after` gives it:
 * `after` itself and any of the `earlier` panels (those activated before). A removed product has none.
 * A DIP priced under one of them is on the product's current terms again, as after a rollback.
 */
export function withSameTerms<T extends { lenderId: string; productId: string; change: string }>(
  changes: readonly T[],
  after: Panel,
  earlier: readonly Panel[],
): Array<T & { sameTermsIn: string[] }> {
  const now = productsOf(after);
  const then = earlier.map((panel) => ({ version: panel.version, products: productsOf(panel) }));
  return changes.map((change) => {
    const key = `${change.lenderId}/${change.productId}`;
    const current = now.get(key)?.product;
    if (!current) return { ...change, sameTermsIn: [] };
    const same = then
      .filter(({ products }) => {
        const old = products.get(key)?.product;
        return old !== undefined && fieldChanges(old, current).length === 0;
      })
      .map(({ version }) => version);
    return { ...change, sameTermsIn: [after.version, ...same] };
  });
}
