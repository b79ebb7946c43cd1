import {
  REGIONS,
  bridgingSearchSchema,
  commercialSearchSchema,
  developmentSearchSchema,
  type BridgingSearchInput,
  type CommercialSearchInput,
  type DevelopmentSearchInput,
} from '@lsp/contracts';
import type { LenderInfo, SizingResult } from '../src/engine';
import type { BridgingProduct, CommercialProduct, DevelopmentProduct } from '../src/panel';

/** A lender that lends everywhere, so a test isolates the product's own criteria. */
export const lender: LenderInfo = {
  id: 'test-lender',
  name: 'Test Lender',
  regions: [...REGIONS],
};

const noFees = { arrangementFeePct: 0, minArrangementFee: 0, exitFeePct: 0, otherCosts: 0 };

/** Bridging at a flat 1% a month with no fees: the LENDING.md worked example's terms. */
export function bridgingProduct(overrides: Partial<BridgingProduct> = {}): BridgingProduct {
  return {
    id: 'test-bridge',
    name: 'Test Bridge',
    loanType: 'bridging',
    minLoan: 25_000,
    maxLoan: 10_000_000,
    minTermMonths: 1,
    maxTermMonths: 24,
    refusedPropertyClasses: [],
    entityTypes: ['Individual', 'Company'],
    fees: noFees,
    interestTreatment: 'retained',
    useCases: [
      'bridgingPurchaseOrRefinance',
      'bridgingRefurbishment',
      'bridgingDeveloperExit',
      'bridgingPreconstruction',
    ],
    maxLtvBands: [{ upToLoan: 10_000_000, maxRatio: 0.75 }],
    maxLtvByClass: {},
    maxPurchasePriceLtv: 0.9,
    landLtvByPlanning: { DetailedPlanning: 0.65, OutlinePlanning: 0.6 },
    refurbishment: {
      levels: ['Light', 'Medium', 'Heavy'],
      heavyMaxLtv: 0.65,
      worksFunding: 1,
      maxLtgdv: 0.7,
      ratePremiumPerMonth: { Light: 0, Medium: 0.001, Heavy: 0.0025 },
      heavyExitFeePct: 0.01,
    },
    developerExitMaxLtv: 0.75,
    rateCard: [{ maxRatio: 0.75, ratePerMonth: 0.01 }],
    minInterestMonths: 0,
    ...overrides,
  };
}

export function developmentProduct(overrides: Partial<DevelopmentProduct> = {}): DevelopmentProduct {
  return {
    id: 'test-development',
    name: 'Test Development',
    loanType: 'development',
    minLoan: 150_000,
    maxLoan: 25_000_000,
    minTermMonths: 6,
    maxTermMonths: 36,
    refusedPropertyClasses: [],
    entityTypes: ['Company'],
    fees: { arrangementFeePct: 0.02, minArrangementFee: 0, exitFeePct: 0.01, otherCosts: 0 },
    interestTreatment: 'rolled',
    maxLtgdvBands: [{ upToLoan: 25_000_000, maxRatio: 0.7 }],
    maxLtgdvByClass: {},
    maxLtc: 0.9,
    maxLandAdvance: 0.6,
    maxBuildFunding: 1,
    rateCard: [{ maxRatio: 0.75, ratePerYear: 0.12 }],
    minProfitOnGdv: 0.15,
    monitoringFeePerMonth: 0,
    ...overrides,
  };
}

export function commercialProduct(overrides: Partial<CommercialProduct> = {}): CommercialProduct {
  return {
    id: 'test-commercial',
    name: 'Test Commercial',
    loanType: 'commercial',
    minLoan: 50_000,
    maxLoan: 20_000_000,
    minTermMonths: 36,
    maxTermMonths: 360,
    refusedPropertyClasses: [],
    entityTypes: ['Individual', 'Company'],
    fees: { arrangementFeePct: 0.01, minArrangementFee: 0, exitFeePct: 0, otherCosts: 0 },
    maxLtvBands: [{ upToLoan: 20_000_000, maxRatio: 0.7 }],
    maxLtvByClass: {},
    acceptsOwnerOccupied: true,
    acceptsInvestment: true,
    repaymentTypes: ['InterestOnly', 'Repayment', 'Capital&Interest'],
    interestOnlyMaxLtv: 0.7,
    rateCard: [{ maxRatio: 0.75, ratePerYear: 0.06 }],
    variableAvailable: true,
    fixedRatePremium: { TwoYear: 0.002, FiveYear: 0.004 },
    rentalCover: {
      capitalAndInterest: 1.25,
      interestOnly: 1.45,
      longTermYears: 15,
      stressMargin: 0.02,
      stressFloor: 0.055,
    },
    minLeaseRemaining: 'OneToThreeYears',
    ...overrides,
  };
}

export const development = (input: Partial<DevelopmentSearchInput> = {}) =>
  developmentSearchSchema.parse({
    projectName: 'Mill Lane',
    purchasePrice: 1_000_000,
    buildCost: 1_000_000,
    gdv: 3_000_000,
    propertyLocation: 'London',
    propertyClass: 'Residential',
    buildTerm: 12,
    loanTerm: 18,
    maxLoanRequired: true,
    ...input,
  });

export const bridging = (input: Partial<BridgingSearchInput> = {}) =>
  bridgingSearchSchema.parse({
    projectName: 'Chain break',
    loanTerm: 12,
    ownOrPurchase: 'Own',
    currentValue: 1_000_000,
    maxLoanRequired: true,
    ...input,
  });

export const commercial = (input: Partial<CommercialSearchInput> = {}) =>
  commercialSearchSchema.parse({
    projectName: 'High Street offices',
    mortgageTerm: 10,
    currentValue: 1_000_000,
    grossMonthlyRentalIncome: 5000,
    mortgageInterestType: 'Variable',
    loanRepaymentType: 'InterestOnly',
    maxLoanRequired: true,
    ...input,
  });

/** The offer of a sizing that must qualify; fails the test with the lender's reason otherwise. */
export const offerOf = (result: SizingResult) => {
  if (!result.ok) throw new Error(`expected an offer, got a decline: ${result.reason}`);
  return result.offer;
};

/** The reason of a sizing that must decline. */
export const reasonOf = (result: SizingResult) => {
  if (result.ok) throw new Error('expected a decline, got an offer');
  return result.reason;
};
