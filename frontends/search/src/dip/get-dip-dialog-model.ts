// The Get DIP dialog's state, kept apart from React so its rules are unit-tested: the offer's
// summary until the DIP is created, then the quote code with Copy Link, Download PDF and the share
// form, then the congratulations once the emails went. A failed create or share leaves the dialog as
// it was, so the same button tries again; a failed PDF offers Try again.
import type { CreateDipResponse } from '@lsp/contracts';
import { invalidEmails, splitEmails } from '../shared/recipient-addresses';

/** How long Copy Link reads 'Link Copied' after a copy. */
export const COPIED_STATE_MS = 3000;

export type CreatedDip = Pick<CreateDipResponse, 'dipId' | 'quoteCode' | 'expiresAt'>;

/** The open link the dialog shows when the emails could not be handed on for sending. */
export interface ShareFallback {
  url: string;
  text: string;
}

export type PdfState = 'idle' | 'working' | 'failed';

/** How a PDF download ended: a refusal for want of a session is told in a toast, not as a failure. */
export type PdfOutcome = 'downloaded' | 'sign-in-required' | 'failed';

export interface GetDipState {
  created: CreatedDip | null;
  creating: boolean;
  emails: string;
  message: string;
  emailError: string | null;
  sending: boolean;
  /** The addresses the DIP was emailed to; set once the share went, which ends the dialog. */
  sent: string[] | null;
  fallback: ShareFallback | null;
  copied: boolean;
  pdf: PdfState;
}

export const initialGetDipState: GetDipState = {
  created: null,
  creating: false,
  emails: '',
  message: '',
  emailError: null,
  sending: false,
  sent: null,
  fallback: null,
  copied: false,
  pdf: 'idle',
};

export type GetDipAction =
  | { kind: 'create-started' }
  | { kind: 'create-succeeded'; created: CreatedDip }
  | { kind: 'create-failed' }
  | { kind: 'emails-changed'; emails: string }
  | { kind: 'message-changed'; message: string }
  | { kind: 'share-refused'; emailError: string }
  | { kind: 'share-started' }
  | { kind: 'share-fell-back'; fallback: ShareFallback }
  | { kind: 'share-sent'; recipients: string[] }
  | { kind: 'share-settled' }
  | { kind: 'link-copied' }
  | { kind: 'copied-expired' }
  | { kind: 'pdf-started' }
  | { kind: 'pdf-finished'; outcome: PdfOutcome };

export function getDipReducer(state: GetDipState, action: GetDipAction): GetDipState {
  switch (action.kind) {
    case 'create-started':
      return { ...state, creating: true };
    case 'create-succeeded':
      return { ...state, created: action.created, creating: false };
    case 'create-failed':
      return { ...state, creating: false };
    case 'emails-changed':
      return { ...state, emails: action.emails };
    case 'message-changed':
      return { ...state, message: action.message };
    case 'share-refused':
      return { ...state, emailError: action.emailError };
    // A fallback link shown by an earlier try stays until the emails go.
    case 'share-started':
      return { ...state, emailError: null, sending: true };
    case 'share-fell-back':
      return { ...state, fallback: action.fallback };
    case 'share-sent':
      return { ...state, sent: action.recipients };
    case 'share-settled':
      return { ...state, sending: false };
    case 'link-copied':
      return { ...state, copied: true };
    case 'copied-expired':
      return { ...state, copied: false };
    case 'pdf-started':
      return { ...state, pdf: 'working' };
    case 'pdf-finished':
      return { ...state, pdf: action.outcome === 'failed' ? 'failed' : 'idle' };
  }
}

/** The addresses to share with, or why the share form cannot be sent as typed. */
export function shareRecipients(
  emails: string,
): { ok: true; recipients: string[] } | { ok: false; emailError: string } {
  const recipients = splitEmails(emails);
  if (recipients.length === 0) return { ok: false, emailError: 'No Email Addresses' };
  const invalid = invalidEmails(recipients);
  if (invalid.length) return { ok: false, emailError: `Invalid Email Format: ${invalid.join(', ')}` };
  return { ok: true, recipients };
}

/** The addresses a targeted share reached, in the order they were given. */
export function deliveredTo(results: ReadonlyArray<{ email: string; success: boolean }>): string[] {
  return results.filter((result) => result.success).map((result) => result.email);
}

/** The open link and the words to show with it when the emails could not be handed on. */
export function shareFallback(failure: {
  shareUrl: string;
  userMessage: string;
  error: string;
}): ShareFallback {
  return { url: failure.shareUrl, text: failure.userMessage || failure.error };
}

export type GetDipStep = 'offer' | 'created' | 'shared';

/** Where the dialog is: the offer before the DIP, the DIP and its share form, the congratulations. */
export function getDipStep(state: Pick<GetDipState, 'created' | 'sent'>): GetDipStep {
  if (!state.created) return 'offer';
  return state.sent ? 'shared' : 'created';
}

const TITLES: Record<GetDipStep, string> = {
  offer: 'Get a Decision in Principle',
  created: 'Your Decision in Principle',
  shared: 'Congratulations!',
};

export function getDipTitle(state: Pick<GetDipState, 'created' | 'sent'>): string {
  return TITLES[getDipStep(state)];
}

/** A PDF is asked for once there is a DIP, and not again while one is being prepared. */
export function canDownloadPdf(state: Pick<GetDipState, 'created' | 'pdf'>): boolean {
  return state.created !== null && state.pdf !== 'working';
}

/** Share DIP stays disabled while the address field is blank. */
export function canShare(state: Pick<GetDipState, 'emails'>): boolean {
  return state.emails.trim() !== '';
}
