// The health grid (every process: up, version, p99 and error rate of the last minute, from their
// /health and /metrics as notifications scrapes them) and, per service, consumer lag and outbox
// backlog, and per consumer group and event type the time from commit to handled over the last minute
// (so a relay that stops being woken shows within a minute). All from GET /api/ops/health, every 10 s.
import { Alert, Badge, Fact } from '@lsp/ui';
import type { BadgeVariant } from '@lsp/ui';
import type { OpsEventPropagation, OpsHealthResponse, OpsProcessHealth } from '@lsp/contracts';
import { count, dateTime, ms, percent } from './format';

const STATUS_BADGE: Record<OpsProcessHealth['status'], BadgeVariant> = {
  ok: 'success',
  degraded: 'warning',
  unreachable: 'danger',
};

function ProcessCard({ process }: { process: OpsProcessHealth }) {
  const headingId = `ops-process-${process.name}`;
  const failing = Object.entries(process.checks).filter(([, check]) => check.status !== 'ok');
  return (
    <li className={`ops-process ops-process--${process.status}`} aria-labelledby={headingId}>
      <div className="ops-process__head">
        <h3 id={headingId}>{process.name}</h3>
        <Badge variant={STATUS_BADGE[process.status]}>{process.up ? process.status : 'down'}</Badge>
      </div>
      <dl className="ops-facts">
        <Fact label="Version" value={process.version ?? '—'} />
        <Fact label="p99 (1 min)" value={ms(process.p99Ms)} />
        <Fact label="Errors (1 min)" value={percent(process.errorRate)} />
        <Fact label="Requests (1 min)" value={count(process.requestsLastMinute)} />
        <Fact
          label="Events handled / failed (1 min)"
          value={`${count(process.eventsConsumedLastMinute)} / ${count(process.eventsFailedLastMinute)}`}
        />
      </dl>
      {failing.length > 0 && (
        <ul className="ops-process__checks">
          {failing.map(([name, check]) => (
            <li key={name}>
              <strong>{name}</strong>: {check.status}
              {check.error && ` (${check.error})`}
            </li>
          ))}
        </ul>
      )}
      {process.error && <p className="ops-error">{process.error}</p>}
    </li>
  );
}

export function HealthGrid({ health }: { health: OpsHealthResponse }) {
  const down = health.processes.filter((p) => p.status !== 'ok').length;
  return (
    <>
      <p className="ui-muted ops-section__meta">
        {health.processes.length} processes, {down === 0 ? 'all healthy' : `${down} not healthy`} · event bus{' '}
        {health.eventBus === 'kafka' ? 'Kafka' : 'Redis Streams'} · checked {dateTime(health.checkedAt)}
      </p>
      <ul className="ops-grid" aria-label="Processes">
        {health.processes.map((process) => (
          <ProcessCard key={process.name} process={process} />
        ))}
      </ul>
    </>
  );
}

/** Above this, an event waited for something (the relay's poll, a consumer behind) rather than flowing. */
const SLOW_PROPAGATION_MS = 1000;

interface ConsumerRow {
  consumerGroup: string;
  topic: string;
  lag: number | null;
  pending: number | null;
  propagation: OpsEventPropagation | undefined;
}

/** Consumer lag and commit-to-handled latency side by side, one row per consumer group and event type. */
function consumerRows(health: OpsHealthResponse): ConsumerRow[] {
  const key = (group: string, type: string) => `${group}\u0000${type}`;
  const propagation = new Map(health.propagation.map((p) => [key(p.consumerGroup, p.type), p]));
  const rows: ConsumerRow[] = health.consumerLag.map((c) => ({
    ...c,
    propagation: propagation.get(key(c.consumerGroup, c.topic)),
  }));
  const listed = new Set(rows.map((r) => key(r.consumerGroup, r.topic)));
  for (const p of health.propagation)
    if (!listed.has(key(p.consumerGroup, p.type)))
      rows.push({ consumerGroup: p.consumerGroup, topic: p.type, lag: null, pending: null, propagation: p });
  return rows;
}

export function ConsumersAndOutboxes({ health }: { health: OpsHealthResponse }) {
  const outboxes = health.processes.filter((p) => p.outboxBacklog !== null);
  const lagging = health.consumerLag.filter((c) => (c.lag ?? 0) > 0 || (c.pending ?? 0) > 0).length;
  const slow = health.propagation.filter((p) => (p.p99Ms ?? 0) > SLOW_PROPAGATION_MS).length;
  const rows = consumerRows(health);
  return (
    <div className="ops-two">
      <div>
        <h3 id="ops-lag-title">Consumer lag</h3>
        <p className="ui-muted ops-section__meta">
          {lagging === 0
            ? 'Every consumer is caught up.'
            : `${lagging} consumer ${lagging === 1 ? 'group is' : 'groups are'} behind.`}{' '}
          {slow > 0 &&
            `${slow} event ${slow === 1 ? 'type took' : 'types took'} over ${SLOW_PROPAGATION_MS / 1000} s from commit to handled (p99, last minute).`}
        </p>
        {rows.length === 0 ? (
          <p className="ui-muted">No consumer groups reported.</p>
        ) : (
          <div className="ops-scroll" tabIndex={0} role="region" aria-labelledby="ops-lag-title">
            <table className="ops-table">
              <thead>
                <tr>
                  <th scope="col">Consumer group</th>
                  <th scope="col">Topic</th>
                  <th scope="col" className="ops-num">
                    Lag
                  </th>
                  <th scope="col" className="ops-num">
                    Pending
                  </th>
                  <th scope="col" className="ops-num">
                    Handled (1 min)
                  </th>
                  <th scope="col" className="ops-num">
                    Commit to handled p50 / p99 (1 min)
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr
                    key={`${c.consumerGroup}:${c.topic}`}
                    className={
                      (c.lag ?? 0) > 0 || (c.propagation?.p99Ms ?? 0) > SLOW_PROPAGATION_MS
                        ? 'ops-row--warn'
                        : undefined
                    }
                  >
                    <td className="ops-mono">{c.consumerGroup}</td>
                    <td className="ops-mono">{c.topic}</td>
                    <td className="ops-num">{count(c.lag)}</td>
                    <td className="ops-num">{count(c.pending)}</td>
                    <td className="ops-num">{count(c.propagation?.handledLastMinute ?? 0)}</td>
                    <td className="ops-num">
                      {c.propagation ? `${ms(c.propagation.p50Ms)} / ${ms(c.propagation.p99Ms)}` : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <div>
        <h3 id="ops-outbox-title">Outbox backlog</h3>
        <p className="ui-muted ops-section__meta">Entries written but not yet published to the bus.</p>
        {outboxes.length === 0 ? (
          <Alert variant="info">No process reported an outbox.</Alert>
        ) : (
          <div className="ops-scroll" tabIndex={0} role="region" aria-labelledby="ops-outbox-title">
            <table className="ops-table">
              <thead>
                <tr>
                  <th scope="col">Service</th>
                  <th scope="col" className="ops-num">
                    Unpublished
                  </th>
                </tr>
              </thead>
              <tbody>
                {outboxes.map((p) => (
                  <tr key={p.name} className={(p.outboxBacklog ?? 0) > 0 ? 'ops-row--warn' : undefined}>
                    <td>{p.name}</td>
                    <td className="ops-num">{count(p.outboxBacklog)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}
