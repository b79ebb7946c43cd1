// /operations: the console operations staff keep open all day. A live table of every event on the
// bus (pause, filter by type prefix, click into payload, headers and the correlation chain), events
// per second per type over the last ten minutes, the health grid of every process with consumer lag
// and outbox backlog, the BullMQ queues and the dead letters. Only `ops` users get data: the server
// answers 403 to anyone else and this page then says so. The Lender panel page (/operations/panel)
// is linked from the heading.
import { Alert, Badge, Button, Spinner, Tabs, TextField, buttonClass } from '@lsp/ui';
import type { BadgeVariant } from '@lsp/ui';
import type { EventEnvelope } from '@lsp/contracts';
import { OPS_RATE_BUCKET_SECONDS } from '@lsp/contracts';
import { useCallback, useMemo, useReducer, useState } from 'react';
import { Link } from 'react-router-dom';
import { DeadLettersPanel } from './dead-letters-panel';
import { EventDetail } from './event-detail';
import type { FeedRow } from './feed-model';
import { feedReducer, initialFeedState, parseTypeFilter, rateSeries } from './feed-model';
import { clockTime, count, errorText } from './format';
import { ConsumersAndOutboxes, HealthGrid } from './health-panel';
import { isForbidden, useFeedStats, useOpsHealth } from './ops-api';
import { OpsForbidden } from './ops-notices';
import { OpsSection } from './ops-section';
import { QueuesPanel } from './queues-panel';
import { RateChart } from './rate-chart';
import type { FeedConnection } from './use-event-feed';
import { useEventFeed } from './use-event-feed';
import './operations.css';

const CONNECTION_BADGE: Record<FeedConnection, { variant: BadgeVariant; label: string }> = {
  connecting: { variant: 'neutral', label: 'Connecting' },
  live: { variant: 'success', label: 'Live' },
  reconnecting: { variant: 'warning', label: 'Reconnecting' },
  forbidden: { variant: 'danger', label: 'No access' },
};

function LiveFeed({ onOpen }: { onOpen: (row: FeedRow) => void }) {
  const [filterText, setFilterText] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [feed, dispatch] = useReducer(feedReducer, initialFeedState);
  const onRows = useCallback((rows: FeedRow[]) => dispatch({ kind: 'received', rows }), []);
  const status = useEventFeed(types, onRows);
  const badge = CONNECTION_BADGE[status.connection];

  if (status.connection === 'forbidden') return <OpsForbidden />;
  return (
    <section className="ops-section" aria-labelledby="ops-feed-title">
      <div className="ops-section__head">
        <h2 id="ops-feed-title">Live events</h2>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </div>
      <form
        className="ops-toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          setTypes(parseTypeFilter(filterText));
          dispatch({ kind: 'clear' });
        }}
      >
        <TextField
          label="Event types (prefixes, comma-separated)"
          placeholder="dip., search.completed"
          value={filterText}
          onChange={(event) => setFilterText(event.target.value)}
        />
        <Button type="submit" variant="secondary">
          Apply filter
        </Button>
        <Button
          type="button"
          variant={feed.paused ? 'primary' : 'secondary'}
          aria-pressed={feed.paused}
          onClick={() => dispatch({ kind: feed.paused ? 'resume' : 'pause' })}
        >
          {feed.paused ? `Resume (${count(feed.held.length)} waiting)` : 'Pause'}
        </Button>
        <Button type="button" variant="ghost" onClick={() => dispatch({ kind: 'clear' })}>
          Clear
        </Button>
      </form>
      <p className="ui-muted ops-section__meta" aria-live="polite">
        {types.length ? `Showing ${types.join(', ')}` : 'Showing every event type'} ·{' '}
        {count(feed.rows.length)} shown
        {status.dropped > 0 &&
          ` · ${count(status.dropped)} dropped by the server because this view fell behind`}
        {feed.heldOverflow > 0 && ` · ${count(feed.heldOverflow)} let go while paused`}
      </p>
      {feed.rows.length === 0 ? (
        <p className="ui-muted">
          {status.connection === 'live' ? 'Waiting for events...' : 'Connecting to the event stream...'}
        </p>
      ) : (
        <div className="ops-table-wrap" tabIndex={0} aria-label="Live events, newest first">
          <table className="ops-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Type</th>
                <th scope="col">Subject</th>
                <th scope="col">Source</th>
                <th scope="col">Correlation id</th>
              </tr>
            </thead>
            <tbody>
              {feed.rows.map((row) => (
                <tr key={row.position}>
                  <td>{clockTime(row.envelope.time)}</td>
                  <td>
                    <button type="button" className="ops-link" onClick={() => onOpen(row)}>
                      {row.envelope.type}
                    </button>
                  </td>
                  <td className="ops-mono">{row.envelope.subject}</td>
                  <td>{row.envelope.source}</td>
                  <td className="ops-mono">{row.envelope.correlationId ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function EventRates() {
  const stats = useFeedStats(true);
  const series = useMemo(
    () => (stats.data ? rateSeries(stats.data.rate.buckets, stats.data.rate.bucketSeconds, Date.now()) : []),
    [stats.data],
  );
  return (
    <OpsSection titleId="ops-rates-title" title="Events per second">
      {stats.isPending && <Spinner label="Loading the event rates..." />}
      {stats.isError && (
        <Alert variant="danger" title="Could not load the event rates">
          {errorText(stats.error)} (retried every 10 s)
        </Alert>
      )}
      {stats.data && (
        <RateChart
          series={series}
          bucketSeconds={stats.data.rate.bucketSeconds || OPS_RATE_BUCKET_SECONDS}
          bucketStarts={stats.data.rate.buckets.map((bucket) => bucket.at)}
        />
      )}
    </OpsSection>
  );
}

function Health() {
  const health = useOpsHealth();
  if (health.isPending) return <Spinner label="Loading the health of every process..." />;
  if (health.isError)
    return (
      <Alert variant="danger" title="Could not load the health grid">
        {errorText(health.error)} (retried every 10 s)
      </Alert>
    );
  return (
    <>
      <OpsSection titleId="ops-health-title" title="Processes">
        <HealthGrid health={health.data} />
      </OpsSection>
      <ConsumersAndOutboxes health={health.data} />
    </>
  );
}

export function OperationsPage() {
  const health = useOpsHealth();
  const [open, setOpen] = useState<{ envelope: EventEnvelope; position?: string } | null>(null);
  if (health.isError && isForbidden(health.error)) return <OpsForbidden />;
  return (
    <main className="ops-page" aria-labelledby="ops-title">
      <div className="ops-page__head">
        <h1 id="ops-title">Operations</h1>
        <Link to="/operations/panel" className={buttonClass('secondary', 'sm')}>
          Lender panel
        </Link>
      </div>
      <Tabs
        label="Operations views"
        defaultValue="events"
        items={[
          {
            value: 'events',
            label: 'Events',
            content: (
              <>
                <LiveFeed onOpen={(row) => setOpen({ envelope: row.envelope, position: row.position })} />
                <EventRates />
              </>
            ),
          },
          { value: 'health', label: 'Health', content: <Health /> },
          {
            value: 'queues',
            label: 'Queues',
            content: (
              <OpsSection titleId="ops-queues-title" title="Queues">
                <QueuesPanel />
              </OpsSection>
            ),
          },
          {
            value: 'dead-letters',
            label: 'Dead letters',
            content: (
              <OpsSection titleId="ops-dead-title" title="Dead letters">
                <DeadLettersPanel onOpenEvent={(envelope) => setOpen({ envelope })} />
              </OpsSection>
            ),
          },
        ]}
      />
      <EventDetail
        envelope={open?.envelope ?? null}
        position={open?.position}
        onClose={() => setOpen(null)}
      />
    </main>
  );
}
