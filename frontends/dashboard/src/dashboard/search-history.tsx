// The Search History tab: each saved search with its loan-type icon and colour, title,
// en-GB date, location, 'Application Submitted' badge, results count, View Results, and an inline
// project rename (Enter saves, Escape cancels). A search a lender panel change re-priced says so: its
// marker in words, the best offer before → after, and the offers gained or lost.
import { repricingSummary } from '@lsp/contracts/src/display/repricing';
import type { SearchRepricing } from '@lsp/contracts/src/search/events';
import { labelOf } from '@lsp/contracts/src/display/labels';
import { Badge, Button, Card, callApi, buttonClass, useToast } from '@lsp/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { formatDate, loanTypeLabel } from '../format';
import { searchesKey } from './queries';
import type { SavedSearchItem } from './queries';

/** Development blue, bridging orange, commercial green, anything else grey. */
export const LOAN_TYPE_COLOURS: Record<string, string> = {
  development: '#1f4d8a',
  bridging: '#b45309',
  commercial: '#1f7a43',
};
const OTHER_COLOUR = '#525f72';

export function searchTitle(search: Pick<SavedSearchItem, 'loan_type' | 'project_name'>): string {
  const type = loanTypeLabel(search.loan_type);
  const name = search.project_name?.trim();
  return name ? `${name} - ${type} Finance` : type;
}

function resultCount(search: SavedSearchItem): number {
  if (typeof search.result_count === 'number') return search.result_count;
  const response = search.api_response;
  if (Array.isArray(response)) return response.length;
  const results = (response as { Results?: unknown } | null)?.Results;
  return Array.isArray(results) ? results.length : 0;
}

export function SearchHistory({ userId, searches }: { userId: string; searches: SavedSearchItem[] }) {
  if (searches.length === 0) {
    return (
      <Card title="No searches yet" headingLevel={3}>
        <p>Run a search to compare lender offers; every search you run while signed in is saved here.</p>
        <Link to="/" className={buttonClass('primary')}>
          Start Your First Search
        </Link>
      </Card>
    );
  }
  return (
    <ul className="dash-list">
      {searches.map((search) => (
        <SearchHistoryItem key={search.id} userId={userId} search={search} />
      ))}
    </ul>
  );
}

function SearchHistoryItem({ userId, search }: { userId: string; search: SavedSearchItem }) {
  const colour = LOAN_TYPE_COLOURS[search.loan_type] ?? OTHER_COLOUR;
  // The region's label ('North West'), never its code ('NorthWest').
  const location = labelOf((search.search_data?.propertyLocation as string | undefined) ?? '');
  const count = resultCount(search);
  return (
    <li className="dash-item">
      <span
        className="dash-item__icon"
        style={{ background: colour }}
        data-loan-type={search.loan_type}
        aria-hidden="true"
      >
        {loanTypeLabel(search.loan_type)[0]}
      </span>
      <div className="dash-item__body">
        <ProjectTitle userId={userId} search={search} />
        <p className="ui-muted dash-item__meta">
          <span>{formatDate(search.created_at)}</span>
          {location && <span>{location}</span>}
          <span>
            {count} {count === 1 ? 'result' : 'results'}
          </span>
        </p>
        {search.application_status === 'submitted' && <Badge variant="success">Application Submitted</Badge>}
        {search.repricing && <RepricingNote searchId={search.id} repricing={search.repricing} />}
      </div>
      <div className="dash-item__actions">
        <Link to={`/search-results/${search.id}`} className={buttonClass('secondary', 'sm')}>
          View Results
        </Link>
      </div>
    </li>
  );
}

/** The marker is words in a badge (not a colour alone); the change is read as 'Best offer: X, now Y'. */
function RepricingNote({ searchId, repricing }: { searchId: string; repricing: SearchRepricing }) {
  const summary = repricingSummary(repricing);
  const labelId = `repricing-${searchId}`;
  return (
    <div className="dash-repricing" role="group" aria-labelledby={labelId}>
      <p className="dash-repricing__head">
        <Badge id={labelId} variant={summary.marker === 'New offers' ? 'success' : 'neutral'}>
          {summary.marker}
        </Badge>
        <span className="ui-muted">Lender terms changed on {summary.repricedOn}</span>
      </p>
      <p className="dash-repricing__change">
        <span className="dash-repricing__label">Best offer:</span> <span>{summary.before}</span>{' '}
        <span aria-hidden="true">→</span>
        <span className="ui-visually-hidden">, now</span> <span>{summary.after}</span>
      </p>
      {summary.counts.length > 0 && <p className="dash-repricing__counts">{summary.counts.join(', ')}</p>}
    </div>
  );
}

function ProjectTitle({ userId, search }: { userId: string; search: SavedSearchItem }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(search.project_name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const start = () => {
    setDraft(search.project_name ?? '');
    setError(null);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setError(null);
  };
  const save = async () => {
    const projectName = draft.trim();
    if (!projectName) {
      setError('Project name cannot be empty');
      return;
    }
    setSaving(true);
    try {
      const { ok } = await callApi('renameSearch', {
        body: { searchId: search.id, loanType: search.loan_type, projectName },
      });
      if (!ok) throw new Error('rename refused');
      toast({ title: 'Success', description: 'Project name updated successfully', variant: 'success' });
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: searchesKey(userId) });
    } catch {
      toast({ title: 'Error', description: 'Failed to update project name', variant: 'error' });
    } finally {
      setSaving(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    }
  };

  if (!editing) {
    return (
      <div className="ui-row dash-item__title-row">
        <h3 className="dash-item__title">{searchTitle(search)}</h3>
        <Button variant="ghost" size="sm" onClick={start} aria-label={`Rename ${searchTitle(search)}`}>
          Rename
        </Button>
      </div>
    );
  }
  const errorId = `rename-error-${search.id}`;
  return (
    <div className="dash-rename">
      <label className="ui-visually-hidden" htmlFor={`rename-${search.id}`}>
        Project name
      </label>
      <input
        id={`rename-${search.id}`}
        className="ui-input"
        value={draft}
        autoFocus
        disabled={saving}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        maxLength={200}
      />
      <div className="ui-row">
        <Button size="sm" onClick={() => void save()} loading={saving} loadingText="Saving...">
          Save
        </Button>
        <Button size="sm" variant="ghost" onClick={cancel}>
          Cancel
        </Button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="ui-field-error">
          {error}
        </p>
      )}
    </div>
  );
}
