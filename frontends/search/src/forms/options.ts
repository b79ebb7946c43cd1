import {
  BORROWING_ENTITY_TYPES,
  BRIDGING_TYPES,
  FIXED_RATE_TERMS,
  LAND_OR_PROPERTY,
  LOAN_COMPLETION_TYPES,
  LOAN_REPAYMENT_TYPES,
  MORTGAGE_INTEREST_TYPES,
  OWN_OR_PURCHASE,
  PLANNING_PERMISSION_TYPES,
  PROPERTY_CLASSES,
  PURCHASE_OR_REFINANCE,
  REFURBISHMENT_LEVELS,
  REGIONS,
  TIME_LEFT_ON_LEASE,
} from '@lsp/contracts';

/** Human labels for the enumerations; the values sent to the server stay the spec's codes. */
const LABELS: Record<string, string> = {
  London: 'London',
  NorthWest: 'North West',
  Midlands: 'Midlands',
  EastAnglia: 'East Anglia',
  SouthEast: 'South East',
  SouthWest: 'South West',
  NorthEast: 'North East',
  Wales: 'Wales',
  Scotland: 'Scotland',
  NorthernIreland: 'Northern Ireland',
  Residential: 'Residential',
  MixedUse: 'Mixed use',
  Hotel: 'Hotel',
  Leisure: 'Leisure',
  CareRetirement: 'Care / retirement home',
  Medical: 'Medical',
  Office: 'Office',
  Retail: 'Retail',
  IndustrialLight: 'Light industrial',
  Student: 'Student accommodation',
  IndustrialHeavy: 'Heavy industrial',
  HMO: 'HMO',
  LandWithoutPlanning: 'Land without planning',
  Education: 'Education',
  Retirement: 'Retirement living',
  bridgingPreconstruction: 'Pre-construction',
  bridgingPurchaseOrRefinance: 'Purchase or Refinance',
  bridgingDeveloperExit: 'Developer Exit',
  bridgingRefurbishment: 'Refurbishment',
  Own: 'I own it',
  Purchasing: "I'm purchasing",
  Land: 'Land',
  Property: 'Property',
  NoPlanning: 'No planning',
  DetailedPlanning: 'Detailed planning',
  OutlinePlanning: 'Outline planning',
  Light: 'Light',
  Medium: 'Medium',
  Heavy: 'Heavy',
  Individual: 'Individual',
  Company: 'Company',
  LessThanYear: 'Less than a year',
  OneToThreeYears: '1 to 3 years',
  MoreThanThreeYears: 'More than 3 years',
  Fixed: 'Fixed',
  Variable: 'Variable',
  TwoYear: '2 years',
  FiveYear: '5 years',
  TenYear: '10 years',
  InterestOnly: 'Interest only',
  Repayment: 'Repayment',
  'Capital&Interest': 'Capital & interest',
  AsSoonAsPossible: 'As soon as possible',
  JustCheckingMyOptions: 'Just checking my options',
  WithinNextFewWeeks: 'Within the next few weeks',
  Purchase: 'Purchase',
  Refinance: 'Refinance',
};

export function labelOf(value: string): string {
  return LABELS[value] ?? value;
}

function options(values: readonly string[]) {
  return values.map((value) => ({ value, label: labelOf(value) }));
}

export const regionOptions = options(REGIONS);
export const propertyClassOptions = options(PROPERTY_CLASSES);
export const purchaseOrRefinanceOptions = options(PURCHASE_OR_REFINANCE);
export const ownOrPurchaseOptions = options(OWN_OR_PURCHASE);
export const landOrPropertyOptions = options(LAND_OR_PROPERTY);
export const planningOptions = options(PLANNING_PERMISSION_TYPES);
export const refurbishmentOptions = options(REFURBISHMENT_LEVELS);
export const borrowingEntityOptions = options(BORROWING_ENTITY_TYPES);
export const leaseOptions = options(TIME_LEFT_ON_LEASE);
export const interestTypeOptions = options(MORTGAGE_INTEREST_TYPES);
export const fixedTermOptions = options(FIXED_RATE_TERMS);
export const repaymentOptions = options(LOAN_REPAYMENT_TYPES);
export const completionOptions = options(LOAN_COMPLETION_TYPES);

export const BRIDGING_TYPE_DESCRIPTIONS: Record<(typeof BRIDGING_TYPES)[number], string> = {
  bridgingPreconstruction: 'Buy land or a site before the build starts',
  bridgingPurchaseOrRefinance: 'Buy or refinance a property quickly',
  bridgingDeveloperExit: 'Repay development finance while units sell',
  bridgingRefurbishment: 'Buy and renovate a property',
};
export const bridgingTypeOptions = BRIDGING_TYPES.map((value) => ({
  value,
  title: labelOf(value),
  description: BRIDGING_TYPE_DESCRIPTIONS[value],
}));
