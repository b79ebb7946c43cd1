// /operations/panel: the lender panel as operations run it. The active version, every stored version
// (draft, active, previous) and the audit trail; a panel file uploaded or one product's terms edited
// into a draft; and for any version not active, what it changes (the diff), what it would do to the
// last 90 days' saved searches (the impact), and activating it (or rolling back to it). Only `ops`
// users get data: the server answers 403 to anyone else and this page then says so.
import { Badge, Spinner, Tabs, buttonClass, cx, useToast } from '@lsp/ui';
import type { BadgeVariant } from '@lsp/ui';
import type { PanelOverview, PanelVersionSummary } from '@lsp/contracts';
import { formatUkDate } from '@lsp/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { count, dateTime } from './format';
import { isForbidden } from './ops-api';
import { LoadError, OpsForbidden } from './ops-notices';
import { OpsSection } from './ops-section';
import { usePanelOverview } from './panel-api';
import { EditProductForm } from './panel-edit';
import { UploadPanelForm } from './panel-upload';
import { VersionReview } from './panel-version-review';
import './operations.css';
import './panel.css';

export const VERSION_STATUS: Record<PanelVersionSummary['status'], { variant: BadgeVariant; label: string }> =
  {
    draft: { variant: 'info', label: 'Draft' },
    active: { variant: 'success', label: 'Active' },
    previous: { variant: 'neutral', label: 'Previous' },
  };

const AUDIT_ACTIONS: Record<PanelOverview['audit'][number]['action'], string> = {
  uploaded: 'Uploaded',
  edited: 'Edited',
  'impact-measured': 'Impact measured',
  activated: 'Activated',
  'rolled-back': 'Rolled back',
};

function ActiveVersion({ active }: { active: PanelVersionSummary | null }) {
  return (
    <section className="ops-section panel-active" aria-labelledby="panel-active-title">
      <h2 id="panel-active-title">Active version</h2>
      {active === null ? (
        <p className="ui-muted">No version is active: searches price on the shipped panel.</p>
      ) : (
        <>
          <p className="panel-active__version ops-mono">{active.version}</p>
          {active.description && <p className="ui-muted panel-active__description">{active.description}</p>}
          <dl className="panel-facts">
            <div>
              <dt>Effective from</dt>
              <dd>{formatUkDate(active.effectiveFrom, 'long')}</dd>
            </div>
            <div>
              <dt>Lenders</dt>
              <dd>{count(active.lenderCount)}</dd>
            </div>
            <div>
              <dt>Products</dt>
              <dd>{count(active.productCount)}</dd>
            </div>
            <div>
              <dt>Activated by</dt>
              <dd>{active.activatedBy ?? '—'}</dd>
            </div>
            <div>
              <dt>Activated</dt>
              <dd>{dateTime(active.activatedAt)}</dd>
            </div>
          </dl>
        </>
      )}
    </section>
  );
}

function VersionsTable({
  versions,
  selected,
  onSelect,
}: {
  versions: PanelVersionSummary[];
  selected: string | null;
  onSelect: (version: string) => void;
}) {
  if (versions.length === 0) return <p className="ui-muted">No versions are stored yet.</p>;
  return (
    <div
      className="ops-scroll panel-versions"
      tabIndex={0}
      role="region"
      aria-label="Panel versions, newest first"
    >
      <table className="ops-table">
        <caption className="ui-visually-hidden">Panel versions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Status</th>
            <th scope="col">Effective from</th>
            <th scope="col" className="ops-num">
              Lenders
            </th>
            <th scope="col" className="ops-num">
              Products
            </th>
            <th scope="col">Source</th>
            <th scope="col">Created</th>
            <th scope="col">Last activated</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => {
            const status = VERSION_STATUS[v.status];
            const isSelected = v.version === selected;
            return (
              <tr key={v.version} className={cx(isSelected && 'panel-versions__selected')}>
                <th scope="row">
                  <button
                    type="button"
                    className="ops-link ops-mono"
                    aria-pressed={isSelected}
                    onClick={() => onSelect(v.version)}
                  >
                    {v.version}
                  </button>
                </th>
                <td>
                  <Badge variant={status.variant}>{status.label}</Badge>
                </td>
                <td>{formatUkDate(v.effectiveFrom)}</td>
                <td className="ops-num">{count(v.lenderCount)}</td>
                <td className="ops-num">{count(v.productCount)}</td>
                <td className="panel-wrap">{v.source}</td>
                <td>
                  {v.createdBy ?? 'system'}
                  <br />
                  <span className="ui-muted">{dateTime(v.createdAt)}</span>
                </td>
                <td>
                  {v.activatedAt ? (
                    <>
                      {v.activatedBy ?? 'system'}
                      <br />
                      <span className="ui-muted">{dateTime(v.activatedAt)}</span>
                    </>
                  ) : (
                    <span className="ui-muted">Never</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function AuditTrail({ audit }: { audit: PanelOverview['audit'] }) {
  if (audit.length === 0) return <p className="ui-muted">Nothing has been done to the panel yet.</p>;
  return (
    <div className="ops-scroll" tabIndex={0} role="region" aria-label="Audit trail, newest first">
      <table className="ops-table">
        <caption className="ui-visually-hidden">Audit trail, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Operator</th>
            <th scope="col">Action</th>
            <th scope="col">Version</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {audit.map((entry, i) => (
            <tr key={`${entry.at}-${entry.action}-${entry.version}-${i}`}>
              <td>{dateTime(entry.at)}</td>
              <td>{entry.operator}</td>
              <td>{AUDIT_ACTIONS[entry.action]}</td>
              <td className="ops-mono">{entry.version}</td>
              <td className="panel-wrap">{entry.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LenderPanelPage() {
  const overview = usePanelOverview();
  const { toast } = useToast();
  const [tab, setTab] = useState('versions');
  const [selected, setSelected] = useState<string | null>(null);

  if (overview.isError && isForbidden(overview.error)) return <OpsForbidden title="Lender panel" />;

  /** A new draft (uploaded or edited) is selected for review, on the Versions tab. */
  const draftMade = (draft: PanelVersionSummary) => {
    toast({ title: `Draft ${draft.version} stored`, description: draft.source, variant: 'success' });
    setSelected(draft.version);
    setTab('versions');
  };

  const data = overview.data;
  const selectedSummary = data?.versions.find((v) => v.version === selected) ?? null;
  return (
    <main className="ops-page" aria-labelledby="ops-title">
      <div className="ops-page__head">
        <h1 id="ops-title">Lender panel</h1>
        <Link to="/operations" className={buttonClass('ghost', 'sm')}>
          Back to the operations console
        </Link>
      </div>
      {overview.isPending && <Spinner label="Loading the lender panel..." />}
      {overview.isError && (
        <LoadError
          title="Could not load the lender panel"
          error={overview.error}
          onRetry={() => void overview.refetch()}
          retrying={overview.isFetching}
        />
      )}
      {data && (
        <>
          <ActiveVersion active={data.active} />
          <Tabs
            label="Lender panel views"
            value={tab}
            onValueChange={setTab}
            items={[
              {
                value: 'versions',
                label: 'Versions',
                content: (
                  <OpsSection titleId="panel-versions-title" title="Versions">
                    <p className="ui-muted ops-section__meta">
                      Choose a version to see what it changes against the active one, measure its impact on
                      saved searches and activate it.
                    </p>
                    <VersionsTable versions={data.versions} selected={selected} onSelect={setSelected} />
                    {selectedSummary && (
                      <VersionReview
                        key={selectedSummary.version}
                        summary={selectedSummary}
                        active={data.active?.version ?? null}
                      />
                    )}
                  </OpsSection>
                ),
              },
              {
                value: 'upload',
                label: 'Upload a file',
                content: (
                  <OpsSection titleId="panel-upload-title" title="Upload a panel file">
                    <UploadPanelForm onDraft={draftMade} />
                  </OpsSection>
                ),
              },
              {
                value: 'edit',
                label: 'Edit a product',
                content: (
                  <OpsSection titleId="panel-edit-title" title="Edit one product">
                    {data.active ? (
                      <EditProductForm active={data.active.version} onDraft={draftMade} />
                    ) : (
                      <p className="ui-muted">No version is active, so there is no product to edit.</p>
                    )}
                  </OpsSection>
                ),
              },
              {
                value: 'audit',
                label: 'Audit trail',
                content: (
                  <OpsSection titleId="panel-audit-title" title="Audit trail">
                    <AuditTrail audit={data.audit} />
                  </OpsSection>
                ),
              },
            ]}
          />
        </>
      )}
    </main>
  );
}
