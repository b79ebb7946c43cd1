import type { Logger } from '@lsp/service-kit';
import type { SavedSearchDocument } from '../data/models/saved-searches';
import type { SavedSearchRepository } from '../data/saved-searches';

export interface ApplicationStatusDeps {
  savedSearches: Pick<SavedSearchRepository, 'markApplicationSubmitted'>;
  /** Asks the dip service which of the user's saved searches have an application. */
  searchesWithApplications: (userId: string, searchIds: string[]) => Promise<string[]>;
  logger: Pick<Logger, 'warn'>;
}

/**
 * The searches with their application status as dip, which owns applications, knows it now: an
 * application submitted a moment ago shows at once, before application.submitted reaches search (whose
 * projection is then brought up to date too). If dip cannot be asked, the projection's status is shown.
 */
export async function withApplicationStatus(
  deps: ApplicationStatusDeps,
  userId: string,
  searches: SavedSearchDocument[],
): Promise<SavedSearchDocument[]> {
  const open = searches.filter((search) => search.application_status === 'not_submitted');
  if (open.length === 0) return searches;
  let submitted: Set<string>;
  try {
    submitted = new Set(
      await deps.searchesWithApplications(
        userId,
        open.map((search) => search._id),
      ),
    );
  } catch (err) {
    deps.logger.warn({ err }, 'application status: dip could not be asked; showing what search knows');
    return searches;
  }
  if (submitted.size === 0) return searches;
  await Promise.all(
    [...submitted].map((searchId) => deps.savedSearches.markApplicationSubmitted(searchId, userId)),
  );
  return searches.map((search) =>
    submitted.has(search._id) ? { ...search, application_status: 'submitted' } : search,
  );
}
