import { annuityFactor, sizeCommercialLoan } from '../src/engine';
import { commercial, commercialProduct, lender, offerOf, reasonOf } from './engine-fixtures';

/** Standard annuity, written out independently of the engine. */
const monthlyAnnuity = (annualRate: number, months: number) => {
  const r = annualRate / 12;
  return (r * (1 + r) ** months) / ((1 + r) ** months - 1);
};

describe('sizeCommercialLoan', () => {
  it('lends the lower of the LTV cap and what the rent covers at the stressed rate (interest-only)', () => {
    // £60k rent ÷ (145% × (6% + 2%)) = £517,241, below 70% of £1m
    const offer = offerOf(sizeCommercialLoan(commercial(), commercialProduct(), lender));
    expect(offer.GrossLoan).toBe(517_241);
    expect(offer.MonthlyPayment).toBeCloseTo((517_241 * 0.06) / 12, 1);
    expect(offer.qualifiesBecause.at(-1)).toBe(
      'Sized to its maximum, limited by the rent covering 145% of payments at a stressed 8.00%',
    );
  });

  it('is held to the LTV cap when the rent is strong', () => {
    const offer = offerOf(
      sizeCommercialLoan(commercial({ grossMonthlyRentalIncome: 20_000 }), commercialProduct(), lender),
    );
    expect(offer.GrossLoan).toBe(700_000);
    expect(offer.LoanToValue).toBe(70);
    expect(offer.NetLoan).toBe(693_000);
  });

  it('uses the stress floor when rate plus margin is below it', () => {
    const payload = commercial({ grossMonthlyRentalIncome: 4000 });
    const offer = offerOf(
      sizeCommercialLoan(
        payload,
        commercialProduct({ rateCard: [{ maxRatio: 0.75, ratePerYear: 0.03 }] }),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(Math.floor(48_000 / (1.45 * 0.055)));
  });

  it('tests a repayment mortgage against the stressed annuity, at 125% cover up to 15 years', () => {
    const offer = offerOf(
      sizeCommercialLoan(commercial({ loanRepaymentType: 'Repayment' }), commercialProduct(), lender),
    );
    const perPound = 12 * monthlyAnnuity(0.08, 120);
    expect(offer.GrossLoan).toBe(Math.floor(60_000 / (1.25 * perPound)));
    expect(offer.MonthlyPayment).toBeCloseTo(offer.GrossLoan * monthlyAnnuity(0.06, 120), 0);
  });

  it('needs 145% cover on a repayment term over 15 years', () => {
    const offer = offerOf(
      sizeCommercialLoan(
        commercial({ loanRepaymentType: 'Capital&Interest', mortgageTerm: 20 }),
        commercialProduct(),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(Math.floor(60_000 / (1.45 * 12 * monthlyAnnuity(0.08, 240))));
    expect(offer.MortgageTerm).toBe(20);
    expect(offer.LoanTerm).toBe(240);
  });

  it('adds the fixed-rate premium for the chosen fix', () => {
    const offer = offerOf(
      sizeCommercialLoan(
        commercial({
          mortgageInterestType: 'Fixed',
          fixedRateTerm: 'FiveYear',
          grossMonthlyRentalIncome: 20_000,
        }),
        commercialProduct(),
        lender,
      ),
    );
    expect(offer.InterestRate).toBeCloseTo(0.064, 10);
  });

  it('declines a fix the lender does not offer, and variable when it offers fixes only', () => {
    expect(
      reasonOf(
        sizeCommercialLoan(
          commercial({ mortgageInterestType: 'Fixed', fixedRateTerm: 'TenYear' }),
          commercialProduct(),
          lender,
        ),
      ),
    ).toBe('Does not offer a Ten Year fixed rate');
    expect(
      reasonOf(sizeCommercialLoan(commercial(), commercialProduct({ variableAvailable: false }), lender)),
    ).toBe('Offers fixed rates only');
  });

  it('caps interest-only at its own LTV', () => {
    const offer = offerOf(
      sizeCommercialLoan(
        commercial({ grossMonthlyRentalIncome: 20_000 }),
        commercialProduct({ interestOnlyMaxLtv: 0.6 }),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(600_000);
  });

  it('does not apply a rent test to an owner-occupier, and says the trading test is pending', () => {
    const offer = offerOf(
      sizeCommercialLoan(
        commercial({ isOwnerOccupied: true, grossMonthlyRentalIncome: undefined }),
        commercialProduct(),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(700_000);
    expect(offer.ProfitForecast).toBe(0);
    expect(offer.closeToLimits[0]).toContain('trading profit');
  });

  it('grosses a requested net loan up through the fee and declines when the rent cannot cover it', () => {
    const offer = offerOf(
      sizeCommercialLoan(
        commercial({ maxLoanRequired: false, netLoanRequired: 400_000 }),
        commercialProduct(),
        lender,
      ),
    );
    expect(offer.GrossLoan).toBe(Math.round(400_000 / 0.99));
    expect(
      reasonOf(
        sizeCommercialLoan(
          commercial({ maxLoanRequired: false, netLoanRequired: 600_000 }),
          commercialProduct(),
          lender,
        ),
      ),
    ).toBe('The rent supports at most £517,241: it must cover 145% of payments at a stressed 8.00%');
  });

  it('works out the deposit on a purchase as price plus costs minus net loan', () => {
    const payload = commercial({
      ownOrPurchase: 'Purchasing',
      purchasePrice: 800_000,
      purchaseCosts: 40_000,
      grossMonthlyRentalIncome: 20_000,
    });
    const offer = offerOf(sizeCommercialLoan(payload, commercialProduct(), lender));
    expect(offer.GrossLoan).toBe(560_000);
    expect(offer.DepositRequired).toBe(800_000 + 40_000 - offer.NetLoan);
  });

  it('declines owner-occupiers, entity types, short leases and term lengths it does not take', () => {
    expect(
      reasonOf(
        sizeCommercialLoan(
          commercial({ isOwnerOccupied: true }),
          commercialProduct({ acceptsOwnerOccupied: false }),
          lender,
        ),
      ),
    ).toBe('Lends on investment property only, not owner-occupied');
    expect(
      reasonOf(sizeCommercialLoan(commercial(), commercialProduct({ entityTypes: ['Company'] }), lender)),
    ).toBe('Does not lend to individuals');
    expect(
      reasonOf(
        sizeCommercialLoan(commercial({ timeLeftOnLease: 'LessThanYear' }), commercialProduct(), lender),
      ),
    ).toBe("Needs at least one to three years left on the tenant's lease");
    expect(reasonOf(sizeCommercialLoan(commercial({ mortgageTerm: 2 }), commercialProduct(), lender))).toBe(
      'A 2-year term is outside its 3-30 year range',
    );
  });

  it('annuityFactor matches the closed-form annuity', () => {
    expect(annuityFactor(0.06, 300)).toBeCloseTo(monthlyAnnuity(0.06, 300), 12);
    expect(annuityFactor(0, 120)).toBeCloseTo(1 / 120, 12);
  });
});
