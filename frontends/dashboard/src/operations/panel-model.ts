// The Lender panel page's rules, kept apart from React so they are unit-tested: how a changed term
// of the diff reads (its label and its before and after values), the impact measurement's progress,
// and the product edit form (terms shown as percentages and pounds, sent back as the fractions and
// whole pounds the panel stores, only the terms that changed).
import { zodResolver } from '@hookform/resolvers/zod';
import type {
  PanelImpact,
  PanelProductEditBody,
  PanelProductEditForm,
  PanelProductView,
} from '@lsp/contracts';
import { PANEL_EDIT_MESSAGES, formatCurrency, labelOf, panelProductEditFormSchema } from '@lsp/contracts';
import { get } from 'react-hook-form';
import type { FieldError, FieldErrors } from 'react-hook-form';
import type { z } from 'zod';
import { count } from './format';

// ---- the diff ------------------------------------------------------------------------------------

/** The terms of a product or lender by their key in the panel file, as the page names them. */
const TERM_LABELS: Record<string, string> = {
  name: 'Name',
  kind: 'Kind',
  regions: 'Regions',
  minLoan: 'Minimum loan',
  maxLoan: 'Maximum loan',
  minTermMonths: 'Minimum term',
  maxTermMonths: 'Maximum term',
  refusedPropertyClasses: 'Refused property classes',
  entityTypes: 'Borrowers accepted',
  fees: 'Fees',
  arrangementFeePct: 'arrangement fee',
  minArrangementFee: 'minimum arrangement fee',
  exitFeePct: 'exit fee',
  otherCosts: 'other costs',
  interestTreatment: 'Interest treatment',
  rateCard: 'Rate card band',
  ratePerMonth: 'rate per month',
  ratePerYear: 'rate per year',
  maxRatio: 'up to ratio',
  upToLoan: 'loans up to',
  maxLtvBands: 'Max LTV band',
  maxLtgdvBands: 'Max LTGDV band',
  maxLtvByClass: 'Max LTV for',
  maxLtgdvByClass: 'Max LTGDV for',
  maxLtc: 'Max loan to cost',
  maxLandAdvance: 'Max land advance',
  maxBuildFunding: 'Max build funding',
  minProfitOnGdv: 'Min profit on GDV',
  monitoringFeePerMonth: 'Monitoring fee per month',
  useCases: 'Bridging uses',
  maxPurchasePriceLtv: 'Max loan to purchase price',
  landLtvByPlanning: 'Land LTV with',
  refurbishment: 'Refurbishment',
  levels: 'levels',
  heavyMaxLtv: 'heavy max LTV',
  worksFunding: 'works funding',
  maxLtgdv: 'max LTGDV',
  ratePremiumPerMonth: 'rate premium per month',
  heavyExitFeePct: 'heavy exit fee',
  developerExitMaxLtv: 'Developer exit max LTV',
  minInterestMonths: 'Minimum interest',
  acceptsOwnerOccupied: 'Accepts owner-occupied',
  acceptsInvestment: 'Accepts investment',
  repaymentTypes: 'Repayment types',
  interestOnlyMaxLtv: 'Interest-only max LTV',
  variableAvailable: 'Variable rate available',
  fixedRatePremium: 'Fixed rate premium',
  rentalCover: 'Rental cover',
  capitalAndInterest: 'capital and interest',
  interestOnly: 'interest only',
  longTermYears: 'long term from',
  stressMargin: 'stress margin',
  stressFloor: 'stress floor',
  minLeaseRemaining: 'Minimum lease remaining',
};

/** Maps keyed by an enumeration (a property class, a planning status): the key is shown as a label. */
const KEYED_BY_VALUE = new Set([
  'maxLtvByClass',
  'maxLtgdvByClass',
  'landLtvByPlanning',
  'ratePremiumPerMonth',
  'fixedRatePremium',
]);

const termLabel = (key: string) => TERM_LABELS[key] ?? key;

/**
 * A changed term's path as a person reads it: `rateCard[0].ratePerMonth` → 'Rate card band 1: rate
 * per month', `fees.exitFeePct` → 'Fees: exit fee', `maxLtgdvByClass.Hotel` → 'Max LTGDV for Hotel'.
 */
export function fieldLabel(path: string): string {
  const parts: string[] = [];
  let parent = '';
  for (const segment of path.split('.')) {
    const indexed = /^(.*?)\[(\d+)\]$/.exec(segment);
    if (indexed) {
      parts.push(`${termLabel(indexed[1])} ${Number(indexed[2]) + 1}`);
      parent = indexed[1];
    } else if (KEYED_BY_VALUE.has(parent)) {
      parts[parts.length - 1] = `${parts[parts.length - 1]} ${labelOf(segment)}`;
      parent = segment;
    } else {
      parts.push(termLabel(segment));
      parent = segment;
    }
  }
  return parts.join(': ');
}

/** A fraction as a percentage to at most three places ('0.00425' → '0.425%'), without float noise. */
export function fractionPercent(fraction: number): string {
  const percent = Math.round(fraction * 100 * 1e6) / 1e6;
  return `${percent.toLocaleString('en-GB', { maximumFractionDigits: 3 })}%`;
}

const MONEY_KEYS = new Set([
  'minLoan',
  'maxLoan',
  'upToLoan',
  'minArrangementFee',
  'otherCosts',
  'monitoringFeePerMonth',
]);
const MONTH_KEYS = new Set(['minTermMonths', 'maxTermMonths', 'minInterestMonths']);
/** Ratios that are not fractions of a whole (rent over the payment). */
const TIMES_KEYS = new Set(['capitalAndInterest', 'interestOnly']);

/** The key a value's unit depends on: a map keyed by an enumeration takes its unit from the map. */
function unitKey(path: string): string {
  const segments = path.split('.').map((s) => s.replace(/\[\d+\]$/, ''));
  const parent = segments[segments.length - 2];
  return parent && KEYED_BY_VALUE.has(parent) ? parent : segments[segments.length - 1];
}

/** One side of a changed term, formatted by what the term is: '0.85% pm', '£250,000', '18 months'. */
export function fieldValue(path: string, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value))
    return value.length === 0 ? 'none' : value.map((v) => labelOf(String(v))).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return labelOf(value);
  if (typeof value !== 'number') return JSON.stringify(value);
  const key = unitKey(path);
  if (key === 'ratePerMonth' || key === 'ratePremiumPerMonth') return `${fractionPercent(value)} pm`;
  if (key === 'ratePerYear' || key === 'fixedRatePremium') return `${fractionPercent(value)} pa`;
  if (MONEY_KEYS.has(key)) return formatCurrency(value);
  if (MONTH_KEYS.has(key)) return `${count(value)} ${value === 1 ? 'month' : 'months'}`;
  if (key === 'longTermYears') return `${count(value)} ${value === 1 ? 'year' : 'years'}`;
  if (TIMES_KEYS.has(key)) return `${value.toLocaleString('en-GB', { maximumFractionDigits: 2 })}×`;
  if (value >= 0 && value <= 1) return fractionPercent(value);
  return value.toLocaleString('en-GB');
}

/** A changed term as one readable line: 'Rate card band 1: rate per month: 0.85% pm → 0.425% pm'. */
export function describeChange(change: { field: string; before: unknown; after: unknown }) {
  return {
    label: fieldLabel(change.field),
    before: fieldValue(change.field, change.before),
    after: fieldValue(change.field, change.after),
  };
}

// ---- the impact ----------------------------------------------------------------------------------

/** How far the measurement is: a whole percentage for the bar and the words beside it. */
export function impactProgress(impact: Pick<PanelImpact, 'status' | 'done' | 'total'>) {
  const total = Math.max(0, impact.total);
  const done = Math.min(Math.max(0, impact.done), total);
  const percent = total === 0 ? (impact.status === 'running' ? 0 : 100) : Math.floor((done / total) * 100);
  const searches = total === 1 ? 'saved search' : 'saved searches';
  return { done, total, percent, text: `${count(done)} of ${count(total)} ${searches} re-priced` };
}

/** Poll again while the measurement runs; stop once it is done or failed. */
export const IMPACT_POLL_MS = 1000;
export const impactPollInterval = (impact: Pick<PanelImpact, 'status'> | null | undefined) =>
  impact?.status === 'running' ? IMPACT_POLL_MS : false;

/** The counts of a finished measurement, in the order the page lists them. */
export const IMPACT_COUNTS = [
  { key: 'gainOffer', label: 'Would gain an offer' },
  { key: 'loseOffer', label: 'Would lose an offer' },
  { key: 'betterBest', label: 'Better best offer' },
  { key: 'worseBest', label: 'Worse best offer' },
  { key: 'unchanged', label: 'Unchanged' },
  { key: 'skipped', label: 'Skipped (no longer valid)' },
] as const satisfies ReadonlyArray<{ key: keyof PanelImpact; label: string }>;

// ---- the product edit form -----------------------------------------------------------------------

/** The edit form's terms: ratios and fees as percentages, money in pounds, null while a field is empty. */
export type ProductEditForm = PanelProductEditForm['terms'];
/** The terms once every field is filled in. */
type FilledTerms = z.output<typeof panelProductEditFormSchema>['terms'];

/** A fraction as the percentage the form shows, without float noise (0.0085 → 0.85). */
const toPct = (fraction: number) => Math.round(fraction * 100 * 1e6) / 1e6;
/** A percentage typed in the form as the fraction the panel stores (0.85 → 0.0085). */
const toFraction = (pct: number) => Math.round((pct / 100) * 1e9) / 1e9;

export function productEditForm(
  product: PanelProductView,
  regions: ProductEditForm['regions'],
): ProductEditForm {
  return {
    rateCard: product.rateCard.map((band) => ({
      maxRatioPct: toPct(band.maxRatio),
      ratePct: toPct(band.rate),
    })),
    maxRatioBands: product.maxRatioBands.map((band) => ({
      upToLoan: band.upToLoan,
      maxRatioPct: toPct(band.maxRatio),
    })),
    arrangementFeePct: toPct(product.fees.arrangementFeePct),
    minArrangementFee: product.fees.minArrangementFee,
    exitFeePct: toPct(product.fees.exitFeePct),
    otherCosts: product.fees.otherCosts,
    minLoan: product.minLoan,
    maxLoan: product.maxLoan,
    minTermMonths: product.minTermMonths,
    maxTermMonths: product.maxTermMonths,
    refusedPropertyClasses: [...product.refusedPropertyClasses],
    regions: [...regions],
  };
}

/** The whole form as it opens: the product's terms, no version name or description yet. */
export const productEditDefaults = (
  product: PanelProductView,
  regions: ProductEditForm['regions'],
): PanelProductEditForm => ({ version: '', description: '', terms: productEditForm(product, regions) });

export type EditChanges = PanelProductEditBody['changes'];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sameSet = (a: readonly string[], b: readonly string[]) => same([...a].sort(), [...b].sort());

/** The terms the form changes against the product as it is, in the units the panel stores. */
export function termChanges(
  product: PanelProductView,
  regions: ProductEditForm['regions'],
  terms: FilledTerms,
): EditChanges {
  const rateCard = terms.rateCard.map((band) => ({
    maxRatio: toFraction(band.maxRatioPct),
    rate: toFraction(band.ratePct),
  }));
  const maxRatioBands = terms.maxRatioBands.map((band) => ({
    upToLoan: band.upToLoan,
    maxRatio: toFraction(band.maxRatioPct),
  }));
  const fees = {
    arrangementFeePct: toFraction(terms.arrangementFeePct),
    minArrangementFee: terms.minArrangementFee,
    exitFeePct: toFraction(terms.exitFeePct),
    otherCosts: terms.otherCosts,
  };
  const plain = {
    minLoan: terms.minLoan,
    maxLoan: terms.maxLoan,
    minTermMonths: terms.minTermMonths,
    maxTermMonths: terms.maxTermMonths,
  };

  const changes: EditChanges = {};
  if (!same(rateCard, product.rateCard)) changes.rateCard = rateCard;
  if (!same(maxRatioBands, product.maxRatioBands)) changes.maxRatioBands = maxRatioBands;
  const feeChanges = Object.fromEntries(
    Object.entries(fees).filter(([key, value]) => product.fees[key as keyof typeof fees] !== value),
  );
  if (Object.keys(feeChanges).length) changes.fees = feeChanges;
  for (const [key, value] of Object.entries(plain))
    if (product[key as keyof typeof plain] !== value) changes[key as keyof typeof plain] = value;
  if (!sameSet(terms.refusedPropertyClasses, product.refusedPropertyClasses))
    changes.refusedPropertyClasses = terms.refusedPropertyClasses;
  if (!sameSet(terms.regions, regions)) changes.regions = terms.regions;
  return changes;
}

/**
 * The edit form's schema for one product: the contracts' form schema, its terms turned into the
 * changes sent (a form that changes nothing is refused). Its output is the body but for the lender
 * and the product, which the form's choice of them adds.
 */
export function productEditSchema(product: PanelProductView, regions: ProductEditForm['regions']) {
  return panelProductEditFormSchema
    .extend({
      terms: panelProductEditFormSchema.shape.terms
        .transform((terms) => termChanges(product, regions, terms))
        .refine((changes) => Object.keys(changes).length > 0, PANEL_EDIT_MESSAGES.nothingChanged),
    })
    .transform(({ version, description, terms }) => ({
      version,
      description: description || undefined,
      changes: terms,
    }));
}

export type ProductEdit = z.output<ReturnType<typeof productEditSchema>>;

export const productEditResolver = (product: PanelProductView, regions: ProductEditForm['regions']) =>
  zodResolver(productEditSchema(product, regions));

/** The product's terms that are a single number, in the order the form shows them. */
const SINGLE_TERMS = [
  'arrangementFeePct',
  'minArrangementFee',
  'exitFeePct',
  'otherCosts',
  'minLoan',
  'maxLoan',
  'minTermMonths',
  'maxTermMonths',
] as const;

/**
 * What the 'Nothing was sent' alert lists, in the order of the form: each field left empty (the
 * bands, then the fees and the loan and term limits) and a missing region; or that nothing changed.
 * The version's name is not among them: its message is beside its field.
 */
export function editProblems(product: PanelProductView, errors: FieldErrors<PanelProductEditForm>): string[] {
  const paths = [
    ...product.rateCard.flatMap((_, i) => [`terms.rateCard.${i}.maxRatioPct`, `terms.rateCard.${i}.ratePct`]),
    ...product.maxRatioBands.flatMap((_, i) => [
      `terms.maxRatioBands.${i}.upToLoan`,
      `terms.maxRatioBands.${i}.maxRatioPct`,
    ]),
    ...SINGLE_TERMS.map((term) => `terms.${term}`),
    'terms.regions',
    'terms',
  ];
  return paths.flatMap((path) => get<typeof errors, FieldError | undefined>(errors, path)?.message ?? []);
}

/** A problem of a refused file or edit as one line: 'Line 4: not valid JSON', or the reason alone. */
export const problemText = (problem: { line: number | null; reason: string }) =>
  problem.line === null ? problem.reason : `Line ${problem.line}: ${problem.reason}`;

/** The problems a refused upload or edit carries, when its body has them. */
export function problemsOf(body: unknown): Array<{ line: number | null; reason: string }> {
  const problems = (body as { problems?: unknown } | null)?.problems;
  return Array.isArray(problems)
    ? problems.filter(
        (p): p is { line: number | null; reason: string } =>
          typeof p === 'object' && p !== null && typeof (p as { reason?: unknown }).reason === 'string',
      )
    : [];
}
