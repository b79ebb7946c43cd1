import { SHARING_INTERNAL_PATHS, type AccessAnswer, accessQuerySchema } from '@lsp/contracts';
import { type Clock, badRequest, registerInternalRead } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { SharingRepositories } from '../data/repositories';

/**
 * What other services ask sharing directly (docs/decisions/0083-read-your-own-writes-across-services.md):
 * dip, whether a person may open a DIP, when its own grants (kept from share.created and share.viewed)
 * have not yet heard of a share made or an open link opened a moment ago.
 */
export function registerInternalReads(
  app: FastifyInstance,
  deps: {
    repositories: Pick<SharingRepositories, 'links' | 'recipients'>;
    clock: Clock;
    internalSecret: string;
  },
) {
  const { links: shareLinks, recipients } = deps.repositories;
  registerInternalRead<never, unknown>(
    app,
    deps.internalSecret,
    { method: 'POST', path: SHARING_INTERNAL_PATHS.access },
    async (request): Promise<AccessAnswer> => {
      const query = accessQuerySchema.safeParse(request.body);
      if (!query.success) throw badRequest('dipId, shareSlug, email and userId are required');
      const { dipId, shareSlug, email, userId } = query.data;
      const revokedAt = query.data.linkRevokedAt ? new Date(query.data.linkRevokedAt).getTime() : null;
      const now = deps.clock.now();
      const entries = await recipients.activeForPerson(dipId, email.trim().toLowerCase(), userId);
      const links = await shareLinks.findByIds(entries.map((entry) => entry.linkId));
      const live = new Set(
        links
          .filter(
            (link) =>
              link.status !== 'revoked' &&
              // A link shared by email outlives a regenerated slug (the person keeps their access, only
              // the URL with the old slug stops opening); the open link holds for the current slug only.
              (link.inviteType === 'targeted' || link.shareSlug === shareSlug) &&
              (link.expiresAt === null || link.expiresAt.getTime() > now.getTime()),
          )
          .map((link) => link._id),
      );
      const linkOf = new Map(links.map((link) => [link._id, link]));
      // A share by email for an earlier slug, from before the owner last revoked the link, ended with
      // that revocation even if sharing has not applied it yet.
      const outlived = (entry: (typeof entries)[number]) =>
        revokedAt !== null &&
        linkOf.get(entry.linkId)?.shareSlug !== shareSlug &&
        entry.sharedAt.getTime() <= revokedAt;
      return {
        grants: entries
          .filter((entry) => live.has(entry.linkId) && !outlived(entry))
          .map((entry) => ({ shareId: entry._id, permissions: entry.permissions })),
      };
    },
  );
}
