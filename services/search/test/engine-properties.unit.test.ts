import fc from 'fast-check';
import {
  BRIDGING_TYPES,
  FIXED_RATE_TERMS,
  LOAN_REPAYMENT_TYPES,
  PLANNING_PERMISSION_TYPES,
  PROPERTY_CLASSES,
  REFURBISHMENT_LEVELS,
  REGIONS,
  TIME_LEFT_ON_LEASE,
  bridgingSearchSchema,
  commercialSearchSchema,
  developmentSearchSchema,
  type LoanOffer,
} from '@lsp/contracts';
import { bridgingSecurity, developmentCosts, searchPanel } from '../src/engine';
import {
  loadDefaultPanel,
  type BridgingProduct,
  type CommercialProduct,
  type DevelopmentProduct,
  type Product,
} from '../src/panel';

/**
 * Whatever the deal, no offer may break its lender's caps or show a negative, NaN or infinite figure.
 * The caps are re-derived here from the product data, independently of the engine's sizing path.
 */
const panel = loadDefaultPanel();
const productById = new Map<string, Product>(
  panel.lenders.flatMap((l) => l.products.map((p) => [p.id, p] as const)),
);
const TOLERANCE = 1; // whole-pound rounding

const money = (min: number, max: number) => fc.integer({ min, max });
const region = fc.constantFrom(...REGIONS);
const propertyClass = fc.constantFrom(...PROPERTY_CLASSES);

function expectSaneFigures(offer: LoanOffer) {
  for (const [key, value] of Object.entries(offer)) {
    if (typeof value === 'number') {
      expect({ key, finite: Number.isFinite(value), nonNegative: value >= 0 }).toEqual({
        key,
        finite: true,
        nonNegative: true,
      });
    }
  }
  expect(offer.NetLoan).toBeLessThanOrEqual(offer.GrossLoan + TOLERANCE);
  expect(offer.NetLoan).toBeGreaterThan(0);
  const product = productById.get(offer.ProductId)!;
  expect(offer.GrossLoan).toBeLessThanOrEqual(product.maxLoan + TOLERANCE);
  expect(offer.GrossLoan).toBeGreaterThanOrEqual(product.minLoan - TOLERANCE);
  return product;
}

const bandRatio = (bands: { upToLoan: number; maxRatio: number }[], loan: number) =>
  (bands.find((b) => loan <= b.upToLoan) ?? bands[bands.length - 1]).maxRatio;

describe('engine properties over the default panel', () => {
  it('development offers stay within LTGDV, LTC, land and build limits', () => {
    const payloads = fc.record({
      projectName: fc.constant('P'),
      purchasePrice: money(50_000, 20_000_000),
      buildCost: money(50_000, 20_000_000),
      purchaseCosts: money(0, 500_000),
      gdv: money(100_000, 80_000_000),
      propertyLocation: region,
      propertyClass,
      buildTerm: fc.integer({ min: 1, max: 30 }),
      loanTerm: fc.integer({ min: 1, max: 40 }),
      maxLoanRequired: fc.boolean(),
      netLoanRequired: money(50_000, 30_000_000),
      contingencyPercentage: fc.integer({ min: 0, max: 20 }),
      contingencyIncluded: fc.boolean(),
    });
    fc.assert(
      fc.property(payloads, (input) => {
        const payload = developmentSearchSchema.parse(input);
        const costs = developmentCosts(payload);
        const result = searchPanel('development', payload, panel);
        // Every lender is accounted for: an offer, a decline with a reason, or no product of this type.
        expect(
          new Set(result.offers.map((o) => o.LenderId)).size +
            result.declined.length +
            result.lendersWithoutProduct,
        ).toBe(panel.lenders.length);
        for (const d of result.declined) expect(d.reason).toMatch(/\w/);
        for (const offer of result.offers) {
          const product = expectSaneFigures(offer) as DevelopmentProduct;
          const cap = Math.min(
            bandRatio(product.maxLtgdvBands, offer.GrossLoan),
            product.maxLtgdvByClass[payload.propertyClass] ?? 1,
          );
          expect(offer.GrossLoan).toBeLessThanOrEqual(cap * payload.gdv + TOLERANCE);
          expect(offer.NetLoan).toBeLessThanOrEqual(product.maxLtc * costs.totalProjectCost + TOLERANCE);
          expect(offer.LandLoan!).toBeLessThanOrEqual(
            product.maxLandAdvance * payload.purchasePrice + TOLERANCE,
          );
          expect(offer.BuildLoan!).toBeLessThanOrEqual(
            product.maxBuildFunding * (costs.totalBuildCost + costs.professionalFees) + TOLERANCE,
          );
          expect(offer.ProfitForecast / payload.gdv).toBeGreaterThanOrEqual(product.minProfitOnGdv - 1e-6);
          if (!payload.maxLoanRequired)
            expect(Math.abs(offer.NetLoan - payload.netLoanRequired!)).toBeLessThanOrEqual(TOLERANCE);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('bridging offers stay within the cap of their use case', () => {
    const payloads = fc.record({
      projectName: fc.constant('P'),
      bridgingType: fc.constantFrom(...BRIDGING_TYPES),
      propertyLocation: region,
      propertyClass,
      currentValue: fc.option(money(10_000, 30_000_000), { nil: undefined }),
      purchasePrice: fc.option(money(10_000, 30_000_000), { nil: undefined }),
      purchaseCosts: fc.option(money(0, 500_000), { nil: undefined }),
      estimatedEndValueOfProperty: fc.option(money(10_000, 40_000_000), { nil: undefined }),
      buildCosts: fc.option(money(0, 5_000_000), { nil: undefined }),
      landOrProperty: fc.constantFrom('Land', 'Property'),
      ownOrPurchase: fc.constantFrom('Own', 'Purchasing'),
      planningPermissionType: fc.constantFrom(...PLANNING_PERMISSION_TYPES),
      refurbishmentLevel: fc.constantFrom(...REFURBISHMENT_LEVELS),
      loanTerm: fc.integer({ min: 1, max: 30 }),
      maxLoanRequired: fc.boolean(),
      netLoanRequired: money(10_000, 20_000_000),
    });
    fc.assert(
      fc.property(payloads, (input) => {
        const payload = bridgingSearchSchema.parse(input);
        const security = bridgingSecurity(payload);
        for (const offer of searchPanel('bridging', payload, panel).offers) {
          const product = expectSaneFigures(offer) as BridgingProduct;
          const ratio = Math.min(
            bandRatio(product.maxLtvBands, offer.GrossLoan),
            product.maxLtvByClass[payload.propertyClass] ?? 1,
          );
          let cap: number;
          if (security.kind === 'developerExit')
            cap = Math.min(ratio, product.developerExitMaxLtv!) * security.endValue;
          else if (security.kind === 'land')
            cap =
              Math.min(ratio, product.landLtvByPlanning[payload.planningPermissionType]!) *
              security.dayOneValue;
          else if (security.kind === 'refurbishment') {
            const refurb = product.refurbishment!;
            const heavy = payload.refurbishmentLevel === 'Heavy' ? refurb.heavyMaxLtv : 1;
            cap = Math.min(
              Math.min(ratio, heavy) * security.dayOneValue + refurb.worksFunding * security.works,
              refurb.maxLtgdv * security.endValue,
            );
          } else {
            cap = ratio * security.dayOneValue;
            if (payload.ownOrPurchase === 'Purchasing' && payload.purchasePrice)
              cap = Math.min(cap, product.maxPurchasePriceLtv * payload.purchasePrice);
          }
          expect(offer.GrossLoan).toBeLessThanOrEqual(cap + TOLERANCE);
          expect(product.useCases).toContain(payload.bridgingType);
          if (!payload.maxLoanRequired)
            expect(Math.abs(offer.NetLoan - payload.netLoanRequired!)).toBeLessThanOrEqual(TOLERANCE);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('commercial offers stay within LTV and rental cover', () => {
    const payloads = fc.record({
      projectName: fc.constant('P'),
      propertyLocation: region,
      currentPropertyType: propertyClass,
      isOwnerOccupied: fc.boolean(),
      grossMonthlyRentalIncome: money(500, 500_000),
      mortgageTerm: fc.integer({ min: 1, max: 35 }),
      ownOrPurchase: fc.constantFrom('Own', 'Purchasing'),
      borrowingEntityType: fc.constantFrom('Individual', 'Company'),
      timeLeftOnLease: fc.constantFrom(...TIME_LEFT_ON_LEASE),
      mortgageInterestType: fc.constantFrom('Fixed', 'Variable'),
      fixedRateTerm: fc.constantFrom(...FIXED_RATE_TERMS),
      loanRepaymentType: fc.constantFrom(...LOAN_REPAYMENT_TYPES),
      currentValue: money(50_000, 50_000_000),
      purchasePrice: money(50_000, 50_000_000),
      purchaseCosts: money(0, 1_000_000),
      maxLoanRequired: fc.boolean(),
      netLoanRequired: money(10_000, 30_000_000),
    });
    fc.assert(
      fc.property(payloads, (input) => {
        const payload = commercialSearchSchema.parse(input);
        const value = payload.ownOrPurchase === 'Purchasing' ? payload.purchasePrice! : payload.currentValue!;
        const interestOnly = payload.loanRepaymentType === 'InterestOnly';
        for (const offer of searchPanel('commercial', payload, panel).offers) {
          const product = expectSaneFigures(offer) as CommercialProduct;
          const ratio = Math.min(
            bandRatio(product.maxLtvBands, offer.GrossLoan),
            product.maxLtvByClass[payload.currentPropertyType] ?? 1,
            interestOnly ? product.interestOnlyMaxLtv : 1,
          );
          expect(offer.GrossLoan).toBeLessThanOrEqual(ratio * value + TOLERANCE);
          if (!payload.maxLoanRequired)
            expect(Math.abs(offer.NetLoan - payload.netLoanRequired!)).toBeLessThanOrEqual(TOLERANCE);
          if (!payload.isOwnerOccupied) {
            const cover = product.rentalCover;
            const required =
              interestOnly || payload.mortgageTerm > cover.longTermYears
                ? cover.interestOnly
                : cover.capitalAndInterest;
            const stressed = Math.max(offer.InterestRate + cover.stressMargin, cover.stressFloor);
            const r = stressed / 12;
            const months = payload.mortgageTerm * 12;
            const annualPerPound = interestOnly ? stressed : (12 * r) / (1 - (1 + r) ** -months);
            expect(payload.grossMonthlyRentalIncome! * 12).toBeGreaterThanOrEqual(
              required * annualPerPound * offer.GrossLoan - 1,
            );
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
