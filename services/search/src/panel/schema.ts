import { z } from 'zod';
import {
  BORROWING_ENTITY_TYPES,
  BRIDGING_TYPES,
  FIXED_RATE_TERMS,
  INTEREST_TREATMENTS,
  LOAN_REPAYMENT_TYPES,
  PLANNING_PERMISSION_TYPES,
  PROPERTY_CLASSES,
  REFURBISHMENT_LEVELS,
  REGIONS,
  TIME_LEFT_ON_LEASE,
} from '@lsp/contracts';

/**
 * The lender panel: data, not code. Every ratio is a fraction (0.75 = 75%); money is whole pounds;
 * bridging rates are per month (as bridging is priced), development and commercial rates per year.
 */
const fraction = z.number().min(0).max(1);
const positiveMoney = z.number().int().positive();
const region = z.enum(REGIONS);
const propertyClass = z.enum(PROPERTY_CLASSES);
const partialClassCaps = z.partialRecord(propertyClass, fraction);

/** Max loan-to-value (or loan-to-GDV) by loan size: the first band whose `upToLoan` covers the loan applies. */
const sizeBand = z.object({ upToLoan: positiveMoney, maxRatio: fraction });
const sizeBands = z
  .array(sizeBand)
  .min(1)
  .refine(
    (bands) => bands.every((b, i) => i === 0 || b.upToLoan > bands[i - 1].upToLoan),
    'size bands must rise by upToLoan',
  );

/** Rate card: the first band whose `maxRatio` covers the deal's LTV (or LTGDV) prices it. */
const risingRatios = (bands: { maxRatio: number }[]) =>
  bands.every((b, i) => i === 0 || b.maxRatio > bands[i - 1].maxRatio);
const monthlyRateCard = z
  .array(z.object({ maxRatio: fraction, ratePerMonth: z.number().positive().max(0.03) }))
  .min(1)
  .refine(risingRatios, 'rate bands must rise by maxRatio');
const annualRateCard = z
  .array(z.object({ maxRatio: fraction, ratePerYear: z.number().positive().max(0.3) }))
  .min(1)
  .refine(risingRatios, 'rate bands must rise by maxRatio');

const fees = z.object({
  /** Share of the gross loan. */
  arrangementFeePct: z.number().min(0).max(0.05),
  minArrangementFee: z.number().int().nonnegative().default(0),
  /** Share of the gross loan, paid at redemption. */
  exitFeePct: z.number().min(0).max(0.03),
  /** Valuation, legal and admin fees the lender deducts from the advance. */
  otherCosts: z.number().int().nonnegative().max(100_000),
});

const productBase = {
  id: z.string().min(1),
  name: z.string().min(1),
  minLoan: positiveMoney,
  maxLoan: positiveMoney,
  minTermMonths: z.number().int().positive(),
  maxTermMonths: z.number().int().positive(),
  refusedPropertyClasses: z.array(propertyClass).default([]),
  entityTypes: z.array(z.enum(BORROWING_ENTITY_TYPES)).min(1),
  fees,
};

export const developmentProductSchema = z.object({
  ...productBase,
  loanType: z.literal('development'),
  interestTreatment: z.enum(['rolled', 'retained']),
  maxLtgdvBands: sizeBands,
  /** Lower LTGDV caps for riskier end uses. */
  maxLtgdvByClass: partialClassCaps.default({}),
  /** Net advances (land + build) as a share of total project cost. */
  maxLtc: fraction,
  /** Land tranche as a share of the purchase price. */
  maxLandAdvance: fraction,
  /** Build tranche as a share of build cost with contingency and professional fees. */
  maxBuildFunding: fraction,
  rateCard: annualRateCard,
  /** Profit on GDV the lender wants left after all costs. */
  minProfitOnGdv: z.number().min(0).max(0.5),
  monitoringFeePerMonth: z.number().int().nonnegative().max(5000),
});

export const bridgingProductSchema = z.object({
  ...productBase,
  loanType: z.literal('bridging'),
  interestTreatment: z.enum(INTEREST_TREATMENTS),
  useCases: z.array(z.enum(BRIDGING_TYPES)).min(1),
  maxLtvBands: sizeBands,
  maxLtvByClass: partialClassCaps.default({}),
  /** Purchases: cap on the loan as a share of the price paid (some lend to 90% of price within LTV). */
  maxPurchasePriceLtv: fraction,
  /** Land: LTV by planning status; a status missing here is refused. */
  landLtvByPlanning: z.partialRecord(z.enum(PLANNING_PERMISSION_TYPES), fraction),
  /** Refurbishment: levels accepted, day-one LTV cap, share of works funded and cap against end value. */
  refurbishment: z
    .object({
      levels: z.array(z.enum(REFURBISHMENT_LEVELS)).min(1),
      heavyMaxLtv: fraction,
      worksFunding: fraction,
      maxLtgdv: fraction,
      ratePremiumPerMonth: z.partialRecord(z.enum(REFURBISHMENT_LEVELS), z.number().min(0).max(0.01)),
      heavyExitFeePct: z.number().min(0).max(0.03),
    })
    .optional(),
  /** Developer exit: cap against the completed units' value. */
  developerExitMaxLtv: fraction.optional(),
  rateCard: monthlyRateCard,
  /** Interest is charged for at least this many months however early the loan is repaid. */
  minInterestMonths: z.number().int().min(0).max(6),
});

export const commercialProductSchema = z.object({
  ...productBase,
  loanType: z.literal('commercial'),
  maxLtvBands: sizeBands,
  maxLtvByClass: partialClassCaps.default({}),
  acceptsOwnerOccupied: z.boolean(),
  acceptsInvestment: z.boolean(),
  repaymentTypes: z.array(z.enum(LOAN_REPAYMENT_TYPES)).min(1),
  interestOnlyMaxLtv: fraction,
  rateCard: annualRateCard,
  variableAvailable: z.boolean(),
  /** Fixed terms offered and their premium over the variable rate, per year. */
  fixedRatePremium: z.partialRecord(z.enum(FIXED_RATE_TERMS), z.number().min(0).max(0.05)),
  rentalCover: z.object({
    /** Rent ÷ stressed annual payment, capital and interest. */
    capitalAndInterest: z.number().min(1).max(3),
    /** Rent ÷ stressed annual interest, interest-only or a term past `longTermYears`. */
    interestOnly: z.number().min(1).max(3),
    longTermYears: z.number().int().positive(),
    stressMargin: z.number().min(0).max(0.05),
    stressFloor: z.number().min(0).max(0.2),
  }),
  minLeaseRemaining: z.enum(TIME_LEFT_ON_LEASE),
});

export const productSchema = z.discriminatedUnion('loanType', [
  developmentProductSchema,
  bridgingProductSchema,
  commercialProductSchema,
]);

export const LENDER_KINDS = [
  'clearing bank',
  'challenger bank',
  'building society',
  'specialist lender',
  'debt fund',
  'family office',
] as const;

export const lenderSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/, 'lender id must be lower-case letters, digits and dashes'),
    name: z.string().min(2),
    kind: z.enum(LENDER_KINDS),
    regions: z.array(region).min(1),
    products: z.array(productSchema).min(1),
  })
  .superRefine((lender, ctx) => {
    lender.products.forEach((product, index) => {
      const at = ['products', index];
      if (product.minLoan > product.maxLoan)
        ctx.addIssue({ code: 'custom', path: [...at, 'minLoan'], message: 'minLoan is above maxLoan' });
      if (product.minTermMonths > product.maxTermMonths)
        ctx.addIssue({
          code: 'custom',
          path: [...at, 'minTermMonths'],
          message: 'minTermMonths is above maxTermMonths',
        });
      const bands = product.loanType === 'development' ? product.maxLtgdvBands : product.maxLtvBands;
      if (bands[bands.length - 1].upToLoan < product.maxLoan)
        ctx.addIssue({ code: 'custom', path: [...at], message: 'the last size band must reach maxLoan' });
      // Every loan the caps allow must have a price: the rate card has to reach the highest cap.
      const highestCap = Math.max(
        ...bands.map((b) => b.maxRatio),
        ...(product.loanType === 'bridging'
          ? [
              product.developerExitMaxLtv ?? 0,
              product.refurbishment?.maxLtgdv ?? 0,
              ...Object.values(product.landLtvByPlanning),
            ]
          : []),
      );
      const card = product.rateCard;
      if (card[card.length - 1].maxRatio < highestCap)
        ctx.addIssue({
          code: 'custom',
          path: [...at, 'rateCard'],
          message: `the rate card stops below the highest cap (${highestCap})`,
        });
    });
  });

export const panelHeaderSchema = z.object({
  kind: z.literal('lender-panel'),
  version: z.string().min(1),
  effectiveFrom: z.string().date(),
  description: z.string().optional(),
});

export const panelSchema = panelHeaderSchema.extend({
  lenders: z
    .array(lenderSchema)
    .min(1)
    .refine(
      (lenders) => new Set(lenders.map((l) => l.id)).size === lenders.length,
      'lender ids must be unique',
    ),
});

export type DevelopmentProduct = z.output<typeof developmentProductSchema>;
export type BridgingProduct = z.output<typeof bridgingProductSchema>;
export type CommercialProduct = z.output<typeof commercialProductSchema>;
export type Product = z.output<typeof productSchema>;
export type Lender = z.output<typeof lenderSchema>;
export type Panel = z.output<typeof panelSchema>;
export type PanelHeader = z.output<typeof panelHeaderSchema>;
