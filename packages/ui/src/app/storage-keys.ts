/** Browser storage keys and window events the shell and the remotes agree on (spec §3). */
export const STORAGE_KEYS = {
  userSession: 'userSession',
  currentUser: 'currentUser',
  pendingLoanResults: 'pendingLoanResults',
  leadInfoCaptured: 'leadInfoCaptured',
  pendingApplication: 'pendingApplication',
  selectedLoan: 'selectedLoan',
  searchFormData: 'searchFormData',
  pendingDipSlug: 'pendingDipSlug',
  postAuthRedirect: 'postAuthRedirect',
  signupReferralToken: 'signupReferralToken',
} as const;

/** Per loan type: `loan-search-history-development` and so on. */
export const searchHistoryKey = (searchType: string) => `loan-search-history-${searchType}`;

/** Dispatched on window after login, logout or anything else that changes who is signed in. */
export const USER_SESSION_CHANGED = 'userSessionChanged';

/** Dispatched on window one second after login when pending loan results are waiting in storage. */
export const PENDING_RESULTS_EVENT = 'pendingLoanResultsReady';

export function notifySessionChanged(): void {
  window.dispatchEvent(new Event(USER_SESSION_CHANGED));
}

/** Reads JSON from localStorage; anything missing or unreadable is null. */
export function readStoredJson<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** Keys older versions of the site left behind; removed on sign-out so nothing outlives the session. */
export const LEGACY_SESSION_KEYS = [
  'userSession',
  'authToken',
  'user',
  'pendingLoanResults',
  'pendingDipSlug',
] as const;

export function clearLegacySessionKeys(): void {
  try {
    for (const key of LEGACY_SESSION_KEYS) window.localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing to clear.
  }
}
