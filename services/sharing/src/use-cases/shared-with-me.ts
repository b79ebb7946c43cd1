import { SHARING_MESSAGES, SHARING_EVENTS } from '@lsp/contracts';
import {
  type CallerIdentity,
  type Clock,
  HttpError,
  badRequest,
  emailNotVerified,
  forbidden,
  gone,
  notFound,
  unauthorized,
} from '@lsp/service-kit';
import type { DipProjection, DipShare, RecipientShare } from '../data/collections';
import { withSharingAddress } from '../domain/addresses';
import { isExpired } from '../domain/expiry';
import { OPEN_LINK_RECIPIENT, type ShareLinkSigner, decodeRecipient } from '../domain/signed-links';
import { type CurrentDipDeps, currentDip } from './current-dip';
import { SHARED_LIST_LIMIT, sharedDipAnswer, sharedItemOf } from './shared-views';

/** What the recipient's side needs: opening a signed link, 'Shared with me' and reading a shared DIP. */
export interface SharedWithMeDeps extends CurrentDipDeps {
  signer: ShareLinkSigner;
  clock: Clock;
}

/**
 * The DIP whose current link has this slug. The slug names the DIP through the projection or a link
 * signed for it (a link made since a regeneration the projection has not heard of); the owner then
 * says whether it is still the DIP's slug.
 */
async function dipOfSlug(deps: SharedWithMeDeps, slug: string, now: Date): Promise<DipProjection | null> {
  const { dips, links } = deps.repositories;
  const named = (await dips.idWithSlug(slug)) ?? (await links.dipIdWithSlug(slug));
  if (!named) return null;
  const dip = await currentDip(deps, named, now);
  return dip && dip.status === 'active' && dip.shareSlug === slug ? dip : null;
}

/**
 * The refusal of a link whose slug names no DIP now. When the slug was its DIP's before the owner
 * regenerated the link, and the caller still has the DIP in Shared with me, the 404 says the link
 * was replaced and names the DIP, so the page can lead them to it; anyone else meets the plain 404.
 */
async function slugRefusal(deps: SharedWithMeDeps, slug: string, callerEmail: string, now: Date) {
  const { links, recipients } = deps.repositories;
  const named = await links.dipIdWithSlug(slug);
  const dip = named ? await currentDip(deps, named, now) : null;
  const replaced = dip !== null && dip.status === 'active' && dip.shareSlug !== slug;
  const entry = replaced ? await recipients.findActive(dip._id, callerEmail) : null;
  if (dip && entry)
    return new HttpError(404, SHARING_MESSAGES.linkReplaced, { linkReplaced: true, dipId: dip._id });
  return notFound(SHARING_MESSAGES.notFound);
}

/**
 * The caller's entry for a DIP opened through its open link: opening it puts the DIP in their
 * 'Shared with me' (again, when an earlier entry was revoked).
 */
async function openLinkEntry(
  deps: SharedWithMeDeps,
  dip: DipProjection,
  link: DipShare,
  email: string,
  now: Date,
): Promise<RecipientShare | null> {
  const { recipients } = deps.repositories;
  const entry = await recipients.find(dip._id, email);
  if (entry && entry.status === 'active') return entry;
  await recipients.upsert(dip, { linkId: link._id, email, inviteType: 'open', message: null, now });
  return recipients.find(dip._id, email);
}

/** Sets viewedAt and publishes share.viewed, once: only the call that changes it writes the event. */
async function markViewed(deps: SharedWithMeDeps, entry: RecipientShare, recipientUserId: string, now: Date) {
  if (entry.viewedAt && entry.recipientUserId) return;
  const { recipients, links } = deps.repositories;
  await deps.mongo.transaction(async (session) => {
    if (!(await recipients.markViewed(entry._id, recipientUserId, now, session))) return;
    await links.markClaimed(entry.linkId, recipientUserId, session);
    await deps.outbox.add(
      [
        SHARING_EVENTS.shareViewed.envelope({
          shareId: entry._id,
          dipId: entry.dipId,
          ownerUserId: entry.ownerUserId,
          recipientUserId,
          recipientEmail: entry.email,
          linkId: entry.linkId,
          viewedAt: now.toISOString(),
        }),
      ],
      session,
    );
  });
}

/**
 * A signed link opened: the link's own parameters are checked before the caller must be signed in.
 * The link must be signed for the DIP's current slug and still active; a targeted link opens only for
 * the address it names; either kind only for a verified address (what is shared to an address
 * reaches only someone who proved they hold it, and an open link puts the DIP in 'Shared with me'
 * under the caller's address); and neither the link nor the DIP may have expired.
 */
export async function openSharedDip(
  deps: SharedWithMeDeps,
  slug: string,
  signed: { e?: string; sig?: string },
  signedInCaller: CallerIdentity | null,
) {
  const { links, recipients } = deps.repositories;
  const { e, sig } = signed;
  if (!e || !sig) throw badRequest(SHARING_MESSAGES.linkMissingParameters);
  if (!signedInCaller) throw unauthorized(SHARING_MESSAGES.authRequired);
  const caller = withSharingAddress(signedInCaller);
  const now = deps.clock.now();
  const recipient = decodeRecipient(e);
  const dip = await dipOfSlug(deps, slug, now);
  if (!dip) throw await slugRefusal(deps, slug, caller.email, now);
  if (!recipient) throw notFound(SHARING_MESSAGES.notFound);
  const open = recipient === OPEN_LINK_RECIPIENT;
  const link = open ? await links.findOpen(dip._id) : await links.findTargeted(dip._id, recipient);
  const verified =
    link !== null &&
    link.shareSlug === dip.shareSlug &&
    deps.signer.verify(sig, { slug: link.shareSlug, email: recipient, ...link }, now);
  if (!link || !verified) throw notFound(SHARING_MESSAGES.notFound);
  if (link.status === 'revoked') throw notFound(SHARING_MESSAGES.notFound);
  if (!open && recipient !== caller.email)
    throw new HttpError(403, SHARING_MESSAGES.wrongAccount, { canSignOut: true });
  if (!caller.verified) throw emailNotVerified();
  if ((link.expiresAt && isExpired(link.expiresAt, now)) || isExpired(dip.expiresAt, now))
    throw gone(SHARING_MESSAGES.expired);

  const entry = open
    ? await openLinkEntry(deps, dip, link, caller.email, now)
    : await recipients.findActive(dip._id, recipient);
  if (!entry) throw notFound(SHARING_MESSAGES.notFound);
  await links.touch(link._id, now);
  await markViewed(deps, entry, caller.userId, now);
  return sharedDipAnswer(dip, entry, open ? 'open-link' : 'signed-link', now);
}

/** 'Shared with me': the DIPs shared with the caller's address, each with its link's current slug. */
export async function listSharedWithMe(deps: SharedWithMeDeps, caller: CallerIdentity) {
  const { dips, recipients } = deps.repositories;
  const { email } = withSharingAddress(caller);
  const now = deps.clock.now();
  const entries = await recipients.activeFor(email, SHARED_LIST_LIMIT);
  const slugs = await dips.slugsOf([...new Set(entries.map((entry) => entry.dipId))]);
  return {
    success: true as const,
    items: entries.map((entry) => sharedItemOf(entry, slugs.get(entry.dipId) ?? null, now)),
  };
}

/** How many DIPs shared with the caller they have not opened yet. */
export async function countUnreadShares(deps: SharedWithMeDeps, caller: CallerIdentity) {
  const { email } = withSharingAddress(caller);
  const count = await deps.repositories.recipients.countUnread(email, deps.clock.now());
  return { success: true as const, count };
}

/** Marks one of the caller's own entries read: 404 for an unknown id, 403 for someone else's. */
export async function markShareViewed(deps: SharedWithMeDeps, shareId: string, caller: CallerIdentity) {
  const recipient = withSharingAddress(caller);
  const entry = await deps.repositories.recipients.findById(shareId);
  if (!entry || entry.status !== 'active') throw notFound(SHARING_MESSAGES.shareNotFound);
  if (entry.email !== recipient.email) throw forbidden(SHARING_MESSAGES.accessDenied);
  await markViewed(deps, entry, recipient.userId, deps.clock.now());
  return { success: true as const, shareId: entry._id, isViewed: true as const };
}

/** A DIP shared with the caller, read from 'Shared with me' (no link needed). */
export async function getSharedDip(deps: SharedWithMeDeps, dipId: string, caller: CallerIdentity) {
  const { email } = withSharingAddress(caller);
  const now = deps.clock.now();
  const dip = await currentDip(deps, dipId, now);
  if (!dip) throw notFound(SHARING_MESSAGES.notFound);
  const entry = await deps.repositories.recipients.find(dip._id, email);
  if (!entry) throw forbidden(SHARING_MESSAGES.accessDenied);
  if (entry.status !== 'active' || dip.status !== 'active') throw notFound(SHARING_MESSAGES.notFound);
  if (isExpired(dip.expiresAt, now)) throw gone(SHARING_MESSAGES.expired);
  return sharedDipAnswer(dip, entry, 'recipient', now);
}
