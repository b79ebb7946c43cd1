import type { ReactNode } from 'react';

/**
 * One term and its value inside a description list (`<dl>`): a summary row, a figure, a fact about a
 * DIP. The list's own class lays the pairs out. A missing value (null, undefined or '') shows as '—',
 * as everywhere on the site.
 */
export function Fact({ label, value }: { label: ReactNode; value: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
    </div>
  );
}
