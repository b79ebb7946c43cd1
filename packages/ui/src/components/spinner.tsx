import { cx } from './class-names';

export interface SpinnerProps {
  /** Read by screen readers and shown beside the spinner unless `hideLabel`. */
  label?: string;
  hideLabel?: boolean;
  size?: 'md' | 'lg';
}

export function Spinner({ label = 'Loading...', hideLabel, size = 'md' }: SpinnerProps) {
  return (
    <span role="status" className={cx('ui-spinner', size === 'lg' && 'ui-spinner--lg')}>
      <span className="ui-spinner__circle" aria-hidden="true" />
      <span className={hideLabel ? 'ui-visually-hidden' : undefined}>{label}</span>
    </span>
  );
}

/** A centred spinner for a whole page or panel that is still loading. */
export function PageLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="ui-page-loading">
      <Spinner label={label} size="lg" />
    </div>
  );
}
