import { bestValueIndexes, compareRows, marksSummary, rowValues } from '../src/compare/compare-rows';
import {
  compareButtonLabel,
  isCompareDisabled,
  isSelectedForCompare,
  toggleCompare,
} from '../src/compare/compare-selection';
import { selectHighlights } from '../src/results/highlights';
import { readLoanOffer, type LoanOffer } from '../src/shared/loan-offer';

const offer = (fields: Record<string, unknown>): LoanOffer => readLoanOffer(fields);

describe('compare selection', () => {
  const a = offer({ LenderName: 'A', GrossLoan: 500000, InterestRate: 0.09 });
  const b = offer({ LenderName: 'B', GrossLoan: 600000, InterestRate: 0.1 });
  const c = offer({ LenderName: 'C', GrossLoan: 700000, InterestRate: 0.11 });
  const d = offer({ LenderName: 'D', GrossLoan: 800000, InterestRate: 0.12 });

  it('adds deals up to three and then refuses a fourth', () => {
    let selected = toggleCompare([], a);
    selected = toggleCompare(selected, b);
    selected = toggleCompare(selected, c);
    expect(selected).toHaveLength(3);
    expect(toggleCompare(selected, d)).toHaveLength(3);
    expect(isCompareDisabled(selected, d)).toBe(true);
    expect(isCompareDisabled(selected, a)).toBe(false);
  });

  it('matches a deal by gross loan and interest rate, not by object identity or lender name', () => {
    const selected = toggleCompare([], a);
    const sameTermsOtherObject = offer({ LenderName: 'Renamed', GrossLoan: '500,000', InterestRate: '0.09' });
    expect(isSelectedForCompare(selected, sameTermsOtherObject)).toBe(true);
    expect(toggleCompare(selected, sameTermsOtherObject)).toEqual([]);
    expect(isSelectedForCompare(selected, offer({ GrossLoan: 500000, InterestRate: 0.095 }))).toBe(false);
  });

  it('labels the floating button with the count', () => {
    expect(compareButtonLabel(1)).toBe('Compare 1 Deal');
    expect(compareButtonLabel(3)).toBe('Compare 3 Deals');
  });
});

describe('highlight cards', () => {
  const offers = [
    offer({
      LenderName: 'Cheap',
      GrossLoan: 400000,
      NetLoan: 380000,
      InterestRate: 0.08,
      DepositRequired: 90000,
      ProfitForecast: 150000,
      MonthlyPayment: 2500,
    }),
    offer({
      LenderName: 'Big',
      GrossLoan: 900000,
      NetLoan: 850000,
      InterestRate: 0.11,
      DepositRequired: 40000,
      ProfitForecast: 120000,
      MonthlyPayment: 5200,
    }),
    offer({
      LenderName: 'Profit',
      GrossLoan: 700000,
      NetLoan: 860000,
      InterestRate: 0.1,
      DepositRequired: 60000,
      ProfitForecast: 300000,
      MonthlyPayment: 2100,
    }),
  ];

  it('picks lowest deposit, highest gross loan, lowest rate and maximum profit for development and bridging', () => {
    const cards = selectHighlights(offers, 'development').map((card) => [card.title, card.offer.lenderName]);
    expect(cards).toEqual([
      ['Lowest Deposit', 'Big'],
      ['Highest Gross Loan', 'Big'],
      ['Lowest Interest Rate', 'Cheap'],
      ['Maximum Profit', 'Profit'],
    ]);
  });

  it('uses highest net loan and lowest monthly payment for commercial', () => {
    const cards = selectHighlights(offers, 'commercial').map((card) => [card.title, card.offer.lenderName]);
    expect(cards).toEqual([
      ['Lowest Deposit', 'Big'],
      ['Highest Net Loan', 'Profit'],
      ['Lowest Interest Rate', 'Cheap'],
      ['Lowest Monthly Payment', 'Profit'],
    ]);
  });

  it('leaves out a card no offer has a figure for, and ignores unreadable figures', () => {
    const cards = selectHighlights(
      [offer({ LenderName: 'X', GrossLoan: 'n/a', NetLoan: 100, InterestRate: 0.1 })],
      'bridging',
    );
    // No deposit can be derived either: the offer carries no property value to take the net loan from.
    expect(cards.map((card) => card.kind)).toEqual(['lowestInterestRate']);
  });
});

describe('compare table best values', () => {
  it('marks the lowest of rate, TMC, deposit and fee and the highest of loans, profit and monthly payment', () => {
    const rows = compareRows('commercial');
    const best = Object.fromEntries(rows.map((row) => [row.field, row.best]));
    expect(best).toMatchObject({
      interestRate: 'min',
      trueMonthlyCost: 'min',
      deposit: 'min',
      arrangementFee: 'min',
      grossLoan: 'max',
      netLoan: 'max',
      monthlyPayment: 'max',
      loanToValue: null,
    });
    expect(compareRows('development').some((row) => row.field === 'monthlyPayment')).toBe(false);
    expect(compareRows('development').some((row) => row.field === 'profit')).toBe(true);
  });

  it('keeps Profit for commercial and adds Monthly Payment and LTV after it', () => {
    const labels = (type: 'development' | 'commercial') => compareRows(type).map((row) => row.label);
    expect(labels('commercial')).toEqual([...labels('development'), 'Monthly Payment', 'LTV']);
    expect(compareRows('commercial').find((row) => row.field === 'profit')?.best).toBe('max');
  });

  it('reads the commercial lifetime cost: monthly payment × 12 × 20 plus the fee', () => {
    const raw = { LenderName: 'C', MonthlyPayment: 1500, ArrangementFee: 4000, LoanType: 'commercial' };
    expect(readLoanOffer(raw).lifetimeCost).toBe(1500 * 12 * 20 + 4000);
    expect(readLoanOffer({ ...raw, LoanType: undefined }, {}, 'commercial').lifetimeCost).toBe(364000);
    expect(readLoanOffer({ ...raw, LoanType: 'bridging' }).lifetimeCost).toBeNull();
  });

  it('marks every offer sharing the best value and nothing when all are equal or only one has it', () => {
    expect(bestValueIndexes([3, 1, 1], 'min')).toEqual([1, 2]);
    expect(bestValueIndexes([3, null, 5], 'max')).toEqual([2]);
    expect(bestValueIndexes([2, 2], 'min')).toEqual([]);
    expect(bestValueIndexes([2, null], 'min')).toEqual([]);
  });

  it("keeps the rule marking the highest monthly payment, but calls that mark 'Highest', not 'Best'", () => {
    const rows = compareRows('commercial');
    const payment = rows.find((row) => row.field === 'monthlyPayment')!;
    expect(payment).toMatchObject({ best: 'max', mark: 'Highest' });
    expect(rows.filter((row) => row.field !== 'monthlyPayment').every((row) => row.mark === 'Best')).toBe(
      true,
    );
    const marked = rows.filter((row) => ['netLoan', 'monthlyPayment'].includes(row.field));
    expect(marksSummary(marked)).toBe('Best for net loan; highest monthly payment');
    expect(marksSummary([payment])).toBe('Highest monthly payment');
    expect(marksSummary([])).toBe('No best-value figures');
  });

  it('never marks an unquoted zero fee as the best', () => {
    const row = compareRows('bridging').find((r) => r.field === 'arrangementFee');
    const offers = [
      offer({ GrossLoan: 1, InterestRate: 0.1, ArrangementFee: 0 }),
      offer({ GrossLoan: 2, InterestRate: 0.1, ArrangementFee: 5000 }),
      offer({ GrossLoan: 3, InterestRate: 0.1, ArrangementFee: 7000 }),
    ];
    expect(bestValueIndexes(rowValues(row!, offers), row!.best)).toEqual([1]);
  });
});
