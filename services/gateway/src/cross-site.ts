import type { IncomingHttpHeaders } from 'node:http';

/**
 * Cross-site request forgery, refused at the edge for every state-changing call (ASVS 4.2.2, 50.4).
 * The session cookie is SameSite=Lax already; this is the second line, for browsers or paths where
 * Lax does not hold (a sibling subdomain is same-site, a top-level POST within two minutes of a
 * cookie being set in some browsers):
 * - a browser's `Sec-Fetch-Site` must say `same-origin` (or `none`: typed or bookmarked);
 * - an `Origin`, when sent, must be this site (the public URL, or the host the request came to);
 * - a body must be JSON, which a cross-site form cannot send without a CORS preflight that the
 *   gateway never grants. The one exception is the alert emails' unsubscribe URL: mail providers
 *   post RFC 8058's one-click form (`List-Unsubscribe=One-Click`) to it, and what it does is
 *   authorised by the signed token in its URL, not by a session a forged form could borrow.
 * Clients that are not browsers send neither header and are unaffected.
 */
export const CROSS_SITE_MESSAGE = 'Cross-site request refused';
export const JSON_ONLY_MESSAGE = 'Request bodies must be JSON (Content-Type: application/json)';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Paths that take a form-encoded body (their query's signed token is what authorises them). */
const FORM_BODY_PATHS = new Set(['/api/alerts/unsubscribe']);
const TRUSTED_FETCH_SITES = new Set(['same-origin', 'none']);

export interface Refusal {
  status: 403 | 415;
  message: string;
  reason: string;
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  return (
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  );
}

const mediaTypeOf = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

function isJson(contentType: string | undefined): boolean {
  const media = mediaTypeOf(contentType);
  return media === 'application/json' || /^application\/[\w.+-]+\+json$/.test(media);
}

function acceptedBody(path: string, contentType: string | undefined): boolean {
  if (isJson(contentType)) return true;
  const pathOnly = path.split('?')[0]!;
  return FORM_BODY_PATHS.has(pathOnly) && mediaTypeOf(contentType) === 'application/x-www-form-urlencoded';
}

function sameSite(origin: string, publicOrigin: string, host: string | undefined): boolean {
  if (origin === publicOrigin) return true;
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Why a request must not reach a service, or null when it may. */
export function crossSiteRefusal(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  publicOrigin: string,
): Refusal | null {
  if (!STATE_CHANGING.has(method)) return null;
  const fetchSite = headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && !TRUSTED_FETCH_SITES.has(fetchSite)) {
    return { status: 403, message: CROSS_SITE_MESSAGE, reason: `sec-fetch-site ${fetchSite}` };
  }
  const origin = headers.origin;
  if (origin !== undefined && !sameSite(origin, publicOrigin, headers.host)) {
    return { status: 403, message: CROSS_SITE_MESSAGE, reason: 'foreign origin' };
  }
  if (hasBody(headers) && !acceptedBody(path, headers['content-type'])) {
    return { status: 415, message: JSON_ONLY_MESSAGE, reason: 'body not JSON' };
  }
  return null;
}
