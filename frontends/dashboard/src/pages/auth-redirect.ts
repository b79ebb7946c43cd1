// Auth errors in DIP views: the current path is kept as the post-auth redirect and the
// browser goes to /login; for /dip/ paths the login's next is the dashboard's shared tab.
import { STORAGE_KEYS } from '@lsp/contracts';

export function sendToLogin(): void {
  const here = window.location.pathname + window.location.search;
  try {
    localStorage.setItem(STORAGE_KEYS.postAuthRedirect, here);
  } catch {
    // storage refused: the login's next still brings the user back
  }
  const next = window.location.pathname.startsWith('/dip/') ? '/dashboard?tab=shared&shared=1' : here;
  window.location.assign(`/login?next=${encodeURIComponent(next)}`);
}

/** Long enough to read 'Login required' before the browser leaves for /login. */
export const LOGIN_TOAST_READ_MS = 1500;

/** An owner's action met a 401: the toast says 'Login required', then the browser goes to /login. */
export function sendToLoginAfterToast(): void {
  window.setTimeout(sendToLogin, LOGIN_TOAST_READ_MS);
}
