// Sorting with MongoDB's rules: cross-type order, missing sorts as null, arrays sort by their
// smallest element ascending and largest element descending.
import { Doc, compareValues, isPlainObject } from './values';

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
      else v.forEach((el) => walk(isPlainObject(el) ? el[parts[i]] : undefined, parts, i + 1));
      return;
    }
    walk(isPlainObject(v) ? v[parts[i]] : undefined, parts, i + 1);
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

/** Stable sort of items by the documents `docOf` returns, following a sort specification. */
export function sortBy<T>(items: T[], spec: Doc, docOf: (item: T) => Doc): T[] {
  // Precompute keys once: comparing through sortKey repeatedly dominates large sorts.
  const entries = Object.entries(spec).filter(([, d]) => !isPlainObject(d));
  if (entries.length === 0) return items.slice();
  const keyed = items.map((d) => ({ d, k: entries.map(([p, dir]) => sortKey(docOf(d), p, Number(dir) < 0 ? -1 : 1)) }));
  keyed.sort((x, y) => {
    for (let i = 0; i < entries.length; i++) {
      const c = compareValues(x.k[i], y.k[i]);
      if (c !== 0) return Number(entries[i][1]) < 0 ? -c : c;
    }
    return 0;
  });
  return keyed.map((e) => e.d);
}
