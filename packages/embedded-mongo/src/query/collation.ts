// Collations (locale string comparison) through Intl.Collator: strengths 1-3, caseLevel, caseFirst,
// numericOrdering and alternate: 'shifted'. The command's collation is set around its handler (the
// server runs one command at a time) and read by string comparisons in the matcher and sort.
import { errors } from '../errors';

let active: Intl.Collator | undefined;

export function activeCollator(): Intl.Collator | undefined {
  return active;
}

const KNOWN = new Set([
  'locale',
  'strength',
  'caseLevel',
  'caseFirst',
  'numericOrdering',
  'alternate',
  'maxVariable',
  'normalization',
  'backwards',
  'version',
]);

/** A collation as MongoDB stores and lists it (every field), with the Intl.Collator that applies it. */
export interface ParsedCollation {
  collator: Intl.Collator;
  /** MongoDB's full form: the fields in its order, defaults filled in, ICU version. */
  spec: Record<string, unknown>;
}

// One collator per distinct collation: building an Intl.Collator costs far more than a lookup, and
// indexes use identity to tell whether a query's collation is theirs.
const parsedCache = new Map<string, ParsedCollation>();

/** MongoDB's collation document as an Intl.Collator; undefined for the simple (binary) one. */
export function collatorFor(spec: unknown): Intl.Collator | undefined {
  return parseCollation(spec)?.collator;
}

/**
 * A collation document checked as MongoDB checks it, with its full form (what listIndexes and
 * listCollections show); undefined for the simple (binary) collation.
 */
export function parseCollation(spec: unknown): ParsedCollation | undefined {
  if (spec === undefined || spec === null) return undefined;
  if (typeof spec !== 'object' || Array.isArray(spec))
    throw errors.typeMismatch("BSON field 'collation' is the wrong type, expected type 'object'");
  const doc = spec as Record<string, unknown>;
  for (const key of Object.keys(doc))
    if (!KNOWN.has(key)) throw errors.location(40415, `BSON field 'collation.${key}' is an unknown field.`);
  const locale = doc.locale;
  if (typeof locale !== 'string')
    throw errors.failedToParse("BSON field 'collation.locale' is missing but a required field");
  if (locale === 'simple') {
    if (Object.keys(doc).length > 1)
      throw errors.badValue("Collation with locale 'simple' may not specify other options");
    return undefined;
  }
  const tag = locale.replace(/@.*$/, '').replace(/_/g, '-');
  if (Intl.Collator.supportedLocalesOf([tag]).length === 0 && tag !== 'en')
    throw errors.badValue(`Field 'locale' is invalid in: ${JSON.stringify(doc)}`);
  const strength = doc.strength === undefined ? 3 : Number(doc.strength);
  if (![1, 2, 3, 4, 5].includes(strength))
    throw errors.badValue('collation strength must be an integer 1 through 5');
  if (strength > 3) throw errors.notSupported(`collation strength ${strength} (1-3 only)`);
  if (doc.backwards === true) throw errors.notSupported('collation backwards (French accent ordering)');
  if (doc.normalization === true) throw errors.notSupported('collation normalization');
  if (doc.alternate !== undefined && doc.alternate !== 'non-ignorable' && doc.alternate !== 'shifted')
    throw errors.badValue(
      `Enumeration value '${String(doc.alternate)}' for field 'alternate' is not a valid value.`,
    );
  if (doc.maxVariable !== undefined && doc.maxVariable !== 'punct')
    throw errors.notSupported(`collation maxVariable ${String(doc.maxVariable)}`);
  const caseFirst = doc.caseFirst === undefined || doc.caseFirst === 'off' ? undefined : doc.caseFirst;
  if (caseFirst !== undefined && caseFirst !== 'upper' && caseFirst !== 'lower')
    throw errors.badValue(
      `Enumeration value '${String(doc.caseFirst)}' for field 'caseFirst' is not a valid value.`,
    );
  const sensitivity =
    strength === 1
      ? doc.caseLevel === true
        ? 'case'
        : 'base'
      : strength === 2
        ? doc.caseLevel === true
          ? 'variant'
          : 'accent'
        : 'variant';
  const full = {
    locale,
    caseLevel: doc.caseLevel === true,
    caseFirst: caseFirst ?? 'off',
    strength,
    numericOrdering: doc.numericOrdering === true,
    alternate: doc.alternate ?? 'non-ignorable',
    maxVariable: doc.maxVariable ?? 'punct',
    normalization: doc.normalization === true,
    backwards: doc.backwards === true,
    // The ICU version MongoDB 7.0 reports.
    version: '57.1',
  };
  const cacheKey = JSON.stringify(full);
  let parsed = parsedCache.get(cacheKey);
  if (!parsed) {
    const collator = new Intl.Collator(tag, {
      sensitivity,
      caseFirst: caseFirst as 'upper' | 'lower' | undefined,
      numeric: full.numericOrdering,
      ignorePunctuation: full.alternate === 'shifted',
      usage: 'sort',
    });
    parsed = { collator, spec: full };
    parsedCache.set(cacheKey, parsed);
  }
  return parsed;
}

/**
 * The equivalence classes of strings under one collation, for index keys: each string maps to the
 * first string of its class the index met (found by binary search in the representatives, kept
 * sorted by the collator), so strings the collation calls equal get one key. Intl.Collator has no
 * sort keys; this gives the same equality without them.
 */
export class CollationClasses {
  private readonly reps: string[] = [];

  constructor(private readonly collator: Intl.Collator) {}

  /** The representative of `s`'s class; `s` becomes one when none is held and `add` is set. */
  of(s: string, add: boolean): string {
    let lo = 0;
    let hi = this.reps.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.collator.compare(this.reps[mid], s);
      if (c === 0) return this.reps[mid];
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    if (add) this.reps.splice(lo, 0, s);
    return s;
  }

  /** `v` with every string in it (inside arrays and documents too) replaced by its representative. */
  map(v: unknown, add: boolean): unknown {
    if (typeof v === 'string') return this.of(v, add);
    if (Array.isArray(v)) return v.map((x) => this.map(x, add));
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = this.map(x, add);
      return out;
    }
    return v;
  }
}

export function withCollation<T>(collator: Intl.Collator | undefined, run: () => T): T {
  const previous = active;
  active = collator;
  try {
    return run();
  } finally {
    active = previous;
  }
}
