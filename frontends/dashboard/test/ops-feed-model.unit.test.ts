import type { EventEnvelope } from '@lsp/contracts';
import {
  FEED_HELD_LIMIT,
  FEED_ROW_LIMIT,
  type FeedRow,
  type FeedState,
  feedReducer,
  initialFeedState,
  matchesTypes,
  parseEnvelope,
  parseTypeFilter,
  rateSeries,
  streamUrl,
} from '../src/operations/feed-model';

const envelope = (n: number, type = 'dip.created'): EventEnvelope => ({
  specversion: '1.0',
  id: `event-${n}`,
  type,
  source: '/services/dip',
  time: new Date(Date.UTC(2026, 10, 23, 10, 0, n)).toISOString(),
  subject: `dip-${n}`,
  dataschema: 'x',
  datacontenttype: 'application/json',
  data: { n },
});
const row = (n: number, type?: string): FeedRow => ({ position: `p-${n}`, envelope: envelope(n, type) });
const positions = (state: FeedState) => state.rows.map((r) => r.position);

describe('the live feed model', () => {
  it('reads a type filter as prefixes, commas or spaces, without blanks or repeats', () => {
    expect(parseTypeFilter(' dip., search.completed  dip.,,')).toEqual(['dip.', 'search.completed']);
    expect(parseTypeFilter('')).toEqual([]);
    expect(matchesTypes('dip.created', ['share.', 'dip.'])).toBe(true);
    expect(matchesTypes('search.completed', ['dip.'])).toBe(false);
    expect(matchesTypes('anything', [])).toBe(true);
  });

  it('keeps rows newest first, without repeats, and at most FEED_ROW_LIMIT', () => {
    let state = feedReducer(initialFeedState, { kind: 'received', rows: [row(1), row(2)] });
    state = feedReducer(state, { kind: 'received', rows: [row(2), row(3)] });
    expect(positions(state)).toEqual(['p-3', 'p-2', 'p-1']);
    const many = Array.from({ length: FEED_ROW_LIMIT + 20 }, (_, i) => row(i + 10));
    state = feedReducer(state, { kind: 'received', rows: many });
    expect(state.rows).toHaveLength(FEED_ROW_LIMIT);
    expect(state.rows[0]!.position).toBe(`p-${FEED_ROW_LIMIT + 29}`);
  });

  it('holds what arrives while paused, shows it on resume, and counts what a full hold lets go', () => {
    let state = feedReducer(initialFeedState, { kind: 'received', rows: [row(1)] });
    state = feedReducer(state, { kind: 'pause' });
    state = feedReducer(state, { kind: 'received', rows: [row(2), row(3)] });
    expect(positions(state)).toEqual(['p-1']);
    expect(state.held.map((r) => r.position)).toEqual(['p-3', 'p-2']);
    state = feedReducer(state, { kind: 'resume' });
    expect(positions(state)).toEqual(['p-3', 'p-2', 'p-1']);
    expect(state.paused).toBe(false);

    state = feedReducer(state, { kind: 'pause' });
    const flood = Array.from({ length: FEED_HELD_LIMIT + 7 }, (_, i) => row(i + 100));
    state = feedReducer(state, { kind: 'received', rows: flood });
    expect(state.held).toHaveLength(FEED_HELD_LIMIT);
    expect(state.heldOverflow).toBe(7);
    expect(feedReducer(state, { kind: 'clear' })).toMatchObject({ rows: [], held: [], heldOverflow: 0 });
  });

  it('builds the stream URL with repeated types and the resume position', () => {
    expect(streamUrl([])).toBe('/api/ops/events/stream');
    expect(streamUrl(['dip.', 'share.viewed'], '1732356000000-0')).toBe(
      '/api/ops/events/stream?type=dip.&type=share.viewed&lastEventId=1732356000000-0',
    );
  });

  it('accepts only envelopes from the stream, never throwing', () => {
    expect(parseEnvelope(JSON.stringify(envelope(1)))?.id).toBe('event-1');
    expect(parseEnvelope('not json')).toBeNull();
    expect(parseEnvelope('null')).toBeNull();
    expect(parseEnvelope(JSON.stringify({ id: 'x' }))).toBeNull();
  });

  it('turns rate buckets into events per second per type, the busiest first and the rest as other', () => {
    const now = Date.UTC(2026, 10, 23, 10, 1, 0);
    const buckets: Array<{ at: string; counts: Record<string, number> }> = [
      { at: new Date(now - 20_000).toISOString(), counts: { 'dip.created': 20, 'share.viewed': 5, rare: 1 } },
      { at: new Date(now - 5_000).toISOString(), counts: { 'dip.created': 10 } },
    ];
    const series = rateSeries(buckets, 10, now, 2);
    expect(series.map((s) => s.type)).toEqual(['dip.created', 'share.viewed', 'other']);
    // The newest bucket has run 5 s of its 10: 10 events over 5 s.
    expect(series[0]).toMatchObject({ perSecond: [2, 2], latest: 2, peak: 2 });
    expect(series[2]).toMatchObject({ perSecond: [0.1, 0] });
  });
});
