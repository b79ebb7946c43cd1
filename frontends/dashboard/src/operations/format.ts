// Small display helpers of the operations console (en-GB clock with milliseconds, rates, counts).

/** '14:03:07.412' in the viewer's time zone; the ISO text itself when it is not a date. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const hms = date.toLocaleTimeString('en-GB', { hour12: false });
  return `${hms}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** '23 Nov 2026, 14:03:07' */
export function dateTime(iso: string | undefined | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
}

export const count = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : n.toLocaleString('en-GB');

export const ms = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : `${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-GB')} ms`;

export const percent = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 1)}%`;

export const perSecond = (n: number) => `${n.toLocaleString('en-GB', { maximumFractionDigits: 2 })}/s`;

/** JSON for a <pre>, never throwing on cycles or odd values. */
export function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A query's error as text (react-query types errors as unknown here). */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
