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
  labelOf,
} from '@lsp/contracts';

export { labelOf };

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
