// Share-funnel telemetry (spec §3, §7): POST /api/telemetry/share-funnel; failures are ignored, and
// a burst of failures is not retried (one attempt per event).
type FunnelEvent =
  | 'share_link_created'
  | 'share_link_copied'
  | 'share_link_opened'
  | 'share_accepted'
  | 'shared_dip_viewed'
  | 'dip_viewed'
  | 'dip_pdf_downloaded';

const SESSION_KEY = 'shareFunnelSessionId';

function randomId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function sessionId(): string {
  try {
    const known = sessionStorage.getItem(SESSION_KEY);
    if (known) return known;
    const made = randomId();
    sessionStorage.setItem(SESSION_KEY, made);
    return made;
  } catch {
    return randomId();
  }
}

export function trackShareFunnel(
  event: FunnelEvent,
  details: {
    dipId?: string | null;
    shareId?: string | null;
    context?: 'owner' | 'shared';
    duration?: number;
    metadata?: Record<string, unknown>;
  } = {},
): void {
  try {
    void fetch('/api/telemetry/share-funnel', {
      method: 'POST',
      credentials: 'include',
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        event,
        ...details,
        timestamp: new Date().toISOString(),
        sessionId: sessionId(),
        correlationId: randomId(),
      }),
    }).catch(() => undefined);
  } catch {
    // telemetry never disturbs the page
  }
}
