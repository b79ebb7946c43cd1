// What the console shows of an event or a job. Links inside events are capabilities: a verification
// or password-reset token in the query, a signed share link's email and signature, a shared deal's
// token in the path. Whoever watches the feed must not be able to use them, so every link loses its
// query, a deal token is masked, and fields named like secrets are replaced. The events on the bus,
// and the dead letters a replay republishes, stay exactly as published.
import type { EventEnvelope } from '@lsp/contracts';

export const REDACTED = '[redacted]';
const SECRET_KEY = /token|secret|password|signature|^sig$/i;
const CAPABILITY_SEGMENT = /(\/shared-deal\/)[^/?#]+/;
/** Deeper than any event; beyond it a value is shown as redacted rather than walked. */
const MAX_DEPTH = 20;

function redactLink(text: string): string {
  try {
    const url = new URL(text);
    const path = url.pathname.replace(CAPABILITY_SEGMENT, `$1${REDACTED}`);
    return `${url.origin}${path}${url.search ? '?…' : ''}`;
  } catch {
    return text;
  }
}

/** A copy of `value` with links cut to origin and path and secret-named fields replaced. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return /^https?:\/\//i.test(value) ? redactLink(value) : value;
  if (!value || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    out[key] =
      SECRET_KEY.test(key) && item !== null && typeof item !== 'object'
        ? REDACTED
        : redactValue(item, depth + 1);
  }
  return out;
}

/** The envelope as the console shows it: the same headers, the data redacted. */
export function displayedEnvelope(envelope: EventEnvelope): EventEnvelope {
  return { ...envelope, data: redactValue(envelope.data) };
}
