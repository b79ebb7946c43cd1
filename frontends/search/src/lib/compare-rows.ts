import type { LoanType } from './loan-type';
import type { LoanOffer } from './loan-offer';

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
    { label: 'Gross Loan', field: 'grossLoan', format: 'currency', best: 'max', glossary: 'grossLoan' },
    { label: 'Net Loan', field: 'netLoan', format: 'currency', best: 'max', glossary: 'netLoan' },
    { label: 'Interest Rate', field: 'interestRate', format: 'ratePm', best: 'min' },
    {
      label: 'True Monthly Cost',
      field: 'trueMonthlyCost',
      format: 'tmc',
      best: 'min',
      glossary: 'tmc',
      zeroMeansUnquoted: true,
    },
    { label: 'Deposit', field: 'deposit', format: 'currency', best: 'min', glossary: 'deposit' },
    {
      label: 'Arrangement Fee',
      field: 'arrangementFee',
      format: 'currency',
      best: 'min',
      glossary: 'fees',
      zeroMeansUnquoted: true,
    },
    { label: 'Profit', field: 'profit', format: 'currency', best: 'max', glossary: 'profit' },
  ];
  // Commercial adds these two rows (spec §2): Profit stays, as on the other loan types.
  if (loanType === 'commercial') {
    rows.push({
      label: 'Monthly Payment',
      field: 'monthlyPayment',
      format: 'currency',
      best: 'max',
      glossary: 'monthlyPayment',
    });
    rows.push({ label: 'LTV', field: 'loanToValue', format: 'percent', best: null });
  }
  return rows;
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
