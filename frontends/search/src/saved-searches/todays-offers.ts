// Today's offers for a saved search (pure: type-only imports, so a unit test takes it without CSS).
// The saved search's form is run again against the panel active now; what was saved is left alone.
import type { LoanType } from '../shared/loan-type';

/** The saved search's tabs: the offers it saved, and the same form priced on today's panel. */
export type OffersView = 'saved' | 'today';

/** Fields of a saved form that are not the deal: whose search it was, and a lead already recorded. */
const NOT_THE_DEAL = new Set(['userId', 'lead', 'loanType']);

/** The saved form as a search call sends it today: the deal's fields only (no lead is recorded again). */
export function todaysSearchPayload(formData: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(formData).filter(([key]) => !NOT_THE_DEAL.has(key)));
}

/** The query key of today's offers: one per saved search and panel change. */
export function todaysOffersKey(searchId: string, panelVersion: string | null) {
  return ['todays-offers', searchId, panelVersion ?? ''] as const;
}

/** The tab's label: the count once there is one. */
export function offersTabLabel(view: OffersView, count: number | null): string {
  const name = view === 'saved' ? 'Saved offers' : "Today's offers";
  return count === null ? name : `${name} (${count})`;
}

/** The body of the call that saves today's offers as a new saved search of the account. */
export function todaysSaveBody<Answer extends object>(
  userId: string,
  loanType: LoanType,
  formData: Record<string, unknown>,
  response: Answer,
) {
  return { userId, loanType, searchData: todaysSearchPayload(formData), apiResponse: response };
}
