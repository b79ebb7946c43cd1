import { z } from 'zod';
import {
  CONTINGENCY_DEFAULT_PERCENT,
  DEFAULT_BRIDGING_LOAN_TERM_MONTHS,
  DEFAULT_COMMERCIAL_MORTGAGE_TERM_YEARS,
  DEFAULT_DEVELOPMENT_BUILD_TERM_MONTHS,
  DEFAULT_DEVELOPMENT_LOAN_TERM_MONTHS,
  MAX_MORTGAGE_TERM_YEARS,
  MAX_TERM_MONTHS,
  MAX_UNITS,
} from '../common/constants';
import {
  borrowingEntityTypeSchema,
  bridgingTypeSchema,
  fixedRateTermSchema,
  landOrPropertySchema,
  loanCompletionTypeSchema,
  loanRepaymentTypeSchema,
  mortgageInterestTypeSchema,
  ownOrPurchaseSchema,
  planningPermissionTypeSchema,
  propertyClassSchema,
  purchaseOrRefinanceSchema,
  refurbishmentLevelSchema,
  regionSchema,
  timeLeftOnLeaseSchema,
} from '../common/enums';
import {
  coerceNumericText,
  flag,
  moneyWithDefault,
  netLoanField,
  optionalMoney,
  optionalText,
  requiredMoney,
  requiredTerm,
  requiredText,
  wholeNumberWithDefault,
} from './fields';

export const NET_LOAN_REQUIRED_MESSAGE = 'Net loan amount is required when max loan is not selected';
/**
 * The commercial form's rule, read as the same rule as the other forms (see docs/decisions/0007-commercial-search-net-loan-required-when-maximum-loan.md): the
 * spec's wording kept, with the condition it evidently meant.
 */
export const COMMERCIAL_NET_LOAN_REQUIRED_MESSAGE =
  'Net loan required must be specified when not requesting maximum loan';

const readiness = {
  hasViewedProperty: flag('Has viewed property'),
  ownsProperty: flag('Owns property'),
  agreedPurchasePrice: flag('Agreed purchase price'),
};

const userId = optionalText('User id', 100);

/**
 * Refinements here must run even when a field failed, so that a form shows every message at once;
 * `when` tells zod to run them whenever the fields they read are themselves valid.
 */
function whenPathsValid(...paths: string[]) {
  return (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    !payload.issues.some((issue) => paths.includes(String(issue.path?.[0])));
}

/** Max loan Yes clears netLoanRequired (the form hides the field), so a stale value never reaches sizing. */
function clearNetLoanWhenMax<T extends { maxLoanRequired: boolean; netLoanRequired?: number }>(
  payload: T,
): T {
  return payload.maxLoanRequired ? { ...payload, netLoanRequired: undefined } : payload;
}

/**
 * The development and bridging rule: without max loan the net loan must be given (commercial says so
 * with its own message, among its other rules); with max loan any net loan given is cleared.
 */
function askNetLoanUnlessMax<S extends z.ZodType<{ maxLoanRequired: boolean; netLoanRequired?: number }>>(
  schema: S,
) {
  return schema
    .refine((p) => p.maxLoanRequired || p.netLoanRequired !== undefined, {
      message: NET_LOAN_REQUIRED_MESSAGE,
      path: ['netLoanRequired'],
      when: whenPathsValid('maxLoanRequired', 'netLoanRequired'),
    })
    .transform((payload: z.output<S>) => clearNetLoanWhenMax(payload));
}

const contingencyPercentage = z.preprocess(
  coerceNumericText,
  z
    .number({ error: 'Contingency percentage must be a number' })
    .min(0, 'Contingency percentage must be between 0 and 100')
    .max(100, 'Contingency percentage must be between 0 and 100')
    .default(CONTINGENCY_DEFAULT_PERCENT)
    // The spec falls back to the default when the field is empty or zero.
    .transform((value) => (value === 0 ? CONTINGENCY_DEFAULT_PERCENT : value)),
);

export const developmentSearchSchema = askNetLoanUnlessMax(
  z.object({
    projectName: requiredText('Project name is required'),
    purchasePrice: requiredMoney('Purchase price', 'Purchase price is required'),
    buildCost: requiredMoney('Build cost', 'Build cost is required'),
    purchaseCosts: optionalMoney('Purchase costs'),
    propertyLocation: regionSchema,
    propertyClass: propertyClassSchema,
    propertyAddress: optionalText('Property address'),
    additionalOngoingCosts: moneyWithDefault('Additional ongoing costs', 0),
    gdv: requiredMoney('GDV', 'GDV is required'),
    buildTerm: requiredTerm('Build term', 'Build term is required', MAX_TERM_MONTHS, 'months'),
    loanTerm: requiredTerm('Loan term', 'Loan term is required', MAX_TERM_MONTHS, 'months'),
    maxLoanRequired: flag('Max loan required'),
    netLoanRequired: netLoanField,
    purchaseOrRefinance: purchaseOrRefinanceSchema.default('Purchase'),
    giaKnown: flag('GIA known'),
    contingencyIncluded: flag('Contingency included'),
    contingencyPercentage,
    totalBuildCost: optionalMoney('Total build cost'),
    profCostsAndFees: optionalMoney('Professional costs and fees'),
    ...readiness,
    userId,
  }),
);

export const bridgingSearchSchema = askNetLoanUnlessMax(
  z.object({
    projectName: requiredText('Project name is required'),
    bridgingType: bridgingTypeSchema.default('bridgingPurchaseOrRefinance'),
    propertyLocation: regionSchema.default('London'),
    propertyClass: propertyClassSchema.default('Residential'),
    currentValue: optionalMoney('Current value'),
    purchasePrice: optionalMoney('Purchase price'),
    purchaseCosts: optionalMoney('Purchase costs'),
    estimatedEndValueOfProperty: optionalMoney('Estimated end value of property'),
    estimatedSpending: optionalMoney('Estimated spending'),
    landTotalOtherCosts: optionalMoney('Land total other costs'),
    landOrProperty: landOrPropertySchema.default('Property'),
    ownOrPurchase: ownOrPurchaseSchema.default('Own'),
    originalPurchaseDate: optionalText('Original purchase date', 40),
    planningPermissionType: planningPermissionTypeSchema.default('NoPlanning'),
    refinancedUnits: wholeNumberWithDefault('Refinanced units', 1, MAX_UNITS),
    refurbishmentLevel: refurbishmentLevelSchema.default('Light'),
    buildCosts: optionalMoney('Build costs'),
    loanTerm: requiredTerm('Loan term', 'Loan term is required', MAX_TERM_MONTHS, 'months'),
    netLoanRequired: netLoanField,
    maxLoanRequired: flag('Max loan required'),
    ...readiness,
    userId,
  }),
);

export const commercialSearchSchema = z
  .object({
    projectName: requiredText('Project name is required'),
    propertyLocation: regionSchema.default('London'),
    currentPropertyType: propertyClassSchema.default('Office'),
    isOwnerOccupied: flag('Owner occupied'),
    grossMonthlyRentalIncome: optionalMoney('Gross monthly rental income'),
    mortgageTerm: requiredTerm(
      'Mortgage term',
      'Mortgage term is required',
      MAX_MORTGAGE_TERM_YEARS,
      'years',
    ),
    ownOrPurchase: ownOrPurchaseSchema.default('Own'),
    borrowingEntityType: borrowingEntityTypeSchema.default('Individual'),
    timeLeftOnLease: timeLeftOnLeaseSchema.default('MoreThanThreeYears'),
    mortgageInterestType: mortgageInterestTypeSchema.default('Fixed'),
    fixedRateTerm: fixedRateTermSchema.optional(),
    loanRepaymentType: loanRepaymentTypeSchema.default('InterestOnly'),
    loanCompletionType: loanCompletionTypeSchema.default('AsSoonAsPossible'),
    maxLoanRequired: flag('Max loan required'),
    netLoanRequired: netLoanField,
    currentValue: optionalMoney('Current value'),
    purchasePrice: optionalMoney('Purchase price'),
    purchaseCosts: optionalMoney('Purchase costs'),
    originalPurchaseDate: optionalText('Original purchase date', 40),
    ...readiness,
    userId,
  })
  .superRefine(
    (p, ctx) => {
      if (!p.maxLoanRequired && p.netLoanRequired === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['netLoanRequired'],
          message: COMMERCIAL_NET_LOAN_REQUIRED_MESSAGE,
        });
      }
      if (!p.isOwnerOccupied && !p.grossMonthlyRentalIncome) {
        ctx.addIssue({
          code: 'custom',
          path: ['grossMonthlyRentalIncome'],
          message: 'Gross monthly rental income is required for investment properties',
        });
      }
      if (p.ownOrPurchase === 'Own' && !p.currentValue) {
        ctx.addIssue({
          code: 'custom',
          path: ['currentValue'],
          message: 'Current value is required when you own the property',
        });
      }
      if (p.ownOrPurchase === 'Purchasing' && (!p.purchasePrice || p.purchaseCosts === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [p.purchasePrice ? 'purchaseCosts' : 'purchasePrice'],
          message: 'Purchase price and costs are required when purchasing',
        });
      }
      if (p.mortgageInterestType === 'Fixed' && !p.fixedRateTerm) {
        ctx.addIssue({
          code: 'custom',
          path: ['fixedRateTerm'],
          message: 'Fixed rate term is required for fixed interest mortgages',
        });
      }
    },
    {
      when: whenPathsValid(
        'maxLoanRequired',
        'netLoanRequired',
        'isOwnerOccupied',
        'grossMonthlyRentalIncome',
        'ownOrPurchase',
        'currentValue',
        'purchasePrice',
        'purchaseCosts',
        'mortgageInterestType',
        'fixedRateTerm',
      ),
    },
  )
  .transform(clearNetLoanWhenMax);

export type DevelopmentSearchInput = z.input<typeof developmentSearchSchema>;
export type DevelopmentSearch = z.output<typeof developmentSearchSchema>;
export type BridgingSearchInput = z.input<typeof bridgingSearchSchema>;
export type BridgingSearch = z.output<typeof bridgingSearchSchema>;
export type CommercialSearchInput = z.input<typeof commercialSearchSchema>;
export type CommercialSearch = z.output<typeof commercialSearchSchema>;

export const searchPayloadSchemas = {
  development: developmentSearchSchema,
  bridging: bridgingSearchSchema,
  commercial: commercialSearchSchema,
} as const;

export type SearchPayloadByType = {
  development: DevelopmentSearch;
  bridging: BridgingSearch;
  commercial: CommercialSearch;
};

/** The forms' starting values (defaults); the server applies only the defaults of optional fields. */
export const developmentFormDefaults = {
  projectName: '',
  buildTerm: DEFAULT_DEVELOPMENT_BUILD_TERM_MONTHS,
  loanTerm: DEFAULT_DEVELOPMENT_LOAN_TERM_MONTHS,
  maxLoanRequired: false,
  purchaseOrRefinance: 'Purchase',
  additionalOngoingCosts: 0,
  giaKnown: false,
  contingencyIncluded: false,
  contingencyPercentage: CONTINGENCY_DEFAULT_PERCENT,
  hasViewedProperty: false,
  ownsProperty: false,
  agreedPurchasePrice: false,
} as const;

export const bridgingFormDefaults = {
  projectName: '',
  bridgingType: 'bridgingPurchaseOrRefinance',
  propertyLocation: 'London',
  propertyClass: 'Residential',
  loanTerm: DEFAULT_BRIDGING_LOAN_TERM_MONTHS,
  ownOrPurchase: 'Own',
  landOrProperty: 'Property',
  currentValue: 200_000,
  purchasePrice: 200_000,
  estimatedEndValueOfProperty: 250_000,
  planningPermissionType: 'NoPlanning',
  refurbishmentLevel: 'Light',
  refinancedUnits: 1,
  maxLoanRequired: false,
  hasViewedProperty: false,
  ownsProperty: false,
  agreedPurchasePrice: false,
} as const;

export const commercialFormDefaults = {
  projectName: '',
  propertyLocation: 'London',
  currentPropertyType: 'Office',
  isOwnerOccupied: false,
  grossMonthlyRentalIncome: 2000,
  mortgageTerm: DEFAULT_COMMERCIAL_MORTGAGE_TERM_YEARS,
  ownOrPurchase: 'Own',
  borrowingEntityType: 'Individual',
  timeLeftOnLease: 'MoreThanThreeYears',
  mortgageInterestType: 'Fixed',
  fixedRateTerm: 'FiveYear',
  loanRepaymentType: 'InterestOnly',
  loanCompletionType: 'AsSoonAsPossible',
  currentValue: 250_000,
  maxLoanRequired: false,
} as const;
