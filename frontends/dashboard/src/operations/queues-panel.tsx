// The BullMQ email and pdf queues (GET /api/ops/queues): counts by state, the failed jobs with
// their error and attempts, and Retry (POST /api/ops/queues/{queue}/jobs/{jobId}/retry).
import { Alert, Badge, Button, Spinner, useToast } from '@lsp/ui';
import type { OpsQueue } from '@lsp/contracts';
import { count, dateTime, errorText, pretty } from './format';
import { useQueues, useRetryJob } from './ops-api';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

function QueueCard({ queue }: { queue: OpsQueue }) {
  const retry = useRetryJob();
  const { toast } = useToast();
  const headingId = `ops-queue-${queue.name}`;
  return (
    <section className="ops-queue" aria-labelledby={headingId}>
      <div className="ops-process__head">
        <h3 id={headingId}>{queue.name} queue</h3>
        {queue.counts.failed > 0 && <Badge variant="danger">{count(queue.counts.failed)} failed</Badge>}
      </div>
      <dl className="ops-counts">
        {STATES.map((state) => (
          <div
            key={state}
            className={state === 'failed' && queue.counts.failed > 0 ? 'ops-counts--bad' : undefined}
          >
            <dt>{state}</dt>
            <dd>{count(queue.counts[state])}</dd>
          </div>
        ))}
      </dl>
      {queue.failed.length === 0 ? (
        <p className="ui-muted">No failed jobs.</p>
      ) : (
        <ul className="ops-letters" aria-label={`Failed ${queue.name} jobs, newest first`}>
          {queue.failed.map((job) => (
            <li key={job.id} className="ops-letter">
              <div className="ops-letter__head">
                <strong className="ops-mono">
                  {job.name} #{job.id}
                </strong>
                <span className="ui-muted">
                  {job.attemptsMade} {job.attemptsMade === 1 ? 'attempt' : 'attempts'} · failed{' '}
                  {dateTime(job.failedAt ?? job.createdAt)}
                </span>
              </div>
              <p className="ops-error">{job.failedReason}</p>
              <details>
                <summary>Job data</summary>
                <pre className="ops-pre" tabIndex={0} aria-label={`Data of ${queue.name} job ${job.id}`}>
                  {pretty(job.data)}
                </pre>
              </details>
              <div className="ops-letter__actions">
                <Button
                  size="sm"
                  variant="secondary"
                  loading={retry.isPending && retry.variables?.jobId === job.id}
                  onClick={() =>
                    retry.mutate(
                      { queue: queue.name, jobId: job.id },
                      {
                        onSuccess: () => toast({ title: `Job ${job.id} queued again`, variant: 'success' }),
                        onError: (err) =>
                          toast({ title: 'Retry failed', description: err.message, variant: 'error' }),
                      },
                    )
                  }
                >
                  Retry
                  <span className="ui-visually-hidden">
                    {' '}
                    {queue.name} job {job.id}
                  </span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function QueuesPanel() {
  const queues = useQueues(true);
  if (queues.isPending) return <Spinner label="Loading the queues..." />;
  if (queues.isError)
    return (
      <Alert variant="danger" title="Could not load the queues">
        {errorText(queues.error)} (retried every 10 s)
      </Alert>
    );
  return (
    <div className="ops-two">
      {queues.data.queues.map((queue) => (
        <QueueCard key={queue.name} queue={queue} />
      ))}
    </div>
  );
}
