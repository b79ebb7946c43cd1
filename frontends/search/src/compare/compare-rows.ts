import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';

export type CompareFormat = 'currency' | 'ratePm' | 'tmc' | 'percent';
export type GlossaryTerm =
  'grossLoan' | 'netLoan' | 'tmc' | 'deposit' | 'profit' | 'ltc' | 'roce' | 'fees' | 'monthlyPayment';

export interface CompareRow {
  label: string;
  field: keyof Pick<
    LoanOffer,
    | 'interestRate'
    | 'trueMonthlyCost'
    | 'deposit'
    | 'arrangementFee'
    | 'grossLoan'
    | 'netLoan'
    | 'profit'
    | 'monthlyPayment'
    | 'loanToValue'
  >;
  format: CompareFormat;
  /** Which end of the row is the best value; rows without one are shown unmarked. */
  best: 'min' | 'max' | null;
  /**
   * The word on the marked value: 'Best', unless the rule marks a value a borrower would not call
   * best (the highest monthly payment), where the word says what is marked instead.
   */
  mark: 'Best' | 'Highest';
  glossary?: GlossaryTerm;
  /** A zero here means the lender did not quote it ('Contact for fee'), so it cannot be the best value. */
  zeroMeansUnquoted?: boolean;
}

export const GLOSSARY: Record<GlossaryTerm, { term: string; text: string }> = {
  grossLoan: {
    term: 'Gross Loan',
    text: 'The total amount borrowed, including fees and interest added to the loan.',
  },
  netLoan: {
    term: 'Net Loan',
    text: 'The amount you actually receive once fees and retained interest are deducted.',
  },
  tmc: {
    term: 'True Monthly Cost (TMC)',
    text: 'Interest plus arrangement and exit fees spread over the term, as a monthly percentage of the loan.',
  },
  deposit: {
    term: 'Deposit',
    text: 'The cash you put in yourself: the project or property cost not covered by the net loan.',
  },
  profit: {
    term: 'Profit',
    text: 'The forecast profit of the project after the loan and its costs are repaid.',
  },
  ltc: { term: 'LTC (Loan to Cost)', text: 'The loan as a percentage of the total project cost.' },
  roce: {
    term: 'ROCE',
    text: 'Return on capital employed: forecast profit divided by your deposit, as a percentage.',
  },
  fees: {
    term: 'Fees',
    text: 'Arrangement fee charged by the lender to set up the loan, plus any exit fee when it is repaid.',
  },
  monthlyPayment: {
    term: 'Monthly Payment',
    text: 'What you pay the lender each month on a commercial mortgage.',
  },
};

/**
 * Best value per row: lowest interest rate, true monthly cost, deposit and arrangement fee; highest gross
 * loan, net loan, profit and monthly payment. Commercial adds monthly payment and LTV rows.
 */
export function compareRows(loanType: LoanType): CompareRow[] {
  const rows: CompareRow[] = [
    {
      label: 'Gross Loan',
      field: 'grossLoan',
      format: 'currency',
      best: 'max',
      mark: 'Best',
      glossary: 'grossLoan',
    },
    {
      label: 'Net Loan',
      field: 'netLoan',
      format: 'currency',
      best: 'max',
      mark: 'Best',
      glossary: 'netLoan',
    },
    { label: 'Interest Rate', field: 'interestRate', format: 'ratePm', best: 'min', mark: 'Best' },
    {
      label: 'True Monthly Cost',
      field: 'trueMonthlyCost',
      format: 'tmc',
      best: 'min',
      mark: 'Best',
      glossary: 'tmc',
      zeroMeansUnquoted: true,
    },
    {
      label: 'Deposit',
      field: 'deposit',
      format: 'currency',
      best: 'min',
      mark: 'Best',
      glossary: 'deposit',
    },
    {
      label: 'Arrangement Fee',
      field: 'arrangementFee',
      format: 'currency',
      best: 'min',
      mark: 'Best',
      glossary: 'fees',
      zeroMeansUnquoted: true,
    },
    { label: 'Profit', field: 'profit', format: 'currency', best: 'max', mark: 'Best', glossary: 'profit' },
  ];
  // Commercial adds these two rows: Profit stays, as on the other loan types. The product's rule marks
  // the highest monthly payment; a borrower reads 'Best' as cheapest, so that mark says 'Highest'.
  if (loanType === 'commercial') {
    rows.push({
      label: 'Monthly Payment',
      field: 'monthlyPayment',
      format: 'currency',
      best: 'max',
      mark: 'Highest',
      glossary: 'monthlyPayment',
    });
    rows.push({ label: 'LTV', field: 'loanToValue', format: 'percent', best: null, mark: 'Best' });
  }
  return rows;
}

/** What a compared offer's card says it is marked for: 'Best for gross loan, …; highest monthly payment'. */
export function marksSummary(markedRows: readonly CompareRow[]): string {
  const best = markedRows.filter((row) => row.mark === 'Best').map((row) => row.label.toLowerCase());
  const highest = markedRows
    .filter((row) => row.mark === 'Highest')
    .map((row) => `highest ${row.label.toLowerCase()}`);
  if (best.length === 0 && highest.length === 0) return 'No best-value figures';
  const parts = [...(best.length > 0 ? [`Best for ${best.join(', ')}`] : []), ...highest];
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Indexes of the offers holding the best value of a row. Nothing is marked when fewer than two offers
 * carry the figure or when they are all equal, because 'best' would then say nothing.
 */
export function bestValueIndexes(values: ReadonlyArray<number | null>, best: 'min' | 'max' | null): number[] {
  if (!best) return [];
  const present = values.filter((value): value is number => value !== null);
  if (present.length < 2) return [];
  const target = best === 'min' ? Math.min(...present) : Math.max(...present);
  if (present.every((value) => value === target)) return [];
  return values.flatMap((value, index) => (value === target ? [index] : []));
}

/** The values of one row across the compared offers, with unquoted zeros left out of the ranking. */
export function rowValues(row: CompareRow, offers: readonly LoanOffer[]): Array<number | null> {
  return offers.map((offer) => {
    const value = offer[row.field];
    return row.zeroMeansUnquoted && value === 0 ? null : value;
  });
}
