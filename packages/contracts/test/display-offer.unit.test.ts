import {
  arrangementFeeOf,
  commercialLifetimeCost,
  depositOf,
  estimateTrueMonthlyCost,
  formatArrangementFee,
  lenderNameOf,
  returnOnCapitalEmployed,
  roceOf,
  trueMonthlyCostOf,
} from '../src/display';

describe('arrangement fee fallback chain', () => {
  it('prefers the lender arrangement fee, then the arrangement fee', () => {
    expect(arrangementFeeOf({ LenderArrangementFee: 3000, ArrangementFee: 2000 })).toBe(3000);
    expect(arrangementFeeOf({ ArrangementFee: '2,000' })).toBe(2000);
  });

  it('falls back to lender costs minus loan interest', () => {
    expect(arrangementFeeOf({ LenderCosts: 15000, LoanInterest: 12000 })).toBe(3000);
    expect(arrangementFeeOf({ TotalLenderCosts: '15000', LoanInterest: '12000' })).toBe(3000);
  });

  it('shows "Contact for fee" when the fee is zero or cannot be found', () => {
    expect(formatArrangementFee({ ArrangementFee: 0 })).toBe('Contact for fee');
    expect(formatArrangementFee({ LenderCosts: 1000, LoanInterest: 1000 })).toBe('Contact for fee');
    expect(formatArrangementFee({})).toBe('Contact for fee');
    expect(formatArrangementFee({ ArrangementFee: 2500 })).toBe('£2,500');
  });
});

describe('deposit fallback', () => {
  it('uses the given deposit, floored at 0', () => {
    expect(depositOf({ DepositRequired: 50000 })).toBe(50000);
    expect(depositOf({ EquityOrDeposit: '-10' })).toBe(0);
  });

  it('falls back through property or purchase value, build or project cost, then current value, minus net loan', () => {
    expect(depositOf({ NetLoan: 150000, PropertyValue: 200000, BuildCost: 900000 })).toBe(50000);
    expect(depositOf({ NetLoan: 150000, PurchasePrice: '180,000' })).toBe(30000);
    expect(depositOf({ NetLoan: 150000, TotalBuildCost: 400000 })).toBe(250000);
    expect(depositOf({ NetLoan: 150000, CurrentValue: 160000 })).toBe(10000);
    expect(depositOf({ NetLoan: 300000, PurchasePrice: 200000 })).toBe(0);
    expect(depositOf({ NetLoan: 150000 })).toBeNull();
  });
});

describe('true monthly cost estimate', () => {
  it('is interest ÷ 12 plus fees as a share of gross spread over the term, to 2 dp of a percent', () => {
    // 12% ÷ 12 = 1% + (2,000 + 1,000) ÷ 100,000 ÷ 12 = 0.25%
    expect(
      estimateTrueMonthlyCost({
        annualRate: 0.12,
        grossLoan: 100000,
        arrangementFee: 2000,
        exitFee: 1000,
        termMonths: 12,
      }),
    ).toBeCloseTo(0.0125, 10);
  });

  it('uses a 12-month term when none is given', () => {
    expect(
      estimateTrueMonthlyCost({ annualRate: 0.06, grossLoan: 100000, arrangementFee: 1200, exitFee: 0 }),
    ).toBeCloseTo(0.006, 10);
  });

  it('estimates for an offer without a TMC and keeps one that has it', () => {
    expect(trueMonthlyCostOf({ TrueMonthlyCost: 0.011 })).toBe(0.011);
    expect(
      trueMonthlyCostOf({ InterestRate: '0.12', GrossLoan: 100000, ArrangementFee: 2400 }, 12),
    ).toBeCloseTo(0.012, 10);
    expect(trueMonthlyCostOf({})).toBeNull();
  });

  it("keeps a TMC of 0 (shown 'Contact for TMC') rather than estimating one", () => {
    expect(
      trueMonthlyCostOf({ TrueMonthlyCost: 0, InterestRate: 0.12, GrossLoan: 100000, ArrangementFee: 2400 }),
    ).toBe(0);
    expect(trueMonthlyCostOf({ TrueMonthlyCost: '0', InterestRate: 0.12, GrossLoan: 100000 })).toBe(0);
  });
});

describe('returns and costs', () => {
  it('computes commercial lifetime cost as monthly payment × 12 × 20 plus the fee', () => {
    expect(commercialLifetimeCost({ MonthlyPayment: 1000, ArrangementFee: 5000 })).toBe(245000);
    expect(commercialLifetimeCost({})).toBeNull();
  });

  it('computes ROCE as profit ÷ deposit as a percentage to 2 dp, 0 without a deposit', () => {
    expect(returnOnCapitalEmployed(100000, 300000)).toBe(33.33);
    expect(returnOnCapitalEmployed(100000, 0)).toBe(0);
    expect(returnOnCapitalEmployed('x', 1000)).toBe(0);
    expect(roceOf({ ProfitForecast: '50000', DepositRequired: '200000' })).toBe(25);
  });

  it('names the lender or falls back to "Lender Details"', () => {
    expect(lenderNameOf({ LenderName: 'Harbourgate Finance' })).toBe('Harbourgate Finance');
    expect(lenderNameOf({ Lender: 'Kestrel Lending' })).toBe('Kestrel Lending');
    expect(lenderNameOf({})).toBe('Lender Details');
  });
});
