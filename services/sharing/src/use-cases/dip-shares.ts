import { randomUUID } from 'node:crypto';
import { DEFAULT_SHARE_PERMISSIONS, SHARING_MESSAGES, SHARING_EVENTS } from '@lsp/contracts';
import { type Clock, type Logger, badRequest, notFound } from '@lsp/service-kit';
import type { DipProjection } from '../data/collections';
import { isExpired, openLinkExpiry } from '../domain/expiry';
import { OPEN_LINK_RECIPIENT, type ShareLinkSigner, newLinkNonce } from '../domain/signed-links';
import { type CurrentDipDeps, ownedDip, shareableDip } from './current-dip';
import { SHARED_LIST_LIMIT } from './shared-views';

/** What the owner's side of sharing a DIP needs: its open link, its list of shares, revoking one. */
export interface DipShareDeps extends CurrentDipDeps {
  signer: ShareLinkSigner;
  clock: Clock;
  logger: Pick<Logger, 'error'>;
}

/**
 * share.created for a link: targeted when it names a recipient, the open link otherwise. Its expiry is
 * the link's own when it has one, else the DIP's, which it then follows.
 */
export function shareCreatedFor(
  dip: DipProjection,
  owner: { name: string },
  link: {
    shareId: string;
    recipientEmail: string | null;
    message: string | null;
    url: string;
    linkExpiresAt: Date | null;
    now: Date;
    /** False: the recipient was emailed about this DIP in the last 24 hours and is not emailed again. */
    emailRecipient?: boolean;
  },
) {
  return SHARING_EVENTS.shareCreated.envelope({
    shareId: link.shareId,
    dipId: dip._id,
    ownerUserId: dip.ownerUserId,
    sharedByName: owner.name || dip.ownerName,
    inviteType: link.recipientEmail === null ? 'open' : 'targeted',
    recipientEmail: link.recipientEmail,
    permissions: DEFAULT_SHARE_PERMISSIONS,
    message: link.message,
    quoteCode: dip.quoteCode,
    shareUrl: link.url,
    expiresAt: (link.linkExpiresAt ?? dip.expiresAt).toISOString(),
    expiresWithDip: link.linkExpiresAt === null,
    ...(link.emailRecipient === undefined ? {} : { emailRecipient: link.emailRecipient }),
    createdAt: link.now.toISOString(),
  });
}

/**
 * The DIP's open link (Copy Link): any signed-in person who opens it may read the DIP. Made, or made
 * anew with a fresh signature, with its share.created (dip learns of it, so whoever opens it may also
 * download the PDF). `asked` is an expiry of its own, kept only when earlier than the DIP's. While
 * the open link is active Copy Link gives the same URL again; once it has been revoked (by the owner
 * or a regenerate) it is made with a new nonce, so the revoked URL never opens again.
 */
async function saveOpenLink(
  deps: DipShareDeps,
  dip: DipProjection,
  owner: { name: string },
  now: Date,
  asked: Date | null,
) {
  const { links } = deps.repositories;
  const slug = dip.shareSlug as string;
  const linkExpiresAt = openLinkExpiry(asked, dip.expiresAt);
  const { shareId, url } = await deps.mongo.transaction(async (session) => {
    const existing = await links.findOpen(dip._id, session);
    const id = existing?._id ?? randomUUID();
    const linkNonce =
      existing && existing.status !== 'revoked' ? (existing.linkNonce ?? null) : newLinkNonce();
    const link = deps.signer.issue(slug, OPEN_LINK_RECIPIENT, linkExpiresAt, linkNonce);
    await links.saveOpen(
      id,
      {
        dipId: dip._id,
        shareSlug: slug,
        ownerUserId: dip.ownerUserId,
        tokenHash: link.tokenHash,
        tokenSalt: link.tokenSalt,
        permissions: DEFAULT_SHARE_PERMISSIONS,
        expiresAt: linkExpiresAt,
        linkNonce,
      },
      now,
      session,
    );
    await deps.outbox.add(
      [
        shareCreatedFor(dip, owner, {
          shareId: id,
          recipientEmail: null,
          message: null,
          url: link.url,
          linkExpiresAt,
          now,
        }),
      ],
      session,
    );
    return { shareId: id, url: link.url };
  });
  const expiresAt = linkExpiresAt ?? dip.expiresAt;
  return { url, shareId, expiresAt: expiresAt.toISOString() };
}

/** Copy Link: the owner's open link to a DIP, with an earlier expiry of its own when one is asked. */
export async function shareOpenLink(
  deps: DipShareDeps,
  dipId: string,
  owner: { userId: string; name: string },
  expiresAt: string | undefined,
) {
  const now = deps.clock.now();
  const dip = await shareableDip(deps, dipId, owner.userId, now);
  const asked = expiresAt ? new Date(expiresAt) : null;
  if (asked && asked.getTime() <= now.getTime()) throw badRequest('expiresAt must be in the future');
  const link = await saveOpenLink(deps, dip, owner, now, asked);
  return { success: true as const, ...link };
}

/**
 * 'Email Service Unavailable' (503): the emails could not be handed on for sending. The link offered
 * instead is the open link (what Copy Link gives), which the recipient can open; when even that
 * cannot be made (the database is down) the words come without a link.
 */
export async function copyLinkFallback(
  deps: DipShareDeps,
  dip: DipProjection,
  owner: { name: string },
  now: Date,
) {
  try {
    const { url } = await saveOpenLink(deps, dip, owner, now, null);
    return {
      success: false as const,
      fallback: true as const,
      shareUrl: url,
      userMessage: SHARING_MESSAGES.emailUnavailable,
      error: SHARING_MESSAGES.emailUnavailable,
    };
  } catch (err) {
    deps.logger.error({ err, dipId: dip._id }, 'the open link could not be made for the fallback either');
    return { success: false as const, error: SHARING_MESSAGES.emailUnavailable };
  }
}
export type CopyLinkFallback = Awaited<ReturnType<typeof copyLinkFallback>>;

/** Who the owner shared a DIP with: each recipient by email, and the open link while it opens. */
export async function listDipShares(deps: DipShareDeps, dipId: string, ownerUserId: string) {
  const { links, recipients } = deps.repositories;
  const now = deps.clock.now();
  const dip = await ownedDip(deps, dipId, ownerUserId, now);
  const targeted = await recipients.activeTargetedOf(dip._id, SHARED_LIST_LIMIT);
  const open = dip.shareSlug ? await links.findActiveOpen(dip._id, dip.shareSlug) : null;
  const live = open && (open.expiresAt === null || !isExpired(open.expiresAt, now)) ? open : null;
  const openedBy = live ? await recipients.countActiveThrough(dip._id, live._id) : 0;
  return {
    success: true as const,
    recipients: targeted.map((entry) => ({
      shareId: entry._id,
      email: entry.email,
      sharedAt: entry.sharedAt.toISOString(),
      viewed: entry.viewedAt !== null,
    })),
    openLink: live
      ? {
          shareId: live._id,
          createdAt: live.createdAt.toISOString(),
          expiresAt: live.expiresAt?.toISOString() ?? null,
          openedBy,
        }
      : null,
  };
}

/** The owner revokes one recipient's share or the open link, with its share.revoked. */
export async function revokeShare(
  deps: DipShareDeps,
  share: { dipId: string; shareId: string },
  ownerUserId: string,
) {
  const { links, recipients } = deps.repositories;
  const now = deps.clock.now();
  const dip = await ownedDip(deps, share.dipId, ownerUserId, now);
  const link = await links.findOfDip(dip._id, share.shareId);
  if (!link) throw notFound(SHARING_MESSAGES.shareNotFound);
  await deps.mongo.transaction(async (session) => {
    const changed = await links.revoke(link._id, session);
    // A recipient by email: their entry. The open link: the entries of everyone who came in
    // through it (someone also shared with by email keeps that share).
    const entries = await recipients.activeThrough(dip._id, link._id, session);
    await recipients.revoke(
      entries.map((entry) => entry._id),
      session,
    );
    if (!changed && entries.length === 0) return;
    // dip's grants follow the link's id (a targeted entry shares it; the open link's openers
    // hold grants under it), so one share.revoked per link ends them all.
    await deps.outbox.add(
      [
        SHARING_EVENTS.shareRevoked.envelope({
          shareId: link._id,
          dipId: dip._id,
          recipientEmail: link.inviteType === 'targeted' ? link.recipientEmail : null,
          reason: 'owner',
          revokedAt: now.toISOString(),
        }),
      ],
      session,
    );
  });
  return { success: true as const, shareId: link._id, inviteType: link.inviteType };
}
