// The live feed's connection: one EventSource on /api/ops/events/stream for the chosen type
// prefixes. The browser reconnects by itself and sends Last-Event-ID, so a dropped connection resumes
// without a gap; when the browser gives up (an HTTP error closes an EventSource for good) this hook
// asks /api/ops/health why: 403 shows the 403 page, 401 goes to login, otherwise it reopens after a
// growing pause (1 s doubling, 30 s at most) with ?lastEventId= the last position it saw. Events are
// handed over in batches every 250 ms, so a busy bus re-renders the table four times a second at most.
import type { OpsFeedDropped } from '@lsp/contracts';
import { useEffect, useRef, useState } from 'react';
import type { FeedRow } from './feed-model';
import { parseEnvelope, streamUrl } from './feed-model';
import { probeAccess } from './ops-api';

export type FeedConnection = 'connecting' | 'live' | 'reconnecting' | 'forbidden';

export const FEED_FLUSH_MS = 250;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

export interface FeedStatus {
  connection: FeedConnection;
  /** Events the server dropped for this viewer because it fell behind (since the page opened). */
  dropped: number;
}

export function useEventFeed(types: readonly string[], onRows: (rows: FeedRow[]) => void): FeedStatus {
  const [connection, setConnection] = useState<FeedConnection>('connecting');
  const [dropped, setDropped] = useState(0);
  const onRowsRef = useRef(onRows);
  onRowsRef.current = onRows;
  const key = types.join('\n');

  useEffect(() => {
    const prefixes = key ? key.split('\n') : [];
    let source: EventSource | null = null;
    let lastPosition: string | null = null;
    let pending: FeedRow[] = [];
    let retryMs = RETRY_FIRST_MS;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // Drops reported by earlier connections of this filter; each connection counts from zero.
    let droppedBefore = 0;
    let droppedNow = 0;

    const flush = setInterval(() => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      onRowsRef.current(batch);
    }, FEED_FLUSH_MS);

    const open = () => {
      if (stopped) return;
      setConnection((c) => (c === 'live' ? 'reconnecting' : c));
      const es = new EventSource(streamUrl(prefixes, lastPosition));
      source = es;
      droppedBefore += droppedNow;
      droppedNow = 0;
      es.onopen = () => {
        retryMs = RETRY_FIRST_MS;
        setConnection('live');
      };
      es.onmessage = (message: MessageEvent<string>) => {
        const envelope = parseEnvelope(message.data);
        if (!envelope) return;
        const position = message.lastEventId || envelope.id;
        lastPosition = position;
        pending.push({ position, envelope });
      };
      es.addEventListener('dropped', (message) => {
        try {
          const body = JSON.parse((message as MessageEvent<string>).data) as OpsFeedDropped;
          droppedNow = body.totalDropped;
          setDropped(droppedBefore + droppedNow);
        } catch {
          // A malformed notice is ignored; the next one carries the running total again.
        }
      });
      es.onerror = () => {
        if (es.readyState === EventSource.CONNECTING) {
          setConnection('reconnecting');
          return;
        }
        es.close();
        setConnection('reconnecting');
        void probeAccess().then((access) => {
          if (stopped) return;
          if (access === 'forbidden') {
            setConnection('forbidden');
            return;
          }
          retryTimer = setTimeout(open, retryMs);
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        });
      };
    };

    setConnection('connecting');
    setDropped(0);
    open();
    return () => {
      stopped = true;
      clearInterval(flush);
      clearTimeout(retryTimer);
      source?.close();
      // What this connection had not yet handed over belongs to the filter being left: dropped, or it
      // would land in the table after the page cleared it for the new filter.
      pending = [];
    };
  }, [key]);

  return { connection, dropped };
}
