import { LOAN_TYPE_LABELS, type LoanType } from '../common/enums';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'Just now' under a minute, 'Xm ago' under an hour, 'Xh ago' under a day, else 'Xd ago'. */
export function formatRelativeTime(
  timestamp: number | string | Date,
  now: number | Date = Date.now(),
): string {
  const then = timestamp instanceof Date ? timestamp.getTime() : new Date(timestamp).getTime();
  const current = now instanceof Date ? now.getTime() : now;
  const elapsed = Math.max(0, current - then);
  if (!Number.isFinite(elapsed) || elapsed < MINUTE) return 'Just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  return `${Math.floor(elapsed / DAY)}d ago`;
}

/** "<project name or 'Unnamed Project'> - Development Finance" (or ' - Previous search' for other types). */
export function historyDescription(searchType: string, projectName?: string | null): string {
  const name = projectName && projectName.trim() ? projectName.trim() : 'Unnamed Project';
  const label = (LOAN_TYPE_LABELS as Record<string, string>)[searchType as LoanType];
  return `${name} - ${label ?? 'Previous search'}`;
}
