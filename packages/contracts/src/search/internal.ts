import { searchSavedEventSchema } from './events';

/**
 * Reads one service makes of the search service directly, inside the platform (never through the
 * gateway): see the dip service's internal reads.
 */
export const SEARCH_INTERNAL_PATHS = {
  /** GET: the saved search as `search.saved` carried it, {@link savedSearchStateSchema}; 404 when unknown. */
  savedSearch: '/internal/saved-searches/:searchId',
} as const;

/** A saved search as dip needs it to make a DIP: exactly what `search.saved` carries. */
export const savedSearchStateSchema = searchSavedEventSchema;
