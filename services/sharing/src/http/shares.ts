import { randomUUID } from 'node:crypto';
import {
  DEFAULT_SHARE_PERMISSIONS,
  type DipSharedView,
  type DipState,
  SHARING_MESSAGES,
  SIMPLE_EMAIL_PATTERN,
  dipTermsOf,
} from '@lsp/contracts';
import {
  type CallerIdentity,
  type DeclaredRouteOptions,
  HttpError,
  type Logger,
  badRequest,
  forbidden,
  gone,
  notFound,
  tooManyRequests,
  unauthorized,
  type EventOutbox,
  declareRoute,
  emailNotVerified,
  type Clock,
} from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Connection } from 'mongoose';
import { AllowanceUnavailableError, type SharingAllowances } from '../data/allowances';
import type { DipProjection, DipShare, RecipientShare } from '../data/collections';
import type { SharingRepositories } from '../data/repositories';
import {
  OPEN_LINK_RECIPIENT,
  type ShareLinkSigner,
  decodeRecipient,
  newLinkNonce,
} from '../domain/signed-links';
import { catchUpWithOwner } from '../events/consumed';
import { shareCreatedEvent, shareRevokedEvent, shareViewedEvent } from '../events/published';

export interface ShareRouteDeps {
  logger: Pick<Logger, 'warn' | 'error'>;
  mongo: Connection;
  repositories: Pick<SharingRepositories, 'dips' | 'links' | 'recipients'>;
  outbox: EventOutbox;
  signer: ShareLinkSigner;
  clock: Clock;
  /** The owner's allowance of invitation emails, and who was emailed about a DIP in the last day. */
  allowances: SharingAllowances;
  /**
   * Asks the dip service for a DIP as it is now (null: no such DIP). Every decision about a DIP's link
   * is made on the owner's answer, never on the projection alone, which may not have heard yet of a
   * DIP created or a link regenerated a moment ago
   * (docs/decisions/0083-read-your-own-writes-across-services.md).
   */
  askDip: (dipId: string) => Promise<DipState | null>;
}

/** Most entries the 'Shared with me' list answers at once. */
export const SHARED_LIST_LIMIT = 1000;

const isExpired = (expiresAt: Date, now: Date) => expiresAt.getTime() <= now.getTime();

/** Sharing's routes for signed-in callers refuse others in sharing's words. */
export const SIGNED_IN: DeclaredRouteOptions = { signInMessage: SHARING_MESSAGES.authRequired };

/** The caller with the address shares are kept under (trimmed, lower case). */
function recipientOf(caller: CallerIdentity): CallerIdentity {
  return { ...caller, email: caller.email.trim().toLowerCase() };
}

/** The DIP as a recipient reads it: its detail and the snapshot, never the owner's link state. */
function dipForRecipient(dip: DipProjection, now: Date): DipSharedView {
  const expiresAt = dip.expiresAt.toISOString();
  return {
    id: dip._id,
    reference: dip.quoteCode,
    quoteCode: dip.quoteCode,
    quote_code: dip.quoteCode,
    status: isExpired(dip.expiresAt, now) ? 'expired' : 'active',
    expiresAt,
    expires_at: expiresAt,
    createdAt: dip.createdAt.toISOString(),
    shareSlug: dip.shareSlug,
    share_slug: dip.shareSlug,
    ...dipTermsOf(dip.snapshot),
    snapshot: dip.snapshot,
  };
}

function sharedDipBody(
  dip: DipProjection,
  entry: RecipientShare,
  accessMethod: 'signed-link' | 'open-link' | 'recipient',
  now: Date,
) {
  return {
    success: true as const,
    dip: dipForRecipient(dip, now),
    shareInfo: {
      shareId: entry._id,
      shared_by: entry.sharedBy,
      shared_at: entry.sharedAt.toISOString(),
      message: entry.message,
    },
    permissions: { readOnly: true as const, ...entry.permissions },
    accessMethod,
  };
}

export function sharedItemOf(entry: RecipientShare, shareSlug: string | null, now: Date) {
  const expiresAt = entry.dipExpiresAt.toISOString();
  const sharedAt = entry.sharedAt.toISOString();
  return {
    shareId: entry._id,
    shareSlug,
    dipId: entry.dipId,
    isViewed: entry.viewedAt !== null,
    isExpired: isExpired(entry.dipExpiresAt, now),
    expiresAt,
    sharedBy: entry.sharedBy,
    sharedAt,
    message: entry.message,
    quoteCode: entry.quoteCode,
    snapshot: entry.summary,
    id: entry._id,
    share_slug: shareSlug,
    quote_code: entry.quoteCode,
    status: entry.viewedAt === null ? ('new' as const) : ('viewed' as const),
    from: { name: entry.sharedBy, email: entry.sharedByEmail },
    expires_at: expiresAt,
  };
}

/**
 * share.created for a link: targeted when it names a recipient, the open link otherwise. Its expiry is
 * the link's own when it has one, else the DIP's, which it then follows.
 */
function shareCreatedFor(
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
  return shareCreatedEvent({
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

/** Sets viewedAt and publishes share.viewed, once: only the call that changes it writes the event. */
async function markViewed(deps: ShareRouteDeps, entry: RecipientShare, recipientUserId: string, now: Date) {
  if (entry.viewedAt && entry.recipientUserId) return;
  const { recipients, links } = deps.repositories;
  await deps.mongo.transaction(async (session) => {
    if (!(await recipients.markViewed(entry._id, recipientUserId, now, session))) return;
    await links.markClaimed(entry.linkId, recipientUserId, session);
    await deps.outbox.add(
      [
        shareViewedEvent({
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

export function registerShareRoutes(app: FastifyInstance, deps: ShareRouteDeps) {
  const { dips, links, recipients } = deps.repositories;

  /** The DIP as its owner holds it now, the projection brought up to it; null when there is none. */
  async function currentDip(dipId: string, now: Date): Promise<DipProjection | null> {
    const state = await deps.askDip(dipId);
    return state ? catchUpWithOwner(deps.mongo, deps.repositories, deps.outbox, state, now) : null;
  }

  /**
   * The DIP whose current link has this slug. The slug names the DIP through the projection or a link
   * signed for it (a link made since a regeneration the projection has not heard of); the owner then
   * says whether it is still the DIP's slug.
   */
  async function dipOfSlug(slug: string, now: Date): Promise<DipProjection | null> {
    const named = (await dips.idWithSlug(slug)) ?? (await links.dipIdWithSlug(slug));
    if (!named) return null;
    const dip = await currentDip(named, now);
    return dip && dip.status === 'active' && dip.shareSlug === slug ? dip : null;
  }

  /**
   * The refusal of a link whose slug names no DIP now. When the slug was its DIP's before the owner
   * regenerated the link, and the caller still has the DIP in Shared with me, the 404 says the link
   * was replaced and names the DIP, so the page can lead them to it; anyone else meets the plain 404.
   */
  async function slugRefusal(slug: string, callerEmail: string, now: Date): Promise<HttpError> {
    const named = await links.dipIdWithSlug(slug);
    const dip = named ? await currentDip(named, now) : null;
    const replaced = dip !== null && dip.status === 'active' && dip.shareSlug !== slug;
    const entry = replaced ? await recipients.findActive(dip._id, callerEmail) : null;
    if (dip && entry)
      return new HttpError(404, SHARING_MESSAGES.linkReplaced, { linkReplaced: true, dipId: dip._id });
    return notFound(SHARING_MESSAGES.notFound);
  }

  /** The DIP if the caller owns it and it can still be shared. */
  async function shareableDip(dipId: string, userId: string, now: Date): Promise<DipProjection> {
    const dip = await currentDip(dipId, now);
    if (!dip) throw notFound(SHARING_MESSAGES.notFound);
    if (dip.ownerUserId !== userId) throw forbidden(SHARING_MESSAGES.accessDenied);
    if (dip.status !== 'active' || !dip.shareSlug) throw notFound(SHARING_MESSAGES.notFound);
    if (isExpired(dip.expiresAt, now)) throw gone(SHARING_MESSAGES.expiredCannotShare);
    return dip;
  }

  /**
   * The DIP's open link (Copy Link): any signed-in person who opens it may read the DIP. Made, or made
   * anew with a fresh signature, with its share.created (dip learns of it, so whoever opens it may also
   * download the PDF). `asked` is an expiry of its own, kept only when earlier than the DIP's. While
   * the open link is active Copy Link gives the same URL again; once it has been revoked (by the owner
   * or a regenerate) it is made with a new nonce, so the revoked URL never opens again.
   */
  async function openLink(dip: DipProjection, owner: CallerIdentity, now: Date, asked: Date | null) {
    const slug = dip.shareSlug as string;
    // A link never outlives its DIP; without an expiry of its own it follows the DIP's.
    const linkExpiresAt = asked && asked.getTime() < dip.expiresAt.getTime() ? asked : null;
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

  /**
   * 'Email Service Unavailable' (503): the emails could not be handed on for sending. The link offered
   * instead is the open link (what Copy Link gives), which the recipient can open; when even that
   * cannot be made (the database is down) the words come without a link.
   */
  async function emailUnavailable(dip: DipProjection, owner: CallerIdentity, now: Date) {
    try {
      const { url } = await openLink(dip, owner, now, null);
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

  declareRoute(
    app,
    'shareDip',
    async (request, reply) => {
      const owner = recipientOf(request.caller);
      const { body } = request;
      const now = deps.clock.now();
      const dip = await shareableDip(request.params.dipId, owner.userId, now);
      const slug = dip.shareSlug as string;

      if (body.inviteType === 'open') {
        const asked = body.expiresAt ? new Date(body.expiresAt) : null;
        if (asked && asked.getTime() <= now.getTime()) throw badRequest('expiresAt must be in the future');
        const link = await openLink(dip, owner, now, asked);
        return { success: true, ...link };
      }

      const emails = [...new Set(body.recipients.map((email) => email.trim().toLowerCase()).filter(Boolean))];
      if (emails.length === 0) throw badRequest(SHARING_MESSAGES.noEmails);
      const invalid = emails.filter((email) => !SIMPLE_EMAIL_PATTERN.test(email));
      if (invalid.length > 0)
        throw badRequest(`${SHARING_MESSAGES.invalidEmails}: ${invalid.join(', ')}`, { invalid });
      // The owner already holds the DIP: a share to their own address would only put it in their own
      // 'Shared with me'. Nothing is shared when any address is the owner's.
      if (emails.includes(owner.email)) throw badRequest(SHARING_MESSAGES.ownEmailAddress);

      // One email per address per DIP per day, each from the owner's allowance (all or none); while
      // the allowance cannot be checked, nothing is emailed and the owner is offered the open link.
      let spent;
      try {
        spent = await deps.allowances.spendDipShareEmails(owner.userId, dip._id, emails, now.getTime());
      } catch (err) {
        if (!(err instanceof AllowanceUnavailableError)) throw err;
        deps.logger.error(
          { err, dipId: dip._id },
          'invitation allowance unavailable; offering the copy-link fallback',
        );
        return reply.code(503).send(await emailUnavailable(dip, owner, now));
      }
      if (!spent.allowed) {
        reply.header('retry-after', String(spent.retryAfterSeconds));
        throw tooManyRequests(SHARING_MESSAGES.tooManyInvitations, {
          retryAfterSeconds: spent.retryAfterSeconds,
        });
      }
      const toEmail = spent.toEmail;

      const results: Array<{
        email: string;
        success: boolean;
        shareId: string;
        emailed: boolean;
        note?: string;
      }> = [];
      const eventIds: string[] = [];
      try {
        // The shares and their share.created events (which the email is sent from) commit together:
        // a share exists if and only if its email was queued for delivery.
        await deps.mongo.transaction(async (session) => {
          results.length = 0;
          eventIds.length = 0;
          const events = [];
          for (const email of emails) {
            // A targeted link lasts as long as the DIP, so the same email's link is the same link.
            const link = deps.signer.issue(slug, email, null);
            const existing = await links.findTargeted(dip._id, email, session);
            const shareId = existing?._id ?? randomUUID();
            const share: DipShare = {
              _id: shareId,
              dipId: dip._id,
              shareSlug: slug,
              ownerUserId: dip.ownerUserId,
              recipientUserId: existing?.recipientUserId ?? null,
              recipientEmail: email,
              status: 'active',
              tokenHash: link.tokenHash,
              tokenSalt: link.tokenSalt,
              inviteType: 'targeted',
              permissions: DEFAULT_SHARE_PERMISSIONS,
              message: body.message,
              createdAt: existing?.createdAt ?? now,
              expiresAt: null,
              lastAccessAt: existing?.lastAccessAt ?? null,
            };
            await links.save(share, session);
            await recipients.upsert(
              dip,
              { linkId: shareId, email, inviteType: 'targeted', message: body.message, now },
              session,
            );
            events.push(
              shareCreatedFor(dip, owner, {
                shareId,
                recipientEmail: email,
                message: body.message,
                url: link.url,
                linkExpiresAt: null,
                now,
                emailRecipient: toEmail.has(email),
              }),
            );
            results.push(
              toEmail.has(email)
                ? { email, success: true, shareId, emailed: true }
                : {
                    email,
                    success: true,
                    shareId,
                    emailed: false,
                    note: SHARING_MESSAGES.alreadyEmailedToday,
                  },
            );
          }
          await deps.outbox.add(events, session);
          eventIds.push(...events.map((event) => event.id));
        });
      } catch (err) {
        // Not shared, so not emailed: sharing again must email them.
        await deps.allowances.forgetDipShareEmails(dip._id, [...toEmail]);
        if (err instanceof HttpError) throw err;
        deps.logger.error(
          { err, dipId: dip._id },
          'share could not be recorded; offering the copy-link fallback',
        );
        return reply.code(503).send(await emailUnavailable(dip, owner, now));
      }
      // The emails are sent from share.created: if it could not be handed on to the bus now, the
      // owner is told and given the open link (the shares stand; the relay sends the emails later).
      if ((await deps.outbox.handedOn?.(eventIds)) === false) {
        deps.logger.warn({ dipId: dip._id }, 'share.created not handed on; offering the copy-link fallback');
        return reply.code(503).send(await emailUnavailable(dip, owner, now));
      }
      reply.status(201);
      return { success: true, results, sent: toEmail.size, failed: 0 };
    },
    SIGNED_IN,
  );

  /** The DIP if the caller owns it (its expiry aside: an owner may always see and revoke its shares). */
  async function ownedDip(dipId: string, userId: string, now: Date): Promise<DipProjection> {
    const dip = await currentDip(dipId, now);
    if (!dip) throw notFound(SHARING_MESSAGES.notFound);
    if (dip.ownerUserId !== userId) throw forbidden(SHARING_MESSAGES.accessDenied);
    return dip;
  }

  declareRoute(
    app,
    'listDipShares',
    async (request) => {
      const now = deps.clock.now();
      const dip = await ownedDip(request.params.dipId, request.caller.userId, now);
      const targeted = await recipients.activeTargetedOf(dip._id, SHARED_LIST_LIMIT);
      const open = dip.shareSlug ? await links.findActiveOpen(dip._id, dip.shareSlug) : null;
      const live = open && (open.expiresAt === null || !isExpired(open.expiresAt, now)) ? open : null;
      const openedBy = live ? await recipients.countActiveThrough(dip._id, live._id) : 0;
      return {
        success: true,
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
    },
    SIGNED_IN,
  );

  declareRoute(
    app,
    'revokeShare',
    async (request) => {
      const now = deps.clock.now();
      const dip = await ownedDip(request.params.dipId, request.caller.userId, now);
      const link = await links.findOfDip(dip._id, request.params.shareId);
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
            shareRevokedEvent({
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
      return { success: true, shareId: link._id, inviteType: link.inviteType };
    },
    SIGNED_IN,
  );

  declareRoute(app, 'openSharedDip', async (request) => {
    const { e, sig } = request.query;
    if (!e || !sig) throw badRequest(SHARING_MESSAGES.linkMissingParameters);
    // Signed in, but only after the link's own parameters are checked (hence not declared 'session').
    if (!request.caller) throw unauthorized(SHARING_MESSAGES.authRequired);
    const caller = recipientOf(request.caller);
    const now = deps.clock.now();
    const recipient = decodeRecipient(e);
    const dip = await dipOfSlug(request.params.slug, now);
    if (!dip) throw await slugRefusal(request.params.slug, caller.email, now);
    if (!recipient) throw notFound(SHARING_MESSAGES.notFound);
    const open = recipient === OPEN_LINK_RECIPIENT;
    const link = open ? await links.findOpen(dip._id) : await links.findTargeted(dip._id, recipient);
    const signed =
      link !== null &&
      link.shareSlug === dip.shareSlug &&
      deps.signer.verify(sig, { slug: link.shareSlug, email: recipient, ...link }, now);
    if (!link || !signed) throw notFound(SHARING_MESSAGES.notFound);
    if (link.status === 'revoked') throw notFound(SHARING_MESSAGES.notFound);
    if (!open && recipient !== caller.email)
      throw new HttpError(403, SHARING_MESSAGES.wrongAccount, { canSignOut: true });
    // What is shared to an address reaches only someone who proved they hold it; an open link too,
    // since opening one puts the DIP in 'Shared with me' under the caller's address.
    if (!request.caller.verified) throw emailNotVerified();
    if ((link.expiresAt && isExpired(link.expiresAt, now)) || isExpired(dip.expiresAt, now))
      throw gone(SHARING_MESSAGES.expired);

    let entry: RecipientShare | null;
    if (open) {
      entry = await recipients.find(dip._id, caller.email);
      if (!entry || entry.status !== 'active') {
        await recipients.upsert(dip, {
          linkId: link._id,
          email: caller.email,
          inviteType: 'open',
          message: null,
          now,
        });
        entry = await recipients.find(dip._id, caller.email);
      }
    } else {
      entry = await recipients.findActive(dip._id, recipient);
    }
    if (!entry) throw notFound(SHARING_MESSAGES.notFound);
    await links.touch(link._id, now);
    await markViewed(deps, entry, caller.userId, now);
    return sharedDipBody(dip, entry, open ? 'open-link' : 'signed-link', now);
  });

  declareRoute(
    app,
    'listSharedWithMe',
    async (request) => {
      const caller = recipientOf(request.caller);
      const now = deps.clock.now();
      const entries = await recipients.activeFor(caller.email, SHARED_LIST_LIMIT);
      const slugs = await dips.slugsOf([...new Set(entries.map((entry) => entry.dipId))]);
      return {
        success: true,
        items: entries.map((entry) => sharedItemOf(entry, slugs.get(entry.dipId) ?? null, now)),
      };
    },
    SIGNED_IN,
  );

  declareRoute(
    app,
    'countUnreadShares',
    async (request) => {
      const caller = recipientOf(request.caller);
      const count = await recipients.countUnread(caller.email, deps.clock.now());
      return { success: true, count };
    },
    SIGNED_IN,
  );

  /** The caller's own entry: 404 for an unknown id, 403 for someone else's. */
  async function ownEntry(shareId: string, email: string) {
    const entry = await recipients.findById(shareId);
    if (!entry || entry.status !== 'active') throw notFound(SHARING_MESSAGES.shareNotFound);
    if (entry.email !== email) throw forbidden(SHARING_MESSAGES.accessDenied);
    return entry;
  }

  declareRoute(
    app,
    'markShareViewed',
    async (request) => {
      const caller = recipientOf(request.caller);
      const entry = await ownEntry(request.params.shareId, caller.email);
      await markViewed(deps, entry, caller.userId, deps.clock.now());
      return { success: true, shareId: entry._id, isViewed: true };
    },
    SIGNED_IN,
  );

  declareRoute(
    app,
    'getSharedDip',
    async (request) => {
      const caller = recipientOf(request.caller);
      const now = deps.clock.now();
      const dip = await currentDip(request.params.id, now);
      if (!dip) throw notFound(SHARING_MESSAGES.notFound);
      const entry = await recipients.find(dip._id, caller.email);
      if (!entry) throw forbidden(SHARING_MESSAGES.accessDenied);
      if (entry.status !== 'active' || dip.status !== 'active') throw notFound(SHARING_MESSAGES.notFound);
      if (isExpired(dip.expiresAt, now)) throw gone(SHARING_MESSAGES.expired);
      return sharedDipBody(dip, entry, 'recipient', now);
    },
    SIGNED_IN,
  );
}
