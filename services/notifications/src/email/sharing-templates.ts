import { DASH, NAME_FORBIDDEN_CHARACTERS, formatUkDate } from '@lsp/contracts';
import { escapeHtml } from '@lsp/service-kit';
import { P, SMALL, frame, linkBlock } from './layout';
import type { RenderedEmail } from './templates';

/** The emails a person receives because someone shared with or invited them. */
export type SharingEmailTemplate = 'dip-shared' | 'deal-shared' | 'referral-invitation';

export interface SharingEmailInput {
  template: SharingEmailTemplate;
  senderName: string;
  message: string | null;
  link: string;
  /** DIP shares: the quote code and when the DIP expires; deal shares: the lender. */
  quoteCode?: string | null;
  lenderName?: string | null;
  expiresAt?: string | null;
}

/**
 * The sender as the subject and the text name them. Names are refused with control or text-direction
 * characters; one stored before that rule has them removed here, so no name can break or reverse a line.
 */
const sender = (name: string) =>
  name.replace(new RegExp(NAME_FORBIDDEN_CHARACTERS.source, 'gu'), '').trim() || 'Someone';

function expiryText(expiresAt: string | null | undefined): string | null {
  if (!expiresAt) return null;
  const text = formatUkDate(expiresAt, 'long-time');
  return text === DASH ? null : text;
}

function content(input: SharingEmailInput) {
  const from = sender(input.senderName);
  switch (input.template) {
    case 'dip-shared': {
      const until = expiryText(input.expiresAt);
      return {
        subject: `${from} shared a Decision in Principle with you`,
        heading: 'A Decision in Principle has been shared with you',
        intro: `${from} has shared a Decision in Principle${input.quoteCode ? ` (quote code ${input.quoteCode})` : ''} with you. Sign in with this email address to view it.`,
        button: 'View the DIP',
        footer: `${until ? `The link works until ${until}. ` : ''}It opens only for this email address. If you were not expecting it, you can ignore this email.`,
      };
    }
    case 'deal-shared':
      return {
        subject: `${from} sent you a loan deal`,
        heading: 'A loan deal has been shared with you',
        intro: `${from} thought you would be interested in this ${input.lenderName ? `${input.lenderName} ` : ''}loan offer.`,
        button: 'View the deal',
        footer:
          'Create a free account from the deal page to run your own search. If you were not expecting this, you can ignore this email.',
      };
    case 'referral-invitation':
      return {
        subject: `${from} invited you to LoanSearch UK`,
        heading: `${from} invited you to LoanSearch UK`,
        intro: `${from} uses LoanSearch UK to compare development, bridging and commercial loans from a panel of UK lenders, and thinks you would find it useful.`,
        button: 'Create your free account',
        footer: 'If you were not expecting this invitation, you can ignore this email.',
      };
    default:
      throw new Error(`unknown sharing email template ${String(input.template)}`);
  }
}

/** Plain text and HTML with the sender's name, their message and the link; every value is escaped. */
export function sharingEmail(input: SharingEmailInput): RenderedEmail {
  const c = content(input);
  const message = input.message?.trim() || null;
  const text = [
    c.intro,
    ...(message ? ['', `Message from ${sender(input.senderName)}:`, message] : []),
    '',
    `${c.button}: ${input.link}`,
    '',
    c.footer,
  ].join('\n');
  const quote = message
    ? `<p style="font-size:14px;color:#5b6b82;margin:20px 0 4px">Message from ${escapeHtml(sender(input.senderName))}:</p>
<blockquote style="margin:0;padding:12px 16px;border-left:4px solid #1d4ed8;background:#f4f6fa;font-size:16px;line-height:1.5;white-space:pre-wrap">${escapeHtml(message)}</blockquote>`
    : '';
  const html = frame(
    c.heading,
    `<p style="${P}">${escapeHtml(c.intro)}</p>
${quote}
${linkBlock(input.link, c.button)}
<p style="${SMALL}">${escapeHtml(c.footer)}</p>`,
  );
  return { subject: c.subject, html, text };
}
