import { DIP_EVENTS } from '@lsp/contracts';
import type { DipRepository } from '../data/dips';
import type { AccessProjection } from '../data/projections';
import { newShareSlug } from '../domain/codes';
import { shareUrlOf } from '../domain/views';
import { type OwnerAction, type OwnerActionDeps, changedConcurrently, ownedLiveDip } from './access';
import type { AnswerOf } from './answers';

export interface ShareLinkDeps extends OwnerActionDeps {
  dips: Pick<DipRepository, 'findById' | 'change'>;
  access: Pick<AccessProjection, 'dipRevoked'>;
  publicUrl: string;
}

/**
 * The owner's DIP gets a new share slug and its link is active again: the old link stops opening it
 * (shares by email carry over), and dip.link.regenerated tells sharing.
 */
export async function regenerateDipLink(
  deps: ShareLinkDeps,
  action: OwnerAction,
): Promise<AnswerOf<'regenerateDipLink'>> {
  const dip = await ownedLiveDip(deps, action.dipId, action.caller);
  const shareSlug = newShareSlug();
  const shareUrl = shareUrlOf(deps.publicUrl, shareSlug);
  const changed = await deps.dips.change(dip, { shareSlug, linkStatus: 'active' }, (d) =>
    DIP_EVENTS.linkRegenerated.envelope(
      {
        dipId: d.id,
        ownerUserId: d.userId,
        version: d.version,
        shareSlug,
        shareUrl,
        previousShareSlug: dip.shareSlug,
        regeneratedAt: deps.clock.now().toISOString(),
        linkRevokedAt: dip.linkRevokedAt?.toISOString() ?? null,
      },
      { correlationId: action.requestId },
    ),
  );
  if (!changed) throw changedConcurrently();
  return { ok: true, success: true, shareSlug, shareUrl, url: shareUrl };
}

/**
 * The owner withdraws the DIP's link: it loses its slug, and everyone it was shared with loses access
 * at once. Revoking a link already revoked changes nothing.
 */
export async function revokeDipLink(
  deps: ShareLinkDeps,
  action: OwnerAction,
): Promise<AnswerOf<'revokeDip'>> {
  const dip = await ownedLiveDip(deps, action.dipId, action.caller);
  if (dip.linkStatus === 'revoked') return { ok: true, success: true };
  const revokedAt = deps.clock.now();
  const changed = await deps.dips.change(
    dip,
    { shareSlug: null, linkStatus: 'revoked', linkRevokedAt: revokedAt },
    (d) =>
      DIP_EVENTS.revoked.envelope(
        {
          dipId: d.id,
          ownerUserId: d.userId,
          version: d.version,
          previousShareSlug: dip.shareSlug,
          revokedAt: revokedAt.toISOString(),
        },
        { correlationId: action.requestId },
      ),
  );
  if (!changed) throw changedConcurrently();
  // Shares by email outlive a regenerated slug, so a withdrawn link ends them here at once rather
  // than when sharing's share.revoked events arrive (a regenerate straight after must not revive them).
  await deps.access.dipRevoked(dip.id, revokedAt);
  return { ok: true, success: true };
}
