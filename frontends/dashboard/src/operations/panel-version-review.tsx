// One version under review: what it changes against the active panel (product by product, term by
// term, before → after), its impact on the last 90 days' saved searches (measured in the background,
// its progress polled every second), and activating it after a confirmation (a previous version:
// rolling back to it). The active version itself has nothing to review.
import { Alert, Badge, Button, Dialog, Spinner, useToast } from '@lsp/ui';
import type { BadgeVariant } from '@lsp/ui';
import type { PanelDiff, PanelImpact, PanelProductChange, PanelVersionSummary } from '@lsp/contracts';
import { PANEL_REPRICING_WINDOW_DAYS } from '@lsp/contracts';
import { useState } from 'react';
import { count, dateTime } from './format';
import { LoadError, failureText } from './ops-notices';
import { useActivateVersion, usePanelDiff, usePanelImpact, useStartImpact } from './panel-api';
import { IMPACT_COUNTS, describeChange, impactProgress } from './panel-model';

const CHANGE_BADGE: Record<PanelProductChange['change'], { variant: BadgeVariant; label: string }> = {
  added: { variant: 'success', label: 'Added' },
  removed: { variant: 'danger', label: 'Removed' },
  changed: { variant: 'warning', label: 'Changed' },
};

function FieldChanges({
  fields,
  caption,
}: {
  fields: PanelDiff['products'][number]['fields'];
  caption: string;
}) {
  if (fields.length === 0) return null;
  return (
    <table className="ops-table panel-diff__table">
      <caption className="ui-visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Term</th>
          <th scope="col">Before</th>
          <th scope="col">
            <span aria-hidden="true">→ </span>After
          </th>
        </tr>
      </thead>
      <tbody>
        {fields.map((change) => {
          const shown = describeChange(change);
          return (
            <tr key={change.field}>
              <th scope="row">{shown.label}</th>
              <td className="panel-diff__before">{shown.before}</td>
              <td className="panel-diff__after">{shown.after}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function DiffView({ version }: { version: string }) {
  const diff = usePanelDiff(version);
  if (diff.isPending) return <Spinner label="Comparing with the active version..." />;
  if (diff.isError)
    return (
      <LoadError
        title="Could not compare this version"
        error={diff.error}
        onRetry={() => void diff.refetch()}
        retrying={diff.isFetching}
      />
    );
  const { products, lenders, against } = diff.data;
  const lenderNames = new Map(products.map((p) => [p.lenderId, p.lenderName]));
  if (products.length === 0 && lenders.length === 0)
    return <p className="ui-muted">No differences from {against ?? 'the shipped panel'}.</p>;
  return (
    <>
      <p className="ui-muted ops-section__meta">
        Against {against ? <span className="ops-mono">{against}</span> : 'the shipped panel'}:{' '}
        {count(products.length)} {products.length === 1 ? 'product' : 'products'} and {count(lenders.length)}{' '}
        {lenders.length === 1 ? 'lender' : 'lenders'} changed.
      </p>
      <ul className="panel-diff" aria-label="Changes, product by product">
        {lenders.map((lender) => {
          const name = lenderNames.get(lender.lenderId) ?? lender.lenderId;
          const badge = CHANGE_BADGE[lender.change];
          return (
            <li key={`lender-${lender.lenderId}`} className="panel-diff__item">
              <div className="panel-diff__head">
                <h5>{name} (lender terms)</h5>
                <Badge variant={badge.variant}>{badge.label}</Badge>
              </div>
              <FieldChanges fields={lender.fields} caption={`${name}: changed lender terms`} />
            </li>
          );
        })}
        {products.map((product) => {
          const badge = CHANGE_BADGE[product.change];
          const title = `${product.lenderName}: ${product.productName}`;
          return (
            <li key={`${product.lenderId}/${product.productId}`} className="panel-diff__item">
              <div className="panel-diff__head">
                <h5>{title}</h5>
                <Badge variant={badge.variant}>{badge.label}</Badge>
              </div>
              <FieldChanges fields={product.fields} caption={`${title}: changed terms`} />
            </li>
          );
        })}
      </ul>
    </>
  );
}

function ImpactFigures({ impact }: { impact: PanelImpact }) {
  const progress = impactProgress(impact);
  return (
    <div className="panel-impact">
      <div className="panel-impact__progress">
        <progress
          value={progress.done}
          max={Math.max(progress.total, 1)}
          aria-label="Saved searches re-priced"
          aria-valuetext={progress.text}
        />
        <p aria-live="polite">
          {progress.text}
          {impact.status === 'running' ? ` (${progress.percent}%)` : ''}
        </p>
      </div>
      {impact.status === 'failed' && (
        <Alert variant="danger" title="The measurement failed">
          Measure again; if it fails again, the search service&apos;s log says why.
        </Alert>
      )}
      {impact.status === 'done' && (
        <dl className="panel-facts panel-impact__counts" aria-label="Impact on saved searches">
          {IMPACT_COUNTS.map(({ key, label }) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{count(impact[key])}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="ui-muted panel-impact__meta">
        Against {impact.against ?? 'the shipped panel'} · started by {impact.startedBy} on{' '}
        {dateTime(impact.startedAt)}
        {impact.finishedAt && ` · finished ${dateTime(impact.finishedAt)}`}
      </p>
    </div>
  );
}

function ImpactView({ version }: { version: string }) {
  const impact = usePanelImpact(version);
  const start = useStartImpact(version);
  const running = impact.data?.status === 'running';
  return (
    <>
      <p className="ui-muted ops-section__meta">
        The saved searches of the last {PANEL_REPRICING_WINDOW_DAYS} days, priced on this version and on the
        active one.
      </p>
      {impact.isPending && <Spinner label="Loading the impact..." />}
      {impact.isError && (
        <LoadError
          title="Could not load the impact"
          error={impact.error}
          onRetry={() => void impact.refetch()}
          retrying={impact.isFetching}
        />
      )}
      {impact.data === null && <p className="ui-muted">Not measured yet.</p>}
      {impact.data && <ImpactFigures impact={impact.data} />}
      {start.isError && (
        <Alert variant="danger" title="Could not start the measurement" live>
          {failureText(start.error)}
        </Alert>
      )}
      <Button
        variant="secondary"
        onClick={() => start.mutate()}
        loading={start.isPending}
        disabled={running || impact.isPending}
      >
        {running ? 'Measuring...' : impact.data ? 'Measure again' : 'Measure impact'}
      </Button>
    </>
  );
}

function ActivateDialog({
  summary,
  active,
  open,
  onClose,
}: {
  summary: PanelVersionSummary;
  active: string | null;
  open: boolean;
  onClose: () => void;
}) {
  const activate = useActivateVersion();
  const { toast } = useToast();
  const rollback = summary.status === 'previous';
  const verb = rollback ? 'Roll back' : 'Activate';
  const close = () => {
    activate.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      dismissLabel="Cancel"
      title={rollback ? `Roll back to ${summary.version}?` : `Activate ${summary.version}?`}
      description={`Every new search prices on ${summary.version} at once${
        active ? `; ${active} becomes a previous version you can roll back to` : ''
      }.`}
      footer={
        <Button
          variant={rollback ? 'danger' : 'primary'}
          loading={activate.isPending}
          onClick={() =>
            activate.mutate(summary.version, {
              onSuccess: (result) => {
                toast({
                  title: result.rollback ? `Rolled back to ${result.version}` : `${result.version} is active`,
                  description: `${count(result.changedProducts)} ${
                    result.changedProducts === 1 ? 'product' : 'products'
                  } changed against ${result.previousVersion ?? 'the shipped panel'}`,
                  variant: 'success',
                });
                close();
              },
            })
          }
        >
          {verb}
        </Button>
      }
    >
      {activate.isError && (
        <Alert variant="danger" title={`Could not ${verb.toLowerCase()}`} live>
          {failureText(activate.error)}
        </Alert>
      )}
    </Dialog>
  );
}

export function VersionReview({ summary, active }: { summary: PanelVersionSummary; active: string | null }) {
  const [confirming, setConfirming] = useState(false);
  const isActive = summary.status === 'active';
  const rollback = summary.status === 'previous';
  return (
    <section className="panel-review" aria-labelledby="panel-review-title">
      <div className="ops-section__head panel-review__head">
        <h3 id="panel-review-title">
          Version <span className="ops-mono">{summary.version}</span>
        </h3>
        {/* One button throughout, so focus comes back to it when the dialog closes on the version now
            active (it then says so and does nothing). */}
        <Button
          variant={isActive ? 'secondary' : rollback ? 'danger' : 'primary'}
          aria-disabled={isActive || undefined}
          onClick={() => {
            if (!isActive) setConfirming(true);
          }}
        >
          {isActive ? 'Active' : rollback ? 'Roll back' : 'Activate'}
          <span className="ui-visually-hidden"> {isActive ? 'version' : summary.version}</span>
        </Button>
      </div>
      {summary.description && <p className="ui-muted">{summary.description}</p>}
      {isActive ? (
        <p>This is the active version: every search prices on it.</p>
      ) : (
        <div className="ops-two">
          <section aria-labelledby="panel-diff-title">
            <h4 id="panel-diff-title" className="panel-review__subtitle">
              Diff
            </h4>
            <DiffView version={summary.version} />
          </section>
          <section aria-labelledby="panel-impact-title">
            <h4 id="panel-impact-title" className="panel-review__subtitle">
              Impact
            </h4>
            <ImpactView version={summary.version} />
          </section>
        </div>
      )}
      <ActivateDialog
        summary={summary}
        active={active}
        open={confirming}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
