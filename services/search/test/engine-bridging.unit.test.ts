import { bridgingFinance, sizeBridgingLoan } from '../src/engine';
import { bridging, bridgingProduct, lender, offerOf, reasonOf } from './engine-fixtures';

describe('bridging finance arithmetic', () => {
  it('needs £113,636 gross for £100k net at 1% a month retained for 12 months (LENDING.md worked example)', () => {
    const offer = offerOf(
      sizeBridgingLoan(
        bridging({ maxLoanRequired: false, netLoanRequired: 100_000 }),
        bridgingProduct(),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(113_636);
    expect(offer.NetLoan).toBe(100_000);
    expect(offer.LoanInterest).toBe(13_636);
    expect(offer.InterestRate).toBeCloseTo(0.12, 10);
    expect(offer.MonthlyPayment).toBe(0);
  });

  it('grosses up through the arrangement fee and lender costs too: (net + costs) ÷ (1 − r×n − fee%)', () => {
    const product = bridgingProduct({
      fees: { arrangementFeePct: 0.02, minArrangementFee: 0, exitFeePct: 0, otherCosts: 1500 },
    });
    const finance = bridgingFinance(product, 0.0075, 12);
    expect(finance.grossForNet(200_000)).toBeCloseTo(201_500 / (1 - 0.09 - 0.02), 6);
    expect(finance.netForGross(finance.grossForNet(200_000))).toBeCloseTo(200_000, 6);
  });

  it('applies a minimum arrangement fee when the percentage falls below it', () => {
    const product = bridgingProduct({
      fees: { arrangementFeePct: 0.01, minArrangementFee: 2000, exitFeePct: 0, otherCosts: 0 },
    });
    const offer = offerOf(
      sizeBridgingLoan(bridging({ maxLoanRequired: false, netLoanRequired: 100_000 }), product, lender),
    );
    expect(offer.ArrangementFee).toBe(2000);
    expect(offer.GrossLoan).toBe(Math.round(102_000 / 0.88));
  });

  it('compounds rolled-up interest: day-one advance × (1 + r)^n', () => {
    const offer = offerOf(
      sizeBridgingLoan(
        bridging({ maxLoanRequired: false, netLoanRequired: 100_000 }),
        bridgingProduct({ interestTreatment: 'rolled' }),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(Math.round(100_000 * 1.01 ** 12));
    expect(offer.LoanInterest).toBe(Math.round(100_000 * (1.01 ** 12 - 1)));
    expect(offer.NetLoan).toBe(100_000);
  });

  it('charges serviced interest monthly and lends the net plus the fee only', () => {
    const product = bridgingProduct({
      interestTreatment: 'serviced',
      fees: { arrangementFeePct: 0.02, minArrangementFee: 0, exitFeePct: 0, otherCosts: 0 },
    });
    const offer = offerOf(
      sizeBridgingLoan(bridging({ maxLoanRequired: false, netLoanRequired: 100_000 }), product, lender),
    );
    expect(offer.GrossLoan).toBe(102_041);
    expect(offer.MonthlyPayment).toBeCloseTo(1020.41, 2);
  });

  it('charges the minimum interest months on a short bridge', () => {
    const offer = offerOf(
      sizeBridgingLoan(
        bridging({ loanTerm: 1, maxLoanRequired: false, netLoanRequired: 100_000 }),
        bridgingProduct({ minInterestMonths: 3 }),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(Math.round(100_000 / 0.97));
    expect(offer.closeToLimits.join(' ')).toContain('at least 3 months');
  });
});

describe('bridging use cases', () => {
  it('purchase: lends to the LTV cap on the lower of price and valuation, and the deposit covers the rest', () => {
    const payload = bridging({
      ownOrPurchase: 'Purchasing',
      purchasePrice: 400_000,
      currentValue: 450_000,
      purchaseCosts: 20_000,
    });
    const offer = offerOf(sizeBridgingLoan(payload, bridgingProduct(), lender));
    expect(offer.GrossLoan).toBe(300_000);
    expect(offer.LoanToValue).toBe(75);
    expect(offer.NetLoan).toBe(264_000);
    expect(offer.DepositRequired).toBe(400_000 + 20_000 - 264_000);
    expect(offer.qualifiesBecause.join(' ')).toContain('limited by 75% loan to value');
  });

  it('purchase: caps the loan at the share of price the lender allows', () => {
    const offer = offerOf(
      sizeBridgingLoan(
        bridging({ ownOrPurchase: 'Purchasing', purchasePrice: 400_000 }),
        bridgingProduct({ maxPurchasePriceLtv: 0.6 }),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(240_000);
  });

  it('developer exit: lends against the completed units value with the exit cap', () => {
    const payload = bridging({
      bridgingType: 'bridgingDeveloperExit',
      estimatedEndValueOfProperty: 2_000_000,
      refinancedUnits: 4,
    });
    const offer = offerOf(sizeBridgingLoan(payload, bridgingProduct({ developerExitMaxLtv: 0.7 }), lender));
    expect(offer.GrossLoan).toBe(1_400_000);
    expect(offer.PropertyValue).toBe(2_000_000);
    expect(offer.qualifiesBecause.join(' ')).toContain('4 completed unit(s)');
  });

  it('developer exit: declines without a completed value', () => {
    const payload = bridging({ bridgingType: 'bridgingDeveloperExit' });
    expect(reasonOf(sizeBridgingLoan(payload, bridgingProduct(), lender))).toBe(
      'No completed value of the units was given to lend against',
    );
  });

  it('refurbishment: day-one advance plus works, held within the cap on end value', () => {
    const payload = bridging({
      bridgingType: 'bridgingRefurbishment',
      currentValue: 400_000,
      buildCosts: 100_000,
      estimatedEndValueOfProperty: 600_000,
      refurbishmentLevel: 'Medium',
    });
    const offer = offerOf(sizeBridgingLoan(payload, bridgingProduct(), lender));
    // min(75% × 400k + 100% × 100k, 70% × 600k) = min(400k, 420k)
    expect(offer.GrossLoan).toBe(400_000);
    expect(offer.InterestRate).toBeCloseTo((0.01 + 0.001) * 12, 10);
  });

  it('refurbishment: heavy works lower the day-one LTV, add a rate premium and the heavy exit fee', () => {
    const payload = bridging({
      bridgingType: 'bridgingRefurbishment',
      currentValue: 400_000,
      buildCosts: 100_000,
      estimatedEndValueOfProperty: 700_000,
      refurbishmentLevel: 'Heavy',
    });
    const offer = offerOf(sizeBridgingLoan(payload, bridgingProduct(), lender));
    expect(offer.GrossLoan).toBe(360_000);
    expect(offer.InterestRate).toBeCloseTo(0.0125 * 12, 10);
    expect(offer.LenderExitFee).toBe(3600);
  });

  it('refurbishment: declines a level the lender does not fund', () => {
    const product = bridgingProduct({
      refurbishment: { ...bridgingProduct().refurbishment!, levels: ['Light'] },
    });
    const payload = bridging({
      bridgingType: 'bridgingRefurbishment',
      refurbishmentLevel: 'Heavy',
      buildCosts: 50_000,
    });
    expect(reasonOf(sizeBridgingLoan(payload, product, lender))).toBe(
      'Does not fund heavy refurbishment (accepts light)',
    );
  });

  it('land: the planning status sets the LTV', () => {
    const payload = bridging({
      bridgingType: 'bridgingPreconstruction',
      currentValue: 1_000_000,
      planningPermissionType: 'OutlinePlanning',
    });
    expect(offerOf(sizeBridgingLoan(payload, bridgingProduct(), lender)).GrossLoan).toBe(600_000);
  });

  it('land: declines a planning status the lender does not accept', () => {
    const payload = bridging({ landOrProperty: 'Land', planningPermissionType: 'NoPlanning' });
    expect(reasonOf(sizeBridgingLoan(payload, bridgingProduct(), lender))).toBe(
      'Does not lend on land with no planning',
    );
  });
});

describe('bridging criteria', () => {
  it('declines a requested net loan whose gross exceeds the LTV cap, saying by how much', () => {
    const payload = bridging({ currentValue: 100_000, maxLoanRequired: false, netLoanRequired: 70_000 });
    expect(reasonOf(sizeBridgingLoan(payload, bridgingProduct(), lender))).toBe(
      'A £70,000 net loan needs a £79,545 gross loan, above its limit of £75,000 (75% loan to value)',
    );
  });

  it('uses the size band the loan falls in: 75% up to £1m, 65% above', () => {
    const product = bridgingProduct({
      maxLtvBands: [
        { upToLoan: 1_000_000, maxRatio: 0.75 },
        { upToLoan: 10_000_000, maxRatio: 0.65 },
      ],
    });
    // 75% of £1.6m would be £1.2m (band 2, 65% → £1.04m); band 1 allows at most £1m.
    expect(offerOf(sizeBridgingLoan(bridging({ currentValue: 1_600_000 }), product, lender)).GrossLoan).toBe(
      1_040_000,
    );
    expect(offerOf(sizeBridgingLoan(bridging({ currentValue: 1_400_000 }), product, lender)).GrossLoan).toBe(
      1_000_000,
    );
  });

  it('prices from the rate card band of the resulting LTV', () => {
    const product = bridgingProduct({
      rateCard: [
        { maxRatio: 0.5, ratePerMonth: 0.0049 },
        { maxRatio: 0.65, ratePerMonth: 0.0064 },
        { maxRatio: 0.75, ratePerMonth: 0.0094 },
      ],
    });
    const low = offerOf(
      sizeBridgingLoan(bridging({ maxLoanRequired: false, netLoanRequired: 300_000 }), product, lender),
    );
    expect(low.InterestRate).toBeCloseTo(0.0049 * 12, 10);
    const high = offerOf(
      sizeBridgingLoan(bridging({ maxLoanRequired: false, netLoanRequired: 650_000 }), product, lender),
    );
    expect(high.InterestRate).toBeCloseTo(0.0094 * 12, 10);
  });

  it('declines outside its regions, refused classes, use cases and term range', () => {
    expect(
      reasonOf(
        sizeBridgingLoan(bridging({ propertyLocation: 'Scotland' }), bridgingProduct(), {
          ...lender,
          regions: ['London'],
        }),
      ),
    ).toBe('Does not lend in Scotland');
    expect(
      reasonOf(
        sizeBridgingLoan(
          bridging({ propertyClass: 'Hotel' }),
          bridgingProduct({ refusedPropertyClasses: ['Hotel'] }),
          lender,
        ),
      ),
    ).toBe('Does not lend on Hotel property');
    expect(
      reasonOf(
        sizeBridgingLoan(bridging(), bridgingProduct({ useCases: ['bridgingRefurbishment'] }), lender),
      ),
    ).toBe('Does not offer purchase or refinance bridges');
    expect(reasonOf(sizeBridgingLoan(bridging({ loanTerm: 30 }), bridgingProduct(), lender))).toBe(
      'Loan term of 30 months is outside its 1-24 month range',
    );
  });

  it('declines below the minimum loan', () => {
    expect(reasonOf(sizeBridgingLoan(bridging({ currentValue: 20_000 }), bridgingProduct(), lender))).toBe(
      'The £15,000 gross loan is below its £25,000 minimum',
    );
  });

  it('computes true monthly cost from rate and fees over the term', () => {
    const product = bridgingProduct({
      fees: { arrangementFeePct: 0.02, minArrangementFee: 0, exitFeePct: 0.01, otherCosts: 0 },
    });
    const offer = offerOf(sizeBridgingLoan(bridging(), product, lender));
    // 1% a month + (2% + 1%) ÷ 12 months = 1.25%
    expect(offer.TrueMonthlyCost).toBeCloseTo(0.0125, 10);
  });
});
