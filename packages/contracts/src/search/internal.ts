import { z } from 'zod';
import { LOAN_TYPES } from '../common/enums';
import { searchSavedEventSchema } from './events';

/**
 * Reads one service makes of the search service directly, inside the platform (never through the
 * gateway): see the dip service's internal reads.
 */
export const SEARCH_INTERNAL_PATHS = {
  /** GET: the saved search as `search.saved` carried it, {@link savedSearchStateSchema}; 404 when unknown. */
  savedSearch: '/internal/saved-searches/:searchId',
  /** POST {@link runOfferQuerySchema}: one offer of a search run as the server recorded it, {@link runOfferAnswerSchema}. */
  runOffer: '/internal/search-runs/offer',
} as const;

/** A saved search as dip needs it to make a DIP: exactly what `search.saved` carries. */
export const savedSearchStateSchema = searchSavedEventSchema;

/** Which offer of which run, asked for whom (the signed-in user who is to share it). */
export const runOfferQuerySchema = z.object({
  loanType: z.enum(LOAN_TYPES),
  searchRunId: z.string().min(1).max(100),
  lenderId: z.string().min(1).max(100),
  productId: z.string().min(1).max(200),
  userId: z.string().min(1).max(100),
});
export type RunOfferQuery = z.infer<typeof runOfferQuerySchema>;

/**
 * The offer, sized again from the run's record; or why there is none: no such run of that loan type,
 * a run another user made (an anonymous run is whoever holds its id), or no such offer in the run.
 */
export const runOfferAnswerSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('offered'),
    loanType: z.enum(LOAN_TYPES),
    offer: z.record(z.string(), z.unknown()),
  }),
  z.object({ outcome: z.enum(['run-not-found', 'run-of-other-user', 'offer-not-in-run']) }),
]);
export type RunOfferAnswer = z.infer<typeof runOfferAnswerSchema>;
