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

/** MongoDB's collation document as an Intl.Collator; undefined for the simple (binary) one. */
export function collatorFor(spec: unknown): Intl.Collator | undefined {
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
  return new Intl.Collator(tag, {
    sensitivity,
    caseFirst: caseFirst as 'upper' | 'lower' | undefined,
    numeric: doc.numericOrdering === true,
    ignorePunctuation: doc.alternate === 'shifted',
    usage: 'sort',
  });
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
