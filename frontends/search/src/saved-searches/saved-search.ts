import { isLoanType, type LoanType } from '../shared/loan-type';
import type { OfferLike } from '@lsp/contracts';

export interface SavedSearchView {
  id: string;
  loanType: LoanType | null;
  formData: Record<string, unknown>;
  results: OfferLike[];
  /** The search run the offers came from (a deal is shared from its record); null when none is named. */
  searchRunId: string | null;
  createdAt: string | null;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The saved lender response may be the list itself, `{ Results }` or the whole `{ data: { Results } }`. */
export function resultsFromApiResponse(apiResponse: unknown): OfferLike[] {
  if (Array.isArray(apiResponse))
    return apiResponse.filter((item) => item && typeof item === 'object') as OfferLike[];
  const record = asRecord(apiResponse);
  if (Array.isArray(record.Results)) return resultsFromApiResponse(record.Results);
  if (record.data) return resultsFromApiResponse(record.data);
  return [];
}

/** The run a search answer (or a saved search's stored answer) names: its `data.SearchRunId`. */
export function searchRunIdOf(apiResponse: unknown): string | null {
  const id = asRecord(asRecord(apiResponse).data).SearchRunId;
  return typeof id === 'string' && id ? id : null;
}

/**
 * GET /api/search-result/{id} as the page needs it. The stored record uses snake_case columns
 * (form_data, api_response, loan_type, created_at); camelCase is accepted too, and a `search` wrapper.
 */
export function readSavedSearch(body: unknown, id: string): SavedSearchView {
  const outer = asRecord(body);
  const record = outer.search && typeof outer.search === 'object' ? asRecord(outer.search) : outer;
  const loanType = record.loan_type ?? record.loanType ?? record.type;
  const formData = asRecord(record.form_data ?? record.searchData ?? record.search_data);
  const created = record.created_at ?? record.createdAt;
  return {
    id: String(record.id ?? id),
    loanType: isLoanType(loanType) ? loanType : isLoanType(formData.loanType) ? formData.loanType : null,
    formData,
    results: resultsFromApiResponse(record.api_response ?? record.apiResponse ?? record.results),
    searchRunId: searchRunIdOf(record.api_response ?? record.apiResponse),
    createdAt: typeof created === 'string' || typeof created === 'number' ? String(created) : null,
  };
}

/** What the summary's property figure is: the price being paid, or the value of a property already owned. */
export type PropertyValueLabel = 'Purchase price' | 'Current value';

/**
 * The search summary's figures: the property's purchase price, or its current value when the borrower
 * owns it (an owned property's value is no purchase price); GDV (or end value); the term in months.
 */
export function searchSummary(formData: Record<string, unknown>): {
  propertyValueLabel: PropertyValueLabel;
  propertyValue: unknown;
  gdv: unknown;
  loanTermMonths: number | null;
  location: string | null;
} {
  const years = Number(formData.mortgageTerm);
  const months = Number(formData.loanTerm);
  const purchasePrice = formData.purchasePrice ?? null;
  const currentValue = formData.currentValue ?? null;
  const owned = formData.ownOrPurchase === 'Own' && currentValue !== null;
  const showCurrentValue = owned || purchasePrice === null;
  return {
    propertyValueLabel: showCurrentValue && currentValue !== null ? 'Current value' : 'Purchase price',
    propertyValue: showCurrentValue && currentValue !== null ? currentValue : purchasePrice,
    gdv: formData.gdv ?? formData.estimatedEndValueOfProperty ?? null,
    loanTermMonths:
      Number.isFinite(months) && months > 0
        ? months
        : Number.isFinite(years) && years > 0
          ? years * 12
          : null,
    location: typeof formData.propertyLocation === 'string' ? formData.propertyLocation : null,
  };
}
