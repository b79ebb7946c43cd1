import { Button } from '@lsp/ui';
import type { ReactNode } from 'react';

export interface SearchFormProps {
  /** Values to start from (a reloaded or verified search); the form's defaults fill the rest. */
  initialValues?: Record<string, unknown> | null;
  /** Called with the values the contracts' schema produced (defaults applied, hidden fields cleared). */
  onSearch: (values: Record<string, unknown>) => void;
  busy: boolean;
  /** The recent-searches dropdown for this loan type, given a way to load an item into the form. */
  renderRecent: (load: (data: Record<string, unknown>) => void) => ReactNode;
}

/** The frame every search form shares: title, recent searches, sections, the Search Finance button. */
export function SearchFormFrame({
  title,
  description,
  recent,
  busy,
  onSubmit,
  children,
}: {
  title: string;
  description: string;
  recent: ReactNode;
  busy: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="sr-search-form ui-card"
      noValidate
      aria-labelledby="search-form-title"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div className="sr-search-form__header">
        <div>
          <h2 id="search-form-title" className="sr-search-form__title">
            {title}
          </h2>
          <p className="ui-muted">{description}</p>
          <p className="ui-muted sr-required-note">
            Fields marked <span aria-hidden="true">*</span>
            <span className="ui-visually-hidden">with an asterisk</span> are required.
          </p>
        </div>
        {recent}
      </div>
      {children}
      <div className="sr-search-form__actions">
        <Button type="submit" variant="brand" size="lg" loading={busy} loadingText="Searching..." block>
          Search Finance
        </Button>
      </div>
    </form>
  );
}

/** Form values from storage may be partial or old: keep only what the form knows, over its defaults. */
export function mergeInitial<T extends Record<string, unknown>>(
  defaults: T,
  initial: Record<string, unknown> | null | undefined,
): T {
  if (!initial) return { ...defaults };
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(initial)) {
    if (key === 'userId' || key === 'loanType') continue;
    if (value !== null && value !== undefined) merged[key] = value;
  }
  return merged as T;
}
