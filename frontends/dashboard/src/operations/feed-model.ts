// The live feed's state, kept apart from React so its rules are unit-tested: events arrive in
// batches, are kept newest first and de-duplicated by feed position, a cap bounds memory, and while
// paused they are held (not shown) until Resume. The type filter is a list of prefixes.
import type { EventEnvelope } from '@lsp/contracts';

export interface FeedRow {
  /** The feed position (the SSE `id`); opaque, compared only for equality. */
  position: string;
  envelope: EventEnvelope;
}

/** Rows kept for the table (newest first); older ones fall off. */
export const FEED_ROW_LIMIT = 500;
/** Events held while paused; beyond this the oldest held ones are let go and counted. */
export const FEED_HELD_LIMIT = 5000;

export interface FeedState {
  rows: FeedRow[];
  held: FeedRow[];
  paused: boolean;
  /** Held events let go because the hold was full (shown, so nothing vanishes silently). */
  heldOverflow: number;
}

export const initialFeedState: FeedState = { rows: [], held: [], paused: false, heldOverflow: 0 };

export type FeedAction =
  { kind: 'received'; rows: FeedRow[] } | { kind: 'pause' } | { kind: 'resume' } | { kind: 'clear' };

/** 'dip., search.completed' → ['dip.', 'search.completed']: commas or spaces, blanks and repeats dropped. */
export function parseTypeFilter(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((part) => part !== ''))];
}

/** An event type passes when there is no filter or it starts with any of the prefixes. */
export function matchesTypes(type: string, prefixes: readonly string[]): boolean {
  return prefixes.length === 0 || prefixes.some((prefix) => type.startsWith(prefix));
}

/** Newest first by event time; rows of equal time keep the order they are given in. */
function newestFirst(rows: FeedRow[]): FeedRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) =>
      a.row.envelope.time === b.row.envelope.time
        ? a.index - b.index
        : a.row.envelope.time < b.row.envelope.time
          ? 1
          : -1,
    )
    .map(({ row }) => row);
}

/** Puts `incoming` (in arrival order, oldest first) in front of `existing` (newest first), without repeats. */
function merge(existing: FeedRow[], incoming: FeedRow[], known: Set<string>): FeedRow[] {
  const fresh: FeedRow[] = [];
  for (const row of incoming) {
    if (known.has(row.position)) continue;
    known.add(row.position);
    fresh.push(row);
  }
  if (fresh.length === 0) return existing;
  return newestFirst([...fresh.reverse(), ...existing]);
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.kind) {
    case 'received': {
      const known = new Set([...state.rows, ...state.held].map((row) => row.position));
      if (!state.paused) {
        const rows = merge(state.rows, action.rows, known);
        return rows === state.rows ? state : { ...state, rows: rows.slice(0, FEED_ROW_LIMIT) };
      }
      const held = merge(state.held, action.rows, known);
      if (held === state.held) return state;
      const overflow = Math.max(0, held.length - FEED_HELD_LIMIT);
      return {
        ...state,
        held: overflow ? held.slice(0, FEED_HELD_LIMIT) : held,
        heldOverflow: state.heldOverflow + overflow,
      };
    }
    case 'pause':
      return state.paused ? state : { ...state, paused: true };
    case 'resume': {
      const rows = newestFirst([...state.held, ...state.rows]).slice(0, FEED_ROW_LIMIT);
      return { rows, held: [], paused: false, heldOverflow: 0 };
    }
    case 'clear':
      return { ...state, rows: [], held: [], heldOverflow: 0 };
  }
}

/** The stream URL for a set of type prefixes, optionally resuming after a position. */
export function streamUrl(types: readonly string[], lastEventId?: string | null): string {
  const query = new URLSearchParams();
  for (const type of types) query.append('type', type);
  if (lastEventId) query.set('lastEventId', lastEventId);
  const text = query.toString();
  return `/api/ops/events/stream${text ? `?${text}` : ''}`;
}

/** One SSE `data` as an envelope, or null when it is not one (never throws). */
export function parseEnvelope(data: string): EventEnvelope | null {
  try {
    const value = JSON.parse(data) as Partial<EventEnvelope> | null;
    if (!value || typeof value !== 'object') return null;
    if (typeof value.type !== 'string' || typeof value.id !== 'string' || typeof value.time !== 'string')
      return null;
    return value as EventEnvelope;
  } catch {
    return null;
  }
}

/** Events per second per type from the stats buckets: the busiest `top` types, the rest as 'other'. */
export interface RateSeries {
  type: string;
  /** Events per second, one per bucket, oldest first. */
  perSecond: number[];
  latest: number;
  peak: number;
}

export const OTHER_TYPES = 'other';

export function rateSeries(
  buckets: ReadonlyArray<{ at: string; counts: Record<string, number> }>,
  bucketSeconds: number,
  now: number,
  top = 6,
): RateSeries[] {
  // The newest bucket is still filling: its rate is over the seconds it has run, not its width.
  const seconds = buckets.map((bucket) => {
    const elapsed = (now - Date.parse(bucket.at)) / 1000;
    return Number.isFinite(elapsed) ? Math.min(bucketSeconds, Math.max(1, elapsed)) : bucketSeconds;
  });
  const totals = new Map<string, number>();
  for (const bucket of buckets)
    for (const [type, count] of Object.entries(bucket.counts))
      totals.set(type, (totals.get(type) ?? 0) + count);
  const ranked = [...totals.entries()]
    .filter(([, total]) => total > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([type]) => type);
  const shown = ranked.slice(0, top);
  const rest = new Set(ranked.slice(top));
  const names = rest.size ? [...shown, OTHER_TYPES] : shown;
  return names.map((type) => {
    const perSecond = buckets.map((bucket, index) => {
      const count =
        type === OTHER_TYPES
          ? Object.entries(bucket.counts).reduce((sum, [t, n]) => (rest.has(t) ? sum + n : sum), 0)
          : (bucket.counts[type] ?? 0);
      return Math.round((count / seconds[index]) * 100) / 100;
    });
    return {
      type,
      perSecond,
      latest: perSecond[perSecond.length - 1] ?? 0,
      peak: Math.max(0, ...perSecond),
    };
  });
}
