// Spec §9 formatting: GBP without decimals (en-GB), dates en-GB, DIP rates are a fraction × 100 with 2 decimals.
const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });

export function formatGbp(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').replace(/[,£\s]/g, ''));
  return Number.isFinite(n) ? gbp.format(n) : '—';
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString('en-GB');
}

/** A rate given as a fraction (0.0085) shown as a percentage with 2 decimals (0.85%). */
export function formatFractionRate(fraction: unknown): string {
  const n = Number(fraction);
  return Number.isFinite(n) ? `${(n * 100).toFixed(2)}%` : '—';
}

export const LOAN_TYPE_LABELS: Record<string, string> = {
  development: 'Development',
  bridging: 'Bridging',
  commercial: 'Commercial',
};

export function loanTypeLabel(loanType: string): string {
  return LOAN_TYPE_LABELS[loanType] ?? (loanType ? loanType[0].toUpperCase() + loanType.slice(1) : 'Loan');
}
