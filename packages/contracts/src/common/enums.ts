import { z } from 'zod';

/**
 * Every enumeration of the product, once. Each is a readonly tuple (for UI option lists), a zod enum
 * (for payloads) and a TS union type. zod enum messages name the field and list the allowed values so a
 * 400 tells the caller exactly what was wrong.
 */
function enumOf<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined
        ? `${label} is required`
        : `${label} must be one of ${values.join(', ')} (received ${JSON.stringify(issue.input)})`,
  });
}

export const LOAN_TYPES = ['development', 'bridging', 'commercial'] as const;
export const loanTypeSchema = enumOf(LOAN_TYPES, 'Loan type');
export type LoanType = (typeof LOAN_TYPES)[number];

export const LOAN_TYPE_LABELS: Record<LoanType, string> = {
  development: 'Development Finance',
  bridging: 'Bridging Finance',
  commercial: 'Commercial Finance',
};

export const REGIONS = [
  'London',
  'NorthWest',
  'Midlands',
  'EastAnglia',
  'SouthEast',
  'SouthWest',
  'NorthEast',
  'Wales',
  'Scotland',
  'NorthernIreland',
] as const;
export const regionSchema = enumOf(REGIONS, 'Property location');
export type Region = (typeof REGIONS)[number];

/**
 * The 15 property classes the search payloads (and the mortgage form's currentPropertyType) use.
 * The spec also names PureResidential for development but says readings differ; the payloads list only
 * these 15, so PureResidential is accepted nowhere in a search and is kept apart in ALL_PROPERTY_CLASSES
 * for any screen that must show the long list (see docs/decisions/0008-search-payloads-pureresidential-defaults-bounds-and-numbers.md).
 */
export const PROPERTY_CLASSES = [
  'Residential',
  'MixedUse',
  'Hotel',
  'Leisure',
  'CareRetirement',
  'Medical',
  'Office',
  'Retail',
  'IndustrialLight',
  'Student',
  'IndustrialHeavy',
  'HMO',
  'LandWithoutPlanning',
  'Education',
  'Retirement',
] as const;
export const propertyClassSchema = enumOf(PROPERTY_CLASSES, 'Property class');
export type PropertyClass = (typeof PROPERTY_CLASSES)[number];
export const ALL_PROPERTY_CLASSES = ['PureResidential', ...PROPERTY_CLASSES] as const;
export type AnyPropertyClass = (typeof ALL_PROPERTY_CLASSES)[number];

export const BRIDGING_TYPES = [
  'bridgingPreconstruction',
  'bridgingPurchaseOrRefinance',
  'bridgingDeveloperExit',
  'bridgingRefurbishment',
] as const;
export const bridgingTypeSchema = enumOf(BRIDGING_TYPES, 'Bridging type');
export type BridgingType = (typeof BRIDGING_TYPES)[number];

export const OWN_OR_PURCHASE = ['Own', 'Purchasing'] as const;
export const ownOrPurchaseSchema = enumOf(OWN_OR_PURCHASE, 'Own or purchase');
export type OwnOrPurchase = (typeof OWN_OR_PURCHASE)[number];

export const LAND_OR_PROPERTY = ['Land', 'Property'] as const;
export const landOrPropertySchema = enumOf(LAND_OR_PROPERTY, 'Land or property');
export type LandOrProperty = (typeof LAND_OR_PROPERTY)[number];

export const PLANNING_PERMISSION_TYPES = ['NoPlanning', 'DetailedPlanning', 'OutlinePlanning'] as const;
export const planningPermissionTypeSchema = enumOf(PLANNING_PERMISSION_TYPES, 'Planning permission type');
export type PlanningPermissionType = (typeof PLANNING_PERMISSION_TYPES)[number];

export const REFURBISHMENT_LEVELS = ['Light', 'Medium', 'Heavy'] as const;
export const refurbishmentLevelSchema = enumOf(REFURBISHMENT_LEVELS, 'Refurbishment level');
export type RefurbishmentLevel = (typeof REFURBISHMENT_LEVELS)[number];

export const BORROWING_ENTITY_TYPES = ['Individual', 'Company'] as const;
export const borrowingEntityTypeSchema = enumOf(BORROWING_ENTITY_TYPES, 'Borrowing entity type');
export type BorrowingEntityType = (typeof BORROWING_ENTITY_TYPES)[number];

/** Ordered shortest to longest, so "at least" comparisons can use the index. */
export const TIME_LEFT_ON_LEASE = ['LessThanYear', 'OneToThreeYears', 'MoreThanThreeYears'] as const;
export const timeLeftOnLeaseSchema = enumOf(TIME_LEFT_ON_LEASE, 'Time left on lease');
export type TimeLeftOnLease = (typeof TIME_LEFT_ON_LEASE)[number];

export const MORTGAGE_INTEREST_TYPES = ['Fixed', 'Variable'] as const;
export const mortgageInterestTypeSchema = enumOf(MORTGAGE_INTEREST_TYPES, 'Mortgage interest type');
export type MortgageInterestType = (typeof MORTGAGE_INTEREST_TYPES)[number];

export const FIXED_RATE_TERMS = ['TwoYear', 'FiveYear', 'TenYear'] as const;
export const fixedRateTermSchema = enumOf(FIXED_RATE_TERMS, 'Fixed rate term');
export type FixedRateTerm = (typeof FIXED_RATE_TERMS)[number];
export const FIXED_RATE_TERM_YEARS: Record<FixedRateTerm, number> = { TwoYear: 2, FiveYear: 5, TenYear: 10 };

export const LOAN_REPAYMENT_TYPES = ['InterestOnly', 'Repayment', 'Capital&Interest'] as const;
export const loanRepaymentTypeSchema = enumOf(LOAN_REPAYMENT_TYPES, 'Loan repayment type');
export type LoanRepaymentType = (typeof LOAN_REPAYMENT_TYPES)[number];

export const LOAN_COMPLETION_TYPES = [
  'AsSoonAsPossible',
  'JustCheckingMyOptions',
  'WithinNextFewWeeks',
] as const;
export const loanCompletionTypeSchema = enumOf(LOAN_COMPLETION_TYPES, 'Loan completion type');
export type LoanCompletionType = (typeof LOAN_COMPLETION_TYPES)[number];

export const PURCHASE_OR_REFINANCE = ['Purchase', 'Refinance'] as const;
export const purchaseOrRefinanceSchema = enumOf(PURCHASE_OR_REFINANCE, 'Purchase or refinance');
export type PurchaseOrRefinance = (typeof PURCHASE_OR_REFINANCE)[number];

/** propertiesOwned as the lead dialog offers it. */
export const PROPERTIES_OWNED_LEAD = ['0', '1', '2-4', '5+'] as const;
export const PROPERTIES_OWNED_LEAD_LABELS: Record<(typeof PROPERTIES_OWNED_LEAD)[number], string> = {
  '0': 'Just Getting Started',
  '1': '1',
  '2-4': '2-4',
  '5+': 'Experienced Investor',
};
/** propertiesOwned as the results gate offers it. */
export const PROPERTIES_OWNED_GATE = ['0', '1-2', '3-5', '6-10', '10+'] as const;
/** Either variant may reach the server, so the server accepts the union. */
export const PROPERTIES_OWNED = ['0', '1', '2-4', '5+', '1-2', '3-5', '6-10', '10+'] as const;
export type PropertiesOwned = (typeof PROPERTIES_OWNED)[number];

export const CONTACT_PREFERENCES = ['Email', 'Phone', 'WhatsApp'] as const;
export const contactPreferenceSchema = enumOf(CONTACT_PREFERENCES, 'Contact preference');
export type ContactPreference = (typeof CONTACT_PREFERENCES)[number];
export const DEFAULT_CONTACT_PREFERENCE: ContactPreference = 'Email';

export const SORT_KEYS = ['interestRate', 'profit', 'deposit', 'netLoan'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc', 'none'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export const INTEREST_TREATMENTS = ['retained', 'rolled', 'serviced'] as const;
export const interestTreatmentSchema = enumOf(INTEREST_TREATMENTS, 'Interest treatment');
export type InterestTreatment = (typeof INTEREST_TREATMENTS)[number];
