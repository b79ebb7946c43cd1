import { readLoanOffer } from '../src/shared/loan-offer';
import { loanFlow } from '../src/results/loan-flow';

describe('where the gross loan goes', () => {
  it('splits the gross loan into net loan, fees and the rest, with the deposit beside it', () => {
    const flow = loanFlow(
      readLoanOffer({
        LenderName: 'Castlegate Finance',
        GrossLoan: 450000,
        NetLoan: 430000,
        DepositRequired: 170000,
        ArrangementFee: 9000,
        OtherLenderCosts: 4500,
      }),
    )!;
    expect(flow.loan.map((s) => [s.label, s.amount])).toEqual([
      ['Net loan', 430000],
      ['Arrangement fee and costs', 13500],
      ['Interest and other lender costs', 6500],
    ]);
    expect(flow.loan.reduce((sum, s) => sum + s.amount, 0)).toBe(450000);
    expect(flow.deposit).toMatchObject({ label: 'Your deposit', amount: 170000 });
    expect(flow.scale).toBe(450000);
    expect(flow.description).toBe(
      'Gross loan £450,000: net loan £430,000 (95.6%), arrangement fee and costs £13,500 (3.0%), interest and other lender costs £6,500 (1.4%). Your deposit, beside it: £170,000.',
    );
  });

  it("shows the offer's LoanInterest, the list's figure, and keeps the exit fee out of the gross loan", () => {
    // As the search engine builds a development offer: gross = net + arrangement fee + other costs +
    // interest; the exit fee is paid when the loan is repaid. Counting the exit fee inside the gross
    // loan showed interest £169,244 beside a list saying £186,390.
    const flow = loanFlow(
      readLoanOffer({
        GrossLoan: 2_000_000,
        NetLoan: 1_770_610,
        ArrangementFee: 40_000,
        OtherLenderCosts: 3_000,
        LenderExitFee: 17_146,
        LoanInterest: 186_390,
      }),
    )!;
    expect(flow.loan.map((s) => [s.label, s.amount])).toEqual([
      ['Net loan', 1_770_610],
      ['Arrangement fee and costs', 43_000],
      ['Interest', 186_390],
    ]);
    expect(flow.exitFee).toBe(17_146);
    expect(flow.description).toContain('interest £186,390');
    expect(flow.description).toContain('Exit fee £17,146, paid when the loan is repaid.');
  });

  it('names the rest interest when the offer itemises it, and leaves out empty parts', () => {
    const flow = loanFlow(
      readLoanOffer({ GrossLoan: 100000, NetLoan: 92000, LoanInterest: 8000, ArrangementFee: 0 }),
    )!;
    expect(flow.loan.map((s) => s.label)).toEqual(['Net loan', 'Interest']);
    expect(flow.deposit).toBeNull();
  });

  it('draws nothing without a gross and a net loan, or when the net loan is the larger', () => {
    expect(loanFlow(readLoanOffer({ GrossLoan: 100000 }))).toBeNull();
    expect(loanFlow(readLoanOffer({ GrossLoan: 100000, NetLoan: 120000 }))).toBeNull();
  });
});
