// Sorting with MongoDB's rules: cross-type order, missing sorts as null, arrays sort by their
// smallest element ascending and largest element descending.
import { Doc, compareValues, getField, isPlainObject } from './values';

function sortKey(doc: Doc, path: string, dir: number): unknown {
  const values: unknown[] = [];
  const walk = (v: unknown, parts: string[], i: number) => {
    if (i === parts.length) {
      if (Array.isArray(v)) {
        if (v.length === 0) values.push(undefined);
        else v.forEach((x) => values.push(x));
      } else values.push(v);
      return;
    }
    if (Array.isArray(v)) {
      if (/^\d+$/.test(parts[i])) walk(v[Number(parts[i])], parts, i + 1);
      else v.forEach((el) => walk(isPlainObject(el) ? getField(el, parts[i]) : undefined, parts, i + 1));
      return;
    }
    walk(isPlainObject(v) ? getField(v, parts[i]) : undefined, parts, i + 1);
  };
  walk(doc, path.split('.'), 0);
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    const c = compareValues(values[i], best);
    if ((dir > 0 && c < 0) || (dir < 0 && c > 0)) best = values[i];
  }
  return best;
}

export function sortDocuments<T extends Doc>(docs: T[], spec: Doc): T[] {
  return sortBy(docs, spec, (d) => d);
}

/**
 * Stable sort of items by the documents `docOf` returns, following a sort specification. With
 * `keep`, only the first `keep` items are wanted: a bounded insertion buffer avoids sorting a whole
 * collection to serve `sort().limit(20)`.
 */
export function sortBy<T>(items: T[], spec: Doc, docOf: (item: T) => Doc, keep?: number): T[] {
  // Precompute keys once: comparing through sortKey repeatedly dominates large sorts.
  const entries = Object.entries(spec).filter(([, d]) => !isPlainObject(d));
  if (entries.length === 0) return items.slice();
  const dirs = entries.map(([, dir]) => (Number(dir) < 0 ? -1 : 1));
  const keyOf = (d: T) => entries.map(([p], i) => sortKey(docOf(d), p, dirs[i]));
  const cmp = (x: { k: unknown[] }, y: { k: unknown[] }) => {
    for (let i = 0; i < dirs.length; i++) {
      const c = compareValues(x.k[i], y.k[i]);
      if (c !== 0) return c * dirs[i];
    }
    return 0;
  };
  if (keep !== undefined && keep > 0 && keep * 8 < items.length) {
    const best: { d: T; k: unknown[] }[] = [];
    for (const d of items) {
      const entry = { d, k: keyOf(d) };
      if (best.length === keep && cmp(entry, best[keep - 1]) >= 0) continue;
      // Insert after equal keys so equal documents keep their original order.
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(best[mid], entry) <= 0) lo = mid + 1;
        else hi = mid;
      }
      best.splice(lo, 0, entry);
      if (best.length > keep) best.pop();
    }
    return best.map((e) => e.d);
  }
  const keyed = items.map((d) => ({ d, k: keyOf(d) }));
  keyed.sort(cmp);
  return keyed.map((e) => e.d);
}
