import type { AccessAnswer, AccessQuery } from '@lsp/contracts';
import type { Clock } from '@lsp/service-kit';
import type { DipShare, RecipientShare } from '../data/collections';
import type { SharingRepositories } from '../data/repositories';
import { sharingAddress } from '../domain/addresses';

export interface AccessDeps {
  repositories: Pick<SharingRepositories, 'links' | 'recipients'>;
  clock: Clock;
}

/**
 * Whether a link still grants access to the DIP at its current slug. A link shared by email outlives a
 * regenerated slug (the person keeps their access, only the URL with the old slug stops opening); the
 * open link holds for the current slug only.
 */
function grantsAccess(link: DipShare, shareSlug: string, now: Date): boolean {
  return (
    link.status !== 'revoked' &&
    (link.inviteType === 'targeted' || link.shareSlug === shareSlug) &&
    (link.expiresAt === null || link.expiresAt.getTime() > now.getTime())
  );
}

/**
 * The shares through which a person may open a DIP now: dip asks when its own grants (kept from
 * share.created and share.viewed) have not yet heard of a share made or an open link opened a moment
 * ago. A share by email for an earlier slug, from before the owner last revoked the link, ended with
 * that revocation even if sharing has not applied it yet.
 */
export async function accessGrants(deps: AccessDeps, query: AccessQuery): Promise<AccessAnswer> {
  const { dipId, shareSlug, email, userId } = query;
  const revokedAt = query.linkRevokedAt ? new Date(query.linkRevokedAt).getTime() : null;
  const now = deps.clock.now();
  const entries = await deps.repositories.recipients.activeForPerson(dipId, sharingAddress(email), userId);
  const links = await deps.repositories.links.findByIds(entries.map((entry) => entry.linkId));
  const live = new Set(links.filter((link) => grantsAccess(link, shareSlug, now)).map((link) => link._id));
  const linkOf = new Map(links.map((link) => [link._id, link]));
  const outlived = (entry: RecipientShare) =>
    revokedAt !== null &&
    linkOf.get(entry.linkId)?.shareSlug !== shareSlug &&
    entry.sharedAt.getTime() <= revokedAt;
  return {
    grants: entries
      .filter((entry) => live.has(entry.linkId) && !outlived(entry))
      .map((entry) => ({ shareId: entry._id, permissions: entry.permissions })),
  };
}
