import {
  type DipProductChangedEvent,
  type RepricedOffer,
  formatCurrency,
  formatInterestAnnual,
} from '@lsp/contracts';
import { escapeHtml } from '@lsp/service-kit';
import { P, SMALL, button, frame } from './layout';
import type { RenderedEmail } from './templates';

/** What an alert email says; every alert shares one layout so they read alike in the inbox. */
interface AlertEmailContent {
  subject: string;
  intro: string;
  lines: string[];
  /** A paragraph after the list, when the alert needs one. */
  note?: string;
  actionLabel: string;
  actionUrl: string;
  footer: string;
  unsubscribeUrl: string;
}

function alertEmail(content: AlertEmailContent): RenderedEmail {
  const { subject, intro, lines, note, actionLabel, footer, unsubscribeUrl } = content;
  const text = [
    intro,
    '',
    ...lines,
    '',
    ...(note === undefined ? [] : [note, '']),
    `${actionLabel}: ${content.actionUrl}`,
    '',
    footer,
    `Stop these emails: ${unsubscribeUrl}`,
  ].join('\n');
  const noteHtml = note === undefined ? '' : `<p style="${P}">${escapeHtml(note)}</p>\n`;
  const html = frame(
    subject,
    `<p style="${P}">${escapeHtml(intro)}</p>
<ul style="font-size:16px;line-height:1.6;padding-left:20px">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
${noteHtml}${button(content.actionUrl, actionLabel)}
<p style="${SMALL}">${escapeHtml(footer)} <a href="${escapeHtml(unsubscribeUrl)}" style="color:#5b6b82">Stop these emails</a>.</p>`,
  );
  return { subject, html, text };
}

/** The email a borrower gets when a lender panel change improves the best offer of a saved search. */
export interface RepricingAlertInput {
  template: 'repricing-alert';
  name: string;
  projectName: string | null;
  bestBefore: RepricedOffer | null;
  bestAfter: RepricedOffer;
  resultsUrl: string;
  unsubscribeUrl: string;
}

const offerLine = (offer: RepricedOffer) =>
  `${offer.lenderName} ${offer.productName}: ${formatCurrency(offer.netLoan)} net at ${formatInterestAnnual(offer.interestRate)} a year`;

export function repricingAlertEmail(input: RepricingAlertInput): RenderedEmail {
  const project = input.projectName?.trim() || 'your saved search';
  const subject = `A better offer for ${project}`;
  const intro = `Hello ${input.name.trim() || 'there'}, the lenders on our panel have changed their terms, and the best offer for ${project} is now better.`;
  const lines = [
    ...(input.bestBefore ? [`Before: ${offerLine(input.bestBefore)}`] : []),
    `Now: ${offerLine(input.bestAfter)}`,
  ];
  const footer =
    'Offers are indicative until a lender issues its terms. You get at most one of these emails each time the lender panel changes.';
  return alertEmail({
    subject,
    intro,
    lines,
    actionLabel: 'See the offers',
    actionUrl: input.resultsUrl,
    footer,
    unsubscribeUrl: input.unsubscribeUrl,
  });
}

/** The email a DIP's owner gets when a lender panel change withdraws or reprices the DIP's product. */
export interface DipProductAlertInput {
  template: 'dip-product-alert';
  name: string;
  dips: DipProductChangedEvent['dips'];
  /** The dashboard's DIPs tab. */
  dashboardUrl: string;
  unsubscribeUrl: string;
}

const CHANGE_WORDS: Record<DipProductChangedEvent['dips'][number]['change'], string> = {
  withdrawn: 'no longer offered',
  repriced: 'now on different terms',
};

const dipLine = (dip: DipProductChangedEvent['dips'][number]) =>
  `DIP ${dip.quoteCode}: ${dip.lenderName} ${dip.productName}, ${CHANGE_WORDS[dip.change]}`;

export function dipProductAlertEmail(input: DipProductAlertInput): RenderedEmail {
  const one = input.dips.length === 1;
  const subject = one
    ? `The lender has changed the product of your DIP ${input.dips[0]!.quoteCode}`
    : 'The lender has changed the product of your DIPs';
  const intro = `Hello ${input.name.trim() || 'there'}, the lender has changed the product of your ${one ? 'Decision in Principle' : 'Decisions in Principle'} since ${one ? 'it was' : 'they were'} issued.`;
  const lines = input.dips.map(dipLine);
  const keeps = `${one ? 'Your DIP keeps its terms' : 'Each DIP keeps its terms'} until it expires: it is a decision in principle as issued. Your dashboard shows ${one ? 'it' : 'them'}, and any new offers for your saved searches.`;
  const footer = 'You get at most one of these emails each time the lender panel changes.';
  return alertEmail({
    subject,
    intro,
    lines,
    note: keeps,
    actionLabel: 'See your DIPs',
    actionUrl: input.dashboardUrl,
    footer,
    unsubscribeUrl: input.unsubscribeUrl,
  });
}
