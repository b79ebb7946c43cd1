/**
 * The gateway routes, rate-limits and forwards by the request path, and the URL it forwards is parsed
 * again (WHATWG rules: `\` becomes `/`, `..` and `%2e%2e` segments are resolved). A path that such a
 * parse would change reaches a different place than the one the gateway checked, so it is refused
 * here, once, before anything else looks at it. Browsers never send such paths.
 */
function holdsControlSpaceOrBackslash(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}
/** Encoded slash, backslash, dot or NUL: each lets a segment turn into a separator or a dot segment later. */
const ENCODED_SEPARATOR_OR_DOT = /%(?:2f|5c|2e|00)/i;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
const PARSE_BASE = 'http://gateway.invalid';

/** Why the path of a request target is refused, or null when it is already in normal form. */
export function unsafePathReason(url: string): string | null {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.startsWith('/')) return 'the path must start with /';
  if (holdsControlSpaceOrBackslash(path)) return 'the path holds a backslash or a control character';
  if (ENCODED_SEPARATOR_OR_DOT.test(path)) return 'the path holds an encoded slash, backslash, dot or NUL';
  if (DOT_SEGMENT.test(path)) return 'the path holds a dot segment';
  if (path.includes('//')) return 'the path holds an empty segment';
  let parsed: string;
  try {
    parsed = new URL(path, PARSE_BASE).pathname;
  } catch {
    return 'the path cannot be parsed';
  }
  return parsed === path ? null : 'the path is not in normal form';
}

export const MALFORMED_PATH_MESSAGE = 'Malformed request path';
