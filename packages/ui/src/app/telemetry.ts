// Share-funnel telemetry: POST /api/telemetry/share-funnel, used by the search and
// dashboard remotes alike. Failures are ignored and never retried (one attempt per event); a failure
// is reported on the console at most once per event name in the spec's 30 s duplicate-failure window.
import { callApi } from './api';
export type FunnelEvent =
  | 'share_link_created'
  | 'share_link_copied'
  | 'share_link_opened'
  | 'share_accepted'
  | 'shared_dip_viewed'
  | 'dip_viewed'
  | 'dip_pdf_downloaded';

const SESSION_KEY = 'shareFunnelSessionId';
/** 'Telemetry duplicate-failure window: 30 s'. */
export const TELEMETRY_DUPLICATE_FAILURE_WINDOW_MS = 30_000;
const lastFailureAt = new Map<FunnelEvent, number>();

/** True when a failure of this event should be reported: the first in its 30 s window. */
export function shouldReportTelemetryFailure(event: FunnelEvent, now = Date.now()): boolean {
  const last = lastFailureAt.get(event);
  if (last !== undefined && now - last < TELEMETRY_DUPLICATE_FAILURE_WINDOW_MS) return false;
  lastFailureAt.set(event, now);
  return true;
}

function reportFailure(event: FunnelEvent, reason: unknown): void {
  if (shouldReportTelemetryFailure(event))
    console.warn(`Share telemetry '${event}' was not recorded`, reason);
}

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
    void callApi(
      'recordShareFunnelEvent',
      {
        body: {
          event,
          ...details,
          timestamp: new Date().toISOString(),
          sessionId: sessionId(),
          correlationId: randomId(),
        },
      },
      { keepalive: true },
    )
      .then((answer) => {
        if (!answer.ok) reportFailure(event, `HTTP ${answer.status}`);
      })
      .catch((err: unknown) => reportFailure(event, err));
  } catch (err) {
    // Telemetry never disturbs the page.
    reportFailure(event, err);
  }
}
