// What the DIP views say about a DIP's state, validity and terms: pure rules, so the same words are
// used on every page and unit-tested without a browser.

/** What the auth gate of the dashboard's signed-in pages says while the session is checked. */
export const AUTH_GATE_LABEL = 'Checking authentication...';

/** A DIP in its owner's list: Valid, Expired (by its expiry) or Revoked (the owner withdrew its link). */
export type OwnerDipState = 'valid' | 'expired' | 'revoked';

export function ownerDipState(dip: { isExpired: boolean; status?: string }): OwnerDipState {
  if (dip.isExpired) return 'expired';
  return dip.status === 'revoked' ? 'revoked' : 'valid';
}

/** Copy Link hands out the open link, which neither an expired DIP nor a withdrawn link has. */
export const canCopyLink = (state: OwnerDipState) => state === 'valid';

/**
 * The New/Viewed badge of a Shared with me item. An expired item can no longer be opened, so it is
 * not waiting to be read: it shows Expired only and, like the unread count, is not counted as new.
 */
export function sharedReadBadge(item: { isViewed: boolean; isExpired: boolean }): 'New' | 'Viewed' | null {
  if (item.isViewed) return 'Viewed';
  return item.isExpired ? null : 'New';
}

/**
 * The validity chip of the online DIP page. Up to two days it counts hours, as the DIP was issued
 * (48 hours by default); beyond, days and hours, with the hours in brackets ("Valid for 30 days
 * (720 hours)"), so a DIP extended by Set Expiry reads sensibly.
 */
export function validityLabel(hoursLeft: number): string {
  const hours = Math.max(0, Math.ceil(hoursLeft));
  if (hours === 0) return 'Expired';
  if (hours <= 48) return `Valid for ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const span = rest === 0 ? `${days} days` : `${days} days ${rest} ${rest === 1 ? 'hour' : 'hours'}`;
  return `Valid for ${span} (${hours} hours)`;
}

/**
 * The mortgage term in years, or null where the loan has none (bridging and development loans are not
 * mortgages): the row is then left out rather than showing a dash.
 */
export function mortgageTermText(years: number | null | undefined): string | null {
  if (years == null || !Number.isFinite(years) || years <= 0) return null;
  return `${years} ${years === 1 ? 'year' : 'years'}`;
}

/** A percentage (13.68) as the fraction the rate helpers take (0.1368); missing stays missing. */
export const percentToFraction = (percent: number | null | undefined): number | null =>
  percent == null || !Number.isFinite(percent) ? null : percent / 100;

/** An owner's action on a DIP's link from the DIP modal, and how it went. */
export type OwnerLinkAction = 'copy' | 'regenerate' | 'extend';
export interface OwnerLinkOutcome {
  /** The server's answer (0 when it could not be reached). */
  status: number;
  ok: boolean;
  error?: string;
  /** Copy Link: the DIP had no open link before, so this one was just made. */
  madeNewLink?: boolean;
  /** Copy Link: the browser refused the clipboard. */
  copyRefused?: boolean;
  /** Set Expiry: the new expiry, already in en-GB. */
  expiresOn?: string;
}

export interface ToastWords {
  title: string;
  description?: string;
  variant: 'success' | 'error';
}

/** The session ended while an owner acted on a DIP: the spec's 'Login required', then /login. */
export const LOGIN_REQUIRED_TOAST: ToastWords = {
  title: 'Login required',
  description: 'Please sign in again to continue.',
  variant: 'error',
};

const FAILED_TITLE: Record<OwnerLinkAction, string> = {
  copy: 'Share creation failed',
  regenerate: 'Regenerate failed',
  extend: 'Extend failed',
};

/** The toast of the DIP modal's link actions, in the words of the spec's share toasts. */
export function ownerLinkToast(action: OwnerLinkAction, outcome: OwnerLinkOutcome): ToastWords {
  if (outcome.status === 401) return LOGIN_REQUIRED_TOAST;
  if (!outcome.ok)
    return {
      title: FAILED_TITLE[action],
      description: outcome.error || 'Something went wrong',
      variant: 'error',
    };
  if (action === 'copy') {
    if (outcome.copyRefused)
      return { title: 'Copy failed', description: 'Could not copy link to clipboard', variant: 'error' };
    return outcome.madeNewLink
      ? { title: 'Share created', description: 'A link to this DIP was made and copied', variant: 'success' }
      : {
          title: 'Link copied',
          description: 'The link to this DIP is on your clipboard',
          variant: 'success',
        };
  }
  if (action === 'regenerate')
    return { title: 'Link regenerated', description: 'Previous link is now invalid', variant: 'success' };
  return {
    title: 'Expiry extended',
    description: outcome.expiresOn ? `This DIP now expires on ${outcome.expiresOn}` : undefined,
    variant: 'success',
  };
}
