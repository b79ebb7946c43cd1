import { SESSION_COOKIE } from '@lsp/contracts';
import { type CallerIdentity, identityHeaders } from '@lsp/service-kit';
import type { CookieClient } from './http-client';
import { TEST_SECRETS } from './in-process';

/**
 * How a service's fuzz tests reach it as one signed-in user: straight, with the identity headers the
 * gateway adds (`callers`), and through the gateway as the user's browser (`gateway`): the session
 * cookie, the gateway's own origin, a same-origin fetch.
 */
export function signedInFuzzCallers(
  user: CallerIdentity,
  client: CookieClient,
  gateway: { url: string; config: { PUBLIC_URL: string } },
) {
  const browser = {
    cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}`,
    origin: gateway.config.PUBLIC_URL,
    'sec-fetch-site': 'same-origin',
  };
  return {
    callers: { user: identityHeaders(user, TEST_SECRETS.INTERNAL_SECRET) },
    gateway: { url: gateway.url, callers: { user: browser } },
  };
}
