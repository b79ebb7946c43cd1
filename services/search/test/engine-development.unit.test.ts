import { developmentCosts, sizeDevelopmentLoan } from '../src/engine';
import { development, developmentProduct, lender, offerOf, reasonOf } from './engine-fixtures';

describe('development costs (total build cost = build cost + contingency; professional fees 10% of build cost)', () => {
  it('adds the contingency to build cost, 10% professional fees and every cost to the project total', () => {
    const costs = developmentCosts(
      development({ purchaseCosts: 50_000, additionalOngoingCosts: 20_000, contingencyPercentage: 10 }),
    );
    expect(costs.totalBuildCost).toBe(1_100_000);
    expect(costs.professionalFees).toBe(100_000);
    expect(costs.totalProjectCost).toBe(1_000_000 + 50_000 + 1_100_000 + 100_000 + 20_000);
  });

  it('uses the 5% default contingency when the field is empty or zero', () => {
    expect(developmentCosts(development({ contingencyPercentage: 0 })).totalBuildCost).toBe(1_050_000);
    expect(developmentCosts(development({ contingencyPercentage: '' })).totalBuildCost).toBe(1_050_000);
  });

  it('does not add the contingency twice when the build cost already includes it', () => {
    expect(developmentCosts(development({ contingencyIncluded: true })).totalBuildCost).toBe(1_000_000);
  });
});

describe('development costs the borrower entered', () => {
  it('uses an entered total build cost and professional fees as entered, in the project total too', () => {
    const costs = developmentCosts(
      development({ totalBuildCost: 1_200_000, profCostsAndFees: 65_432.5, contingencyPercentage: 5 }),
    );
    expect(costs.totalBuildCost).toBe(1_200_000);
    expect(costs.professionalFees).toBe(65_432.5);
    expect(costs.contingency).toBe(200_000);
    expect(costs.totalProjectCost).toBe(1_000_000 + 1_200_000 + 65_432.5);
  });

  it('takes zero professional fees at their word, and derives only what was left empty', () => {
    const costs = developmentCosts(development({ profCostsAndFees: 0 }));
    expect(costs.professionalFees).toBe(0);
    expect(costs.totalBuildCost).toBe(1_050_000);
    expect(developmentCosts(development({ totalBuildCost: '' })).totalBuildCost).toBe(1_050_000);
  });

  it('sizes the offer on the entered figures: deposit and total build cost follow them', () => {
    const derived = offerOf(
      sizeDevelopmentLoan(
        development({ maxLoanRequired: false, netLoanRequired: 1_500_000 }),
        developmentProduct(),
        lender,
      ),
    );
    const entered = offerOf(
      sizeDevelopmentLoan(
        development({
          maxLoanRequired: false,
          netLoanRequired: 1_500_000,
          totalBuildCost: 1_100_000,
          profCostsAndFees: 150_000,
        }),
        developmentProduct(),
        lender,
      ),
    );
    expect(derived.TotalBuildCost).toBe(1_050_000);
    expect(entered.TotalBuildCost).toBe(1_100_000);
    expect(entered.TotalProjectCost).toBe(1_000_000 + 1_100_000 + 150_000);
    expect(entered.DepositRequired).toBe(1_000_000 + 1_100_000 + 150_000 - 1_500_000);
  });
});

describe('sizeDevelopmentLoan', () => {
  it('advances land first then build, and charges interest on the drawn balance (build about half drawn during the build)', () => {
    const offer = offerOf(
      sizeDevelopmentLoan(
        development({ maxLoanRequired: false, netLoanRequired: 1_500_000 }),
        developmentProduct(),
        lender,
      ),
    );
    expect(offer.LandLoan).toBe(600_000);
    expect(offer.BuildLoan).toBe(900_000);
    // land 600k × 1% × 18 + build 900k × 1% × (12/2 + 6) = 108,000 + 108,000
    expect(offer.LoanInterest).toBe(216_000);
    expect(offer.GrossLoan).toBe(Math.round(1_716_000 / 0.98));
    expect(offer.ArrangementFee).toBe(Math.round((1_716_000 / 0.98) * 0.02));
    expect(offer.NetLoan).toBe(1_500_000);
    expect(offer.MonthlyPayment).toBe(0);
    expect(offer.InterestTreatment).toBe('rolled');
  });

  it('forecasts profit as GDV minus project costs minus finance costs, and deposit as project cost minus net loan', () => {
    const offer = offerOf(
      sizeDevelopmentLoan(
        development({ maxLoanRequired: false, netLoanRequired: 1_500_000 }),
        developmentProduct(),
        lender,
      ),
    );
    const gross = 1_716_000 / 0.98;
    const finance = 216_000 + gross * 0.02 + gross * 0.01;
    expect(offer.TotalProjectCost).toBe(2_150_000);
    expect(offer.ProfitForecast).toBe(Math.round(3_000_000 - 2_150_000 - finance));
    expect(offer.DepositRequired).toBe(650_000);
    expect(offer.LoanToCost).toBeCloseTo(69.77, 2);
  });

  it('sizes a max loan to the land advance and full build funding when those bind', () => {
    const offer = offerOf(sizeDevelopmentLoan(development(), developmentProduct(), lender));
    expect(offer.LandLoan).toBe(600_000);
    expect(offer.BuildLoan).toBe(1_150_000);
    expect(offer.GrossLoan).toBe(Math.floor((1_750_000 + 108_000 + 138_000) / 0.98));
    expect(offer.qualifiesBecause.at(-1)).toBe(
      'Sized to its maximum, limited by its 60% land advance and 100% build funding',
    );
  });

  it('sizes a max loan to the loan-to-GDV cap when that binds, scaling both tranches', () => {
    const offer = offerOf(
      sizeDevelopmentLoan(development({ gdv: 2_600_000 }), developmentProduct({ minProfitOnGdv: 0 }), lender),
    );
    expect(offer.GrossLoan).toBe(1_820_000);
    expect(offer.LoanToValue).toBe(70);
    expect((offer.LandLoan ?? 0) / (offer.BuildLoan ?? 1)).toBeCloseTo(600_000 / 1_150_000, 4);
    expect(offer.qualifiesBecause.at(-1)).toBe('Sized to its maximum, limited by 70% loan to GDV');
  });

  it('sizes a max loan to the loan-to-cost cap when that binds', () => {
    const offer = offerOf(sizeDevelopmentLoan(development(), developmentProduct({ maxLtc: 0.7 }), lender));
    expect((offer.LandLoan ?? 0) + (offer.BuildLoan ?? 0)).toBeCloseTo(0.7 * 2_150_000, -1);
    expect(offer.qualifiesBecause.at(-1)).toBe('Sized to its maximum, limited by 70% loan to cost');
  });

  it('uses the lower LTGDV cap for a riskier end use', () => {
    const offer = offerOf(
      sizeDevelopmentLoan(
        development({ gdv: 2_600_000, propertyClass: 'Hotel' }),
        developmentProduct({ minProfitOnGdv: 0, maxLtgdvByClass: { Hotel: 0.6 } }),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(1_560_000);
  });

  it('declines a net loan above the loan-to-cost limit', () => {
    const reason = reasonOf(
      sizeDevelopmentLoan(
        development({ maxLoanRequired: false, netLoanRequired: 1_700_000 }),
        developmentProduct({ maxLtc: 0.75 }),
        lender,
      ),
    );
    expect(reason).toBe(
      'The £1,700,000 net loan is 79.1% of total project cost; its limit is 75% loan to cost',
    );
  });

  it('declines a net loan needing more build funding than the lender gives', () => {
    const reason = reasonOf(
      sizeDevelopmentLoan(
        development({ maxLoanRequired: false, netLoanRequired: 1_800_000 }),
        developmentProduct(),
        lender,
      ),
    );
    expect(reason).toContain('needs £1,200,000 of build funding');
  });

  it('declines when profit on GDV after finance falls below the lender minimum', () => {
    const reason = reasonOf(
      sizeDevelopmentLoan(
        development({ gdv: 2_400_000 }),
        developmentProduct({ minProfitOnGdv: 0.2 }),
        lender,
      ),
    );
    expect(reason).toMatch(/^Profit on GDV of \d+\.\d% after finance costs is below its 20% minimum$/);
  });

  it('declines a refused end use, a region it does not serve and a term out of range', () => {
    expect(
      reasonOf(
        sizeDevelopmentLoan(
          development({ propertyClass: 'HMO' }),
          developmentProduct({ refusedPropertyClasses: ['HMO'] }),
          lender,
        ),
      ),
    ).toBe('Does not fund HMO schemes');
    expect(
      reasonOf(
        sizeDevelopmentLoan(development({ propertyLocation: 'Wales' }), developmentProduct(), {
          ...lender,
          regions: ['London'],
        }),
      ),
    ).toBe('Does not lend in Wales');
    expect(reasonOf(sizeDevelopmentLoan(development({ loanTerm: 48 }), developmentProduct(), lender))).toBe(
      'Loan term of 48 months is outside its 6-36 month range',
    );
  });

  it('prices at the rate card band of the loan-to-GDV', () => {
    const product = developmentProduct({
      rateCard: [
        { maxRatio: 0.55, ratePerYear: 0.08 },
        { maxRatio: 0.65, ratePerYear: 0.095 },
        { maxRatio: 0.75, ratePerYear: 0.11 },
      ],
    });
    expect(
      offerOf(
        sizeDevelopmentLoan(
          development({ maxLoanRequired: false, netLoanRequired: 1_000_000 }),
          product,
          lender,
        ),
      ).InterestRate,
    ).toBe(0.08);
    expect(
      offerOf(sizeDevelopmentLoan(development({ gdv: 2_600_000 }), { ...product, minProfitOnGdv: 0 }, lender))
        .InterestRate,
    ).toBe(0.11);
  });

  it('flags criteria close to the limit', () => {
    const offer = offerOf(
      sizeDevelopmentLoan(
        development({ maxLoanRequired: false, netLoanRequired: 1_900_000, gdv: 4_000_000 }),
        developmentProduct({ maxLandAdvance: 0.75 }),
        lender,
      ),
    );
    expect(offer.closeToLimits.some((note) => note.startsWith('Loan to cost'))).toBe(true);
  });
});
