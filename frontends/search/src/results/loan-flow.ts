// Where an offer's gross loan goes: the net loan the borrower receives, the arrangement fee and lender
// costs taken from the advance, and the interest retained or rolled up in it, with the deposit the
// borrower puts in beside it on the same scale. The search engine's definitions: gross = net +
// arrangement fee + other lender costs + interest added to the loan; the exit fee is paid when the
// loan is repaid, so it is no part of the gross loan and is named beside the bars. The interest is
// the offer's own LoanInterest, the figure the breakdown's list shows, whenever it is what the gross
// loan holds. Pure, so the picture and its words agree.
import { formatCurrency } from '@lsp/contracts';
import type { LoanOffer } from '../shared/loan-offer';

export type FlowPart = 'net' | 'fees' | 'interest' | 'deposit';

export interface FlowSegment {
  part: FlowPart;
  label: string;
  amount: number;
  /** Share of the gross loan, in percent (the deposit: of the gross loan too, for scale). */
  percentOfGross: number;
}

export interface LoanFlow {
  gross: number;
  /** Net loan, fees and interest: together the gross loan. */
  loan: FlowSegment[];
  deposit: FlowSegment | null;
  /** The exit fee, paid when the loan is repaid: shown beside the gross loan, not in it. */
  exitFee: number;
  /** The largest bar, for a common scale. */
  scale: number;
  /** The picture in words (the SVG's text alternative). */
  description: string;
}

const positive = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

const percent = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

/** Null when the offer lacks a gross or net loan (or they contradict each other): then no picture. */
export function loanFlow(offer: LoanOffer): LoanFlow | null {
  const gross = positive(offer.grossLoan);
  const net = positive(offer.netLoan);
  if (gross === 0 || net === 0 || net > gross) return null;
  const fees = Math.min(positive(offer.arrangementFee) + positive(offer.otherLenderCosts), gross - net);
  // What is left of the gross loan once the net loan and fees are out is the interest added to the
  // loan (and any lender cost the offer does not itemise). When the offer's LoanInterest is that
  // amount (to the pound, as each figure is rounded on its own), the picture shows LoanInterest itself.
  const rest = Math.max(0, gross - net - fees);
  const itemisedInterest = positive(offer.loanInterest);
  const interestKnown = offer.loanInterest !== null && Math.abs(itemisedInterest - rest) <= 2;
  const interest = interestKnown ? itemisedInterest : rest;
  const loan: FlowSegment[] = [
    { part: 'net', label: 'Net loan', amount: net, percentOfGross: percent(net, gross) },
    { part: 'fees', label: 'Arrangement fee and costs', amount: fees, percentOfGross: percent(fees, gross) },
    {
      part: 'interest',
      label: interestKnown ? 'Interest' : 'Interest and other lender costs',
      amount: interest,
      percentOfGross: percent(interest, gross),
    },
  ].filter((s) => s.part === 'net' || s.amount > 0) as FlowSegment[];
  const depositAmount = positive(offer.deposit);
  const deposit: FlowSegment | null =
    depositAmount > 0
      ? {
          part: 'deposit',
          label: 'Your deposit',
          amount: depositAmount,
          percentOfGross: percent(depositAmount, gross),
        }
      : null;
  const parts = loan
    .map((s) => `${s.label.toLowerCase()} ${formatCurrency(s.amount)} (${s.percentOfGross.toFixed(1)}%)`)
    .join(', ');
  const exitFee = positive(offer.exitFee);
  const description =
    `Gross loan ${formatCurrency(gross)}: ${parts}.` +
    (exitFee > 0 ? ` Exit fee ${formatCurrency(exitFee)}, paid when the loan is repaid.` : '') +
    (deposit ? ` Your deposit, beside it: ${formatCurrency(deposit.amount)}.` : '');
  return { gross, loan, deposit, exitFee, scale: Math.max(gross, depositAmount), description };
}
