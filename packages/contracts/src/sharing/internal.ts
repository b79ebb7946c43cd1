import { z } from 'zod';
import { isoDateTimeText } from '../common/text';
import { sharePermissionsSchema } from './events';

/**
 * Reads one service makes of the sharing service directly, inside the platform (never through the
 * gateway): see the dip service's internal reads.
 */
export const SHARING_INTERNAL_PATHS = {
  /** POST {@link accessQuerySchema}: the shares through which a person may open a DIP now. */
  access: '/internal/access',
} as const;

export const accessQuerySchema = z.object({
  dipId: z.string().min(1).max(100),
  /**
   * The DIP's current slug: an open link made for an earlier slug grants nothing; a share by email
   * holds across slugs unless it predates `linkRevokedAt`.
   */
  shareSlug: z.string().min(1).max(100),
  email: z.string().min(1).max(320),
  userId: z.string().min(1).max(100),
  /** When the owner last revoked the DIP's link (null or absent: never). */
  linkRevokedAt: isoDateTimeText('linkRevokedAt must be an ISO date and time').nullable().optional(),
});
export type AccessQuery = z.infer<typeof accessQuerySchema>;

export const accessAnswerSchema = z.object({
  grants: z.array(z.object({ shareId: z.string(), permissions: sharePermissionsSchema })),
});
export type AccessAnswer = z.infer<typeof accessAnswerSchema>;
