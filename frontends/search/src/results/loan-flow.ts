// Where an offer's gross loan goes (issue 24 item 22): the net loan the borrower receives, the lender's
// fees (arrangement, exit, other costs) and the interest retained from it, with the deposit the
// borrower puts in beside it on the same scale. Pure, so the picture and its words agree.
import { formatCurrency } from '@lsp/contracts';
import type { LoanOffer } from '../lib/loan-offer';

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
  const fees = Math.min(
    positive(offer.arrangementFee) + positive(offer.exitFee) + positive(offer.otherLenderCosts),
    gross - net,
  );
  // What is left of the gross loan once the net loan and fees are out is the interest retained (and
  // any lender cost the offer does not itemise); an itemised LoanInterest says how much is interest.
  const rest = Math.max(0, gross - net - fees);
  const interestKnown = offer.loanInterest !== null && Math.abs(positive(offer.loanInterest) - rest) < 1;
  const loan: FlowSegment[] = [
    { part: 'net', label: 'Net loan', amount: net, percentOfGross: percent(net, gross) },
    { part: 'fees', label: 'Fees', amount: fees, percentOfGross: percent(fees, gross) },
    {
      part: 'interest',
      label: interestKnown ? 'Interest' : 'Interest and other lender costs',
      amount: rest,
      percentOfGross: percent(rest, gross),
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
  const description =
    `Gross loan ${formatCurrency(gross)}: ${parts}.` +
    (deposit ? ` Your deposit, beside it: ${formatCurrency(deposit.amount)}.` : '');
  return { gross, loan, deposit, scale: Math.max(gross, depositAmount), description };
}
