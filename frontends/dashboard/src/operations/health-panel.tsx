// The health grid (every process: up, version, p99 and error rate of the last minute, from their
// /health and /metrics as notifications scrapes them) and, per service, consumer lag and outbox
// backlog. Both come from GET /api/ops/health, asked every 10 s.
import { Alert, Badge } from '@lsp/ui';
import type { BadgeVariant } from '@lsp/ui';
import type { OpsHealthResponse, OpsProcessHealth } from '@lsp/contracts';
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
        <div>
          <dt>Version</dt>
          <dd>{process.version ?? '—'}</dd>
        </div>
        <div>
          <dt>p99 (1 min)</dt>
          <dd>{ms(process.p99Ms)}</dd>
        </div>
        <div>
          <dt>Errors (1 min)</dt>
          <dd>{percent(process.errorRate)}</dd>
        </div>
        <div>
          <dt>Requests (1 min)</dt>
          <dd>{count(process.requestsLastMinute)}</dd>
        </div>
        <div>
          <dt>Events handled / failed (1 min)</dt>
          <dd>
            {count(process.eventsConsumedLastMinute)} / {count(process.eventsFailedLastMinute)}
          </dd>
        </div>
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

export function ConsumersAndOutboxes({ health }: { health: OpsHealthResponse }) {
  const outboxes = health.processes.filter((p) => p.outboxBacklog !== null);
  const lagging = health.consumerLag.filter((c) => (c.lag ?? 0) > 0 || (c.pending ?? 0) > 0).length;
  return (
    <div className="ops-two">
      <div>
        <h3 id="ops-lag-title">Consumer lag</h3>
        <p className="ui-muted ops-section__meta">
          {lagging === 0
            ? 'Every consumer is caught up.'
            : `${lagging} consumer ${lagging === 1 ? 'group is' : 'groups are'} behind.`}
        </p>
        {health.consumerLag.length === 0 ? (
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
                </tr>
              </thead>
              <tbody>
                {health.consumerLag.map((c) => (
                  <tr
                    key={`${c.consumerGroup}:${c.topic}`}
                    className={(c.lag ?? 0) > 0 ? 'ops-row--warn' : undefined}
                  >
                    <td className="ops-mono">{c.consumerGroup}</td>
                    <td className="ops-mono">{c.topic}</td>
                    <td className="ops-num">{count(c.lag)}</td>
                    <td className="ops-num">{count(c.pending)}</td>
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
