// The key names and the session event live in @lsp/contracts alone (STORAGE_KEYS is imported from
// there, not from here); the constants module is imported by itself so this package does not pull in
// the zod schemas.
import { LEGACY_STORAGE_KEYS, USER_SESSION_CHANGED_EVENT } from '@lsp/contracts/src/common/constants';

/** Dispatched on window one second after login when pending loan results are waiting in storage. */
export const PENDING_RESULTS_EVENT = 'pendingLoanResultsReady';

/** Dispatches USER_SESSION_CHANGED_EVENT on window: after login, logout or anything else that changes who is signed in. */
export function notifySessionChanged(): void {
  window.dispatchEvent(new Event(USER_SESSION_CHANGED_EVENT));
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

/** Removes the keys older versions of the site left behind (on sign-out), so nothing outlives the session. */
export function clearLegacySessionKeys(): void {
  try {
    for (const key of LEGACY_STORAGE_KEYS) window.localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing to clear.
  }
}
