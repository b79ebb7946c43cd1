import { INTEREST_DISPLAY_MAX_ANNUAL, INTEREST_DISPLAY_MIN_ANNUAL } from '../common/constants';
import { parseNumber, roundTo } from './numbers';

/** Shown wherever a figure is missing, non-numeric or infinite. */
export const DASH = '—';

const wholePounds = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const pence = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const thousands = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** GBP in whole pounds; negative amounts are clamped to £0 (a loan figure is never below zero). */
export function formatCurrency(value: unknown): string {
  const amount = parseNumber(value);
  if (amount === null) return DASH;
  return wholePounds.format(Math.max(0, Math.round(amount)));
}

/** GBP with pence, used for the monthly payment on the DIP page. */
export function formatCurrency2dp(value: unknown): string {
  const amount = parseNumber(value);
  if (amount === null) return DASH;
  return pence.format(Math.max(0, amount));
}

/** UK thousands separators for a number input once the field is left ("1250000" → "1,250,000"). */
export function formatThousands(value: unknown): string {
  const amount = parseNumber(value);
  return amount === null ? '' : thousands.format(amount);
}

/**
 * An annual interest fraction as a monthly percentage ("0.102" → "0.85% pm"). The annual figure is
 * clamped to 0.1%-50% first so a feed error never shows a 0% or a 300% loan.
 */
export function formatInterestPm(annualFraction: unknown): string {
  const annual = parseNumber(annualFraction);
  if (annual === null) return DASH;
  const clamped = Math.min(INTEREST_DISPLAY_MAX_ANNUAL, Math.max(INTEREST_DISPLAY_MIN_ANNUAL, annual));
  return `${((clamped * 100) / 12).toFixed(2)}% pm`;
}

/** A DIP's annual rate, labelled per annum, 2 dp ("0.1368" → "13.68% pa"); not clamped. */
export function formatRatePa(annualFraction: unknown): string {
  const annual = parseNumber(annualFraction);
  return annual === null ? DASH : `${(annual * 100).toFixed(2)}% pa`;
}

/** The monthly equivalent of a DIP's annual rate, 2 dp ("0.1368" → "1.14% pm"); not clamped. */
export function formatRatePm(annualFraction: unknown): string {
  const annual = parseNumber(annualFraction);
  return annual === null ? DASH : `${((annual * 100) / 12).toFixed(2)}% pm`;
}

/**
 * A DIP's or a shared deal's annual rate, labelled so it can be set beside a results card's monthly
 * figure ("0.1368" → "13.68% pa (1.14% pm)"). Not clamped: a DIP shows the rate it was issued at.
 */
export function formatRatePerAnnum(annualFraction: unknown): string {
  const annual = parseNumber(annualFraction);
  return annual === null ? DASH : `${formatRatePa(annual)} (${formatRatePm(annual)})`;
}

/** The annual rate as a percentage, 2 dp ("0.0725" → "7.25%"), for commercial cards and tooltips. */
export function formatInterestAnnual(annualFraction: unknown): string {
  const annual = parseNumber(annualFraction);
  if (annual === null) return DASH;
  const clamped = Math.min(INTEREST_DISPLAY_MAX_ANNUAL, Math.max(INTEREST_DISPLAY_MIN_ANNUAL, annual));
  return `${(clamped * 100).toFixed(2)}%`;
}

/** True monthly cost (a monthly fraction) ×100 to 2 dp; zero means the lender has not priced it. */
export function formatTrueMonthlyCost(monthlyFraction: unknown): string {
  const tmc = parseNumber(monthlyFraction);
  if (tmc === null) return DASH;
  if (tmc === 0) return 'Contact for TMC';
  return `${roundTo(tmc * 100, 2).toFixed(2)}%`;
}

/** A value that is already a percentage (LTV, arrangement fee % of value) to 1 dp. */
export function formatPercent1dp(percent: unknown): string {
  const value = parseNumber(percent);
  if (value === null) return DASH;
  return `${value.toFixed(1)}%`;
}

/** ROCE and other ratios already expressed as a percentage, 2 dp. */
export function formatPercent2dp(percent: unknown): string {
  const value = parseNumber(percent);
  if (value === null) return DASH;
  return `${value.toFixed(2)}%`;
}

/**
 * Dates as UK readers expect them, in UK time wherever the code runs (the PDF renders on a server in
 * UTC, the page in the reader's browser): 'numeric' 26/11/2026 (the dashboard lists, spec 'en-GB
 * short'), 'long' 26 November 2026, 'long-time' 26 November 2026 at 10:30. A missing or unreadable
 * date (or an epoch-milliseconds string, as search history ids are) reads as the dash. The one
 * helper for dates on the pages, the PDF and the emails.
 */
export type UkDateStyle = 'numeric' | 'long' | 'long-time';
const UK_DATE_FORMATS: Record<UkDateStyle, Intl.DateTimeFormat> = {
  numeric: new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'Europe/London',
  }),
  long: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }),
  'long-time': new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Europe/London',
  }),
};

export function formatUkDate(value: unknown, style: UkDateStyle = 'numeric'): string {
  let date: Date | null = null;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number') date = new Date(value);
  else if (typeof value === 'string' && value.trim() !== '')
    date = new Date(/^\d+$/.test(value.trim()) ? Number(value) : value);
  if (!date || Number.isNaN(date.getTime())) return DASH;
  return UK_DATE_FORMATS[style].format(date);
}
