import { z } from 'zod';
import { dipCreatedEventSchema } from './events';

/**
 * Reads one service makes of the dip service directly, inside the platform (never through the
 * gateway): the owner answers where a projection kept from its events could be behind what the same
 * user has just done (docs/decisions/0083-read-your-own-writes-across-services.md).
 */
export const DIP_INTERNAL_PATHS = {
  /** GET: the DIP's link state, {@link dipStateSchema}; 404 when there is no such DIP. */
  dipState: '/internal/dips/:dipId',
  /** POST {userId, searchIds}: which of the user's saved searches have an application. */
  searchesWithApplications: '/internal/applications/searches',
} as const;

/**
 * A DIP as the owning service holds it now: what sharing's projection keeps, at this `version`. The
 * link is absent (null) while the owner has revoked it.
 */
export const dipStateSchema = dipCreatedEventSchema
  .pick({
    dipId: true,
    ownerUserId: true,
    version: true,
    ownerName: true,
    ownerEmail: true,
    quoteCode: true,
    expiresAt: true,
    createdAt: true,
    snapshot: true,
  })
  .extend({
    shareSlug: z.string().min(1).nullable(),
    shareUrl: z.string().url().nullable(),
    status: z.enum(['active', 'revoked']),
    /** When the owner last revoked the link (null or absent: never); see dip.link.regenerated. */
    linkRevokedAt: z.string().datetime().nullable().optional(),
  });
export type DipState = z.infer<typeof dipStateSchema>;

export const searchesWithApplicationsBodySchema = z.object({
  userId: z.string().min(1).max(100),
  searchIds: z.array(z.string().min(1).max(100)).max(1000),
});
export const searchesWithApplicationsResponseSchema = z.object({ searchIds: z.array(z.string()) });
