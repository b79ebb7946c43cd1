import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';

export type HighlightKind =
  | 'lowestDeposit'
  | 'highestNetLoan'
  | 'highestGrossLoan'
  | 'lowestInterestRate'
  | 'lowestMonthlyPayment'
  | 'maximumProfit';

export interface Highlight {
  kind: HighlightKind;
  title: string;
  offer: LoanOffer;
  /** The offer's value the card is about. */
  value: number;
}

type Field = 'deposit' | 'netLoan' | 'grossLoan' | 'interestRate' | 'monthlyPayment' | 'profit';

function pick(
  offers: readonly LoanOffer[],
  field: Field,
  best: 'min' | 'max',
): { offer: LoanOffer; value: number } | null {
  let chosen: { offer: LoanOffer; value: number } | null = null;
  for (const offer of offers) {
    const value = offer[field];
    if (value === null) continue;
    // Strict comparison keeps the first offer on ties, so the card does not jump between equal lenders.
    if (!chosen || (best === 'min' ? value < chosen.value : value > chosen.value)) chosen = { offer, value };
  }
  return chosen;
}

/**
 * The four 'Top Loan Highlights': lowest deposit; highest net loan (commercial) or highest gross loan;
 * lowest interest rate; lowest monthly payment (commercial) or maximum profit. A card whose figure no
 * offer carries is left out.
 */
export function selectHighlights(offers: readonly LoanOffer[], loanType: LoanType): Highlight[] {
  const commercial = loanType === 'commercial';
  const specs: Array<{ kind: HighlightKind; title: string; field: Field; best: 'min' | 'max' }> = [
    { kind: 'lowestDeposit', title: 'Lowest Deposit', field: 'deposit', best: 'min' },
    commercial
      ? { kind: 'highestNetLoan', title: 'Highest Net Loan', field: 'netLoan', best: 'max' }
      : { kind: 'highestGrossLoan', title: 'Highest Gross Loan', field: 'grossLoan', best: 'max' },
    { kind: 'lowestInterestRate', title: 'Lowest Interest Rate', field: 'interestRate', best: 'min' },
    commercial
      ? {
          kind: 'lowestMonthlyPayment',
          title: 'Lowest Monthly Payment',
          field: 'monthlyPayment',
          best: 'min',
        }
      : { kind: 'maximumProfit', title: 'Maximum Profit', field: 'profit', best: 'max' },
  ];
  const highlights: Highlight[] = [];
  for (const spec of specs) {
    const chosen = pick(offers, spec.field, spec.best);
    if (chosen) highlights.push({ kind: spec.kind, title: spec.title, ...chosen });
  }
  return highlights;
}
