// One event, opened from the feed or a dead letter: its payload, its headers (every envelope field
// but data) and the correlation chain from GET /api/ops/events?correlationId= (each event of the
// request in publish order, what every consumer did with it and the jobs it led to).
import { Alert, Badge, Dialog, Spinner } from '@lsp/ui';
import type { BadgeVariant } from '@lsp/ui';
import { type ConsumerOutcomeStatus, type EventEnvelope, traceIdOf } from '@lsp/contracts';
import { clockTime, dateTime, errorText, pretty } from './format';
import { useCorrelationChain } from './ops-api';

const OUTCOME_BADGE: Record<ConsumerOutcomeStatus, BadgeVariant> = {
  processed: 'success',
  failed: 'warning',
  'dead-lettered': 'danger',
};

function Headers({ envelope }: { envelope: EventEnvelope }) {
  const { data: _data, ...headers } = envelope;
  return (
    <dl className="ops-headers">
      {Object.entries(headers).map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value === undefined || value === null ? '—' : String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The trace the event belongs to (its `traceparent`), where the spans of its request and its consumers are. */
function TraceOf({ envelope }: { envelope: EventEnvelope }) {
  const traceId = traceIdOf(envelope);
  return (
    <p className="ops-chain__trace ui-muted">
      {traceId ? (
        <>
          trace <span className="ops-mono">{traceId}</span>
        </>
      ) : (
        'no trace (tracing was off when it was written)'
      )}
    </p>
  );
}

function CorrelationChain({ correlationId, current }: { correlationId: string; current: string }) {
  const chain = useCorrelationChain(correlationId);
  if (chain.isPending) return <Spinner label="Loading the correlation chain..." />;
  if (chain.isError)
    return (
      <Alert variant="danger" title="Could not load the correlation chain">
        {errorText(chain.error)}
      </Alert>
    );
  if (chain.data.events.length === 0)
    return <p className="ui-muted">No events recorded for this correlation id.</p>;
  return (
    <ol className="ops-chain" aria-label={`Events of correlation ${correlationId}, in publish order`}>
      {chain.data.events.map(({ position, envelope, consumers, jobs }) => (
        <li
          key={position}
          className="ops-chain__step"
          aria-current={envelope.id === current ? 'step' : undefined}
        >
          <p className="ops-chain__title">
            <strong>{envelope.type}</strong>{' '}
            <span className="ui-muted">
              {envelope.source.replace('/services/', '')} ·{' '}
              <time dateTime={envelope.time}>{clockTime(envelope.time)}</time>
            </span>
            {envelope.id === current && <Badge variant="brand">this event</Badge>}
          </p>
          <TraceOf envelope={envelope} />
          {consumers.length === 0 && jobs.length === 0 ? (
            <p className="ops-chain__none ui-muted">No consumer has handled it yet.</p>
          ) : (
            <ul className="ops-chain__outcomes">
              {consumers.map((outcome) => (
                <li key={outcome.consumer}>
                  <span className="ops-mono">{outcome.consumer}</span>{' '}
                  <Badge variant={OUTCOME_BADGE[outcome.status]}>{outcome.status}</Badge>{' '}
                  <span className="ui-muted">
                    {outcome.attempts} {outcome.attempts === 1 ? 'attempt' : 'attempts'}
                    {outcome.durationMs !== undefined && `, ${Math.round(outcome.durationMs)} ms`}
                  </span>
                  {outcome.error && <span className="ops-error">{outcome.error}</span>}
                </li>
              ))}
              {jobs.map((job) => (
                <li key={`${job.queue}:${job.jobId}`}>
                  <span className="ops-mono">
                    {job.queue} job {job.jobId}
                  </span>{' '}
                  <Badge
                    variant={
                      job.state === 'completed' ? 'success' : job.state === 'failed' ? 'danger' : 'info'
                    }
                  >
                    {job.state}
                  </Badge>
                  {job.failedReason && <span className="ops-error">{job.failedReason}</span>}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

export function EventDetail({
  envelope,
  position,
  onClose,
}: {
  envelope: EventEnvelope | null;
  position?: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={envelope !== null}
      onClose={onClose}
      size="xl"
      title={envelope ? envelope.type : 'Event'}
      description={
        envelope
          ? `${dateTime(envelope.time)} · subject ${envelope.subject}${position ? ` · position ${position}` : ''}`
          : undefined
      }
      className="ops-detail"
    >
      {envelope && (
        <div className="ops-detail__grid">
          <section aria-labelledby="ops-detail-payload">
            <h3 id="ops-detail-payload">Payload</h3>
            <pre className="ops-pre" tabIndex={0} aria-labelledby="ops-detail-payload">
              {pretty(envelope.data)}
            </pre>
          </section>
          <section aria-labelledby="ops-detail-headers">
            <h3 id="ops-detail-headers">Headers</h3>
            <Headers envelope={envelope} />
          </section>
          <section aria-labelledby="ops-detail-chain" className="ops-detail__chain">
            <h3 id="ops-detail-chain">Correlation chain</h3>
            {envelope.correlationId ? (
              <CorrelationChain correlationId={envelope.correlationId} current={envelope.id} />
            ) : (
              <p className="ui-muted">This event carries no correlation id.</p>
            )}
          </section>
        </div>
      )}
    </Dialog>
  );
}
