// Dead letters per topic (GET /api/ops/dead-letters): the counts by status per topic, then the
// letters themselves with their error and attempts. Replay one, replay all (of a topic or every
// topic, after a confirmation), or discard one with a reason, which is kept and shown. Replaying is
// safe because every consumer is idempotent: a letter already handled elsewhere has no second effect.
import { Alert, Badge, Button, Dialog, FieldError, Select, Spinner, useToast } from '@lsp/ui';
import type { BadgeVariant } from '@lsp/ui';
import { OPS_MESSAGES } from '@lsp/contracts';
import type { DeadLetterStatus, EventEnvelope, OpsDeadLetter } from '@lsp/contracts';
import { useId, useState } from 'react';
import { count, dateTime, errorText } from './format';
import { useDeadLetters, useDiscardDeadLetter, useReplayAll, useReplayDeadLetter } from './ops-api';

const STATUS_BADGE: Record<DeadLetterStatus, BadgeVariant> = {
  open: 'danger',
  replayed: 'success',
  discarded: 'neutral',
};

const STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'replayed', label: 'Replayed' },
  { value: 'discarded', label: 'Discarded' },
  { value: '', label: 'All' },
];

function DiscardDialog({ letter, onClose }: { letter: OpsDeadLetter | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const discard = useDiscardDeadLetter();
  const { toast } = useToast();
  const fieldId = useId();
  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };
  const submit = () => {
    if (!letter) return;
    if (reason.trim() === '') {
      setError(OPS_MESSAGES.discardReasonRequired);
      return;
    }
    discard.mutate(
      { id: letter.id, reason: reason.trim() },
      {
        onSuccess: () => {
          toast({ title: 'Dead letter discarded', description: letter.envelope.type, variant: 'success' });
          close();
        },
        onError: (err) => setError(err.message),
      },
    );
  };
  return (
    <Dialog
      open={letter !== null}
      onClose={close}
      dismissLabel="Cancel"
      title="Discard dead letter"
      description={
        letter
          ? `${letter.envelope.type} for ${letter.consumerGroup}; the reason is kept with it.`
          : undefined
      }
      footer={
        <Button variant="danger" onClick={submit} loading={discard.isPending}>
          Discard
        </Button>
      }
    >
      <div className="ui-field">
        <label htmlFor={fieldId} className="ui-label">
          Reason
        </label>
        <textarea
          id={fieldId}
          className="ui-input ops-textarea"
          value={reason}
          rows={3}
          maxLength={1000}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            if (error) setError(undefined);
          }}
        />
        <FieldError id={`${fieldId}-error`}>{error}</FieldError>
      </div>
    </Dialog>
  );
}

function ReplayAllDialog({
  topic,
  open,
  onClose,
  total,
}: {
  topic?: string;
  open: boolean;
  onClose: () => void;
  total: number;
}) {
  const replay = useReplayAll();
  const { toast } = useToast();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      dismissLabel="Cancel"
      title={topic ? `Replay every open dead letter of ${topic}?` : 'Replay every open dead letter?'}
      description={`${count(total)} ${total === 1 ? 'event goes' : 'events go'} back to the consumers that failed them. Consumers are idempotent, so an event already handled has no second effect.`}
      footer={
        <Button
          loading={replay.isPending}
          onClick={() =>
            replay.mutate(topic, {
              onSuccess: (result) => {
                toast({
                  title: `Replayed ${result.replayed} dead ${result.replayed === 1 ? 'letter' : 'letters'}`,
                  variant: 'success',
                });
                onClose();
              },
              onError: (err) => toast({ title: 'Replay failed', description: err.message, variant: 'error' }),
            })
          }
        >
          Replay
        </Button>
      }
    />
  );
}

export function DeadLettersPanel({ onOpenEvent }: { onOpenEvent: (envelope: EventEnvelope) => void }) {
  const [status, setStatus] = useState('open');
  const letters = useDeadLetters(status, true);
  const replayOne = useReplayDeadLetter();
  const { toast } = useToast();
  const [discarding, setDiscarding] = useState<OpsDeadLetter | null>(null);
  const [replayAll, setReplayAll] = useState<{ topic?: string; total: number } | null>(null);

  const openTotal = letters.data?.topics.reduce((sum, t) => sum + t.open, 0) ?? 0;
  return (
    <>
      <div className="ops-toolbar">
        <Select
          label="Show"
          options={STATUS_OPTIONS}
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          fieldClassName="ops-toolbar__field"
        />
        <Button
          variant="secondary"
          disabled={openTotal === 0}
          onClick={() => setReplayAll({ total: openTotal })}
        >
          Replay all open ({count(openTotal)})
        </Button>
      </div>
      {letters.isPending && <Spinner label="Loading dead letters..." />}
      {letters.isError && (
        <Alert variant="danger" title="Could not load the dead letters">
          {errorText(letters.error)} (retried every 10 s)
        </Alert>
      )}
      {letters.data && (
        <>
          {letters.data.topics.length === 0 ? (
            <p className="ui-muted">No dead letters on any topic.</p>
          ) : (
            <div className="ops-scroll" tabIndex={0} role="region" aria-label="Dead letters per topic">
              <table className="ops-table">
                <caption className="ui-visually-hidden">Dead letters per topic</caption>
                <thead>
                  <tr>
                    <th scope="col">Topic</th>
                    <th scope="col" className="ops-num">
                      Open
                    </th>
                    <th scope="col" className="ops-num">
                      Replayed
                    </th>
                    <th scope="col" className="ops-num">
                      Discarded
                    </th>
                    <th scope="col">
                      <span className="ui-visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {letters.data.topics.map((t) => (
                    <tr key={t.topic}>
                      <th scope="row" className="ops-mono">
                        {t.topic}
                      </th>
                      <td className="ops-num">{count(t.open)}</td>
                      <td className="ops-num">{count(t.replayed)}</td>
                      <td className="ops-num">{count(t.discarded)}</td>
                      <td>
                        <Button
                          size="sm"
                          variant="ghost"
                          disabled={t.open === 0}
                          onClick={() => setReplayAll({ topic: t.topic, total: t.open })}
                          aria-label={`Replay all open dead letters of ${t.topic}`}
                        >
                          Replay all
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {letters.data.items.length > 0 && (
            <ul className="ops-letters" aria-label="Dead letters, newest first">
              {letters.data.items.map((letter) => (
                <li key={letter.id} className="ops-letter">
                  <div className="ops-letter__head">
                    <strong className="ops-mono">{letter.envelope.type}</strong>
                    <Badge variant={STATUS_BADGE[letter.status]}>{letter.status}</Badge>
                  </div>
                  <p className="ui-muted ops-letter__meta">
                    {letter.consumerGroup} · {letter.attempts}{' '}
                    {letter.attempts === 1 ? 'attempt' : 'attempts'} · failed {dateTime(letter.failedAt)}
                    {letter.replays > 0 && ` · replayed ${letter.replays}×`}
                  </p>
                  <p className="ops-error">{letter.error}</p>
                  {letter.status === 'discarded' && (
                    <p className="ops-letter__reason">
                      Discarded by {letter.discardedBy ?? 'someone'} on {dateTime(letter.discardedAt)}:{' '}
                      {letter.discardReason}
                    </p>
                  )}
                  {letter.status === 'replayed' && (
                    <p className="ops-letter__reason">
                      Replayed by {letter.replayedBy ?? 'someone'} on {dateTime(letter.replayedAt)}
                    </p>
                  )}
                  <div className="ops-letter__actions">
                    <Button size="sm" variant="ghost" onClick={() => onOpenEvent(letter.envelope)}>
                      View event
                      <span className="ui-visually-hidden">
                        {' '}
                        {letter.envelope.type} {letter.envelope.id}
                      </span>
                    </Button>
                    {letter.status === 'open' && (
                      <>
                        <Button
                          size="sm"
                          variant="secondary"
                          loading={replayOne.isPending && replayOne.variables === letter.id}
                          onClick={() =>
                            replayOne.mutate(letter.id, {
                              onSuccess: () =>
                                toast({
                                  title: 'Dead letter replayed',
                                  description: letter.envelope.type,
                                  variant: 'success',
                                }),
                              onError: (err) =>
                                toast({ title: 'Replay failed', description: err.message, variant: 'error' }),
                            })
                          }
                        >
                          Replay
                          <span className="ui-visually-hidden">
                            {' '}
                            {letter.envelope.type} {letter.envelope.id}
                          </span>
                        </Button>
                        <Button size="sm" variant="danger" onClick={() => setDiscarding(letter)}>
                          Discard
                          <span className="ui-visually-hidden">
                            {' '}
                            {letter.envelope.type} {letter.envelope.id}
                          </span>
                        </Button>
                      </>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <DiscardDialog letter={discarding} onClose={() => setDiscarding(null)} />
      <ReplayAllDialog
        open={replayAll !== null}
        topic={replayAll?.topic}
        total={replayAll?.total ?? 0}
        onClose={() => setReplayAll(null)}
      />
    </>
  );
}
