import {
  DIP_EVENT_TYPES,
  type DipState,
  type EventEnvelope,
  IDENTITY_EVENT_TYPES,
  type ShareRevokedEvent,
  SHARING_EVENTS,
  DIP_EVENTS,
  IDENTITY_EVENTS,
} from '@lsp/contracts';
import type { EventBus, ProcessedEvents, EventOutbox } from '@lsp/service-kit';
import type { ClientSession, Connection } from 'mongoose';
import type { DipProjection } from '../data/collections';
import type { SharingRepositories } from '../data/repositories';

/** The repositories the consumers write through. */
export type ConsumerRepositories = Pick<SharingRepositories, 'dips' | 'links' | 'recipients' | 'deals'>;

export const CONSUMER = 'sharing';

/**
 * Revokes the links and recipient entries a DIP's old link no longer carries and tells the dip
 * service, one share.revoked per recipient, in the caller's transaction. A regenerated link ends the
 * open link and the access of those who came in through it; recipients shared by email keep theirs
 * (their entry and 'Shared with me' stay, only the URL with the old slug stops opening). A DIP whose
 * link was withdrawn ('dip-revoked') ends every share.
 */
async function revokeSharesOf(
  r: Pick<SharingRepositories, 'links' | 'recipients'>,
  outbox: EventOutbox,
  dipId: string,
  reason: ShareRevokedEvent['reason'],
  at: Date,
  session: ClientSession,
) {
  const inviteType = reason === 'link-regenerated' ? ('open' as const) : undefined;
  const entries = await r.recipients.activeOf(dipId, inviteType, session);
  await r.links.revokeAllOf(dipId, inviteType, session);
  await r.recipients.revokeAllOf(dipId, inviteType, session);
  await outbox.add(
    entries.map((entry) =>
      SHARING_EVENTS.shareRevoked.envelope({
        shareId: entry._id,
        dipId,
        recipientEmail: entry.email,
        reason,
        revokedAt: at.toISOString(),
      }),
    ),
    session,
  );
}

/**
 * Whether the owner revoked the DIP's link at a time the projection has not applied (its dip.revoked
 * arrived late, or the versions in between were skipped): then a new link ends every share, as the
 * revocation would have, rather than only the open link's.
 */
function missedRevocation(known: DipProjection | null, linkRevokedAt: string | null | undefined): boolean {
  if (!linkRevokedAt) return false;
  const knownAt = known?.linkRevokedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  return new Date(linkRevokedAt).getTime() > knownAt;
}

export function handleDipEvent(r: ConsumerRepositories, outbox: EventOutbox) {
  return async (envelope: EventEnvelope, session: ClientSession): Promise<void> => {
    switch (envelope.type) {
      case DIP_EVENT_TYPES.created: {
        const d = DIP_EVENTS.created.read(envelope);
        const doc = {
          ownerUserId: d.ownerUserId,
          ownerName: d.ownerName,
          ownerEmail: d.ownerEmail,
          quoteCode: d.quoteCode,
          shareSlug: d.shareSlug,
          shareUrl: d.shareUrl,
          status: 'active' as const,
          expiresAt: new Date(d.expiresAt),
          createdAt: new Date(d.createdAt),
          snapshot: d.snapshot,
        };
        const existing = await r.dips.find(d.dipId, session);
        if (!existing) await r.dips.insert({ _id: d.dipId, ...doc, version: d.version }, session);
        else await r.dips.applyNewer(d.dipId, d.version, doc, session);
        return;
      }
      case DIP_EVENT_TYPES.linkRegenerated: {
        const d = DIP_EVENTS.linkRegenerated.read(envelope);
        const known = await r.dips.find(d.dipId, session);
        const missed = missedRevocation(known, d.linkRevokedAt);
        const changed = await r.dips.applyNewer(
          d.dipId,
          d.version,
          {
            shareSlug: d.shareSlug,
            shareUrl: d.shareUrl,
            status: 'active',
            ...(d.linkRevokedAt ? { linkRevokedAt: new Date(d.linkRevokedAt) } : {}),
          },
          session,
        );
        if (changed)
          await revokeSharesOf(
            r,
            outbox,
            d.dipId,
            missed ? 'dip-revoked' : 'link-regenerated',
            new Date(d.regeneratedAt),
            session,
          );
        return;
      }
      case DIP_EVENT_TYPES.expiryChanged: {
        const d = DIP_EVENTS.expiryChanged.read(envelope);
        const expiresAt = new Date(d.expiresAt);
        if (await r.dips.applyNewer(d.dipId, d.version, { expiresAt }, session))
          await r.recipients.setDipExpiry(d.dipId, expiresAt, session);
        return;
      }
      case DIP_EVENT_TYPES.revoked: {
        const d = DIP_EVENTS.revoked.read(envelope);
        const changed = await r.dips.applyNewer(
          d.dipId,
          d.version,
          { shareSlug: null, shareUrl: null, status: 'revoked', linkRevokedAt: new Date(d.revokedAt) },
          session,
        );
        if (changed) await revokeSharesOf(r, outbox, d.dipId, 'dip-revoked', new Date(d.revokedAt), session);
        return;
      }
      default:
    }
  };
}

/** The projection of a DIP as its owner holds it at `state.version`. */
function projectionOf(state: DipState): DipProjection {
  return {
    _id: state.dipId,
    ownerUserId: state.ownerUserId,
    ownerName: state.ownerName,
    ownerEmail: state.ownerEmail,
    quoteCode: state.quoteCode,
    shareSlug: state.shareSlug,
    shareUrl: state.shareUrl,
    status: state.status,
    expiresAt: new Date(state.expiresAt),
    createdAt: new Date(state.createdAt),
    version: state.version,
    snapshot: state.snapshot,
    linkRevokedAt: state.linkRevokedAt ? new Date(state.linkRevokedAt) : null,
  };
}

/**
 * Brings the projection of a DIP up to what the dip service (its owner) answered, with the same
 * consequences the events of the versions in between would have had: a link regenerated or revoked
 * revokes the shares of the old slug, an expiry moved moves the recipients' copies. The events, when
 * they arrive, then find their version applied and change nothing. Returns the DIP as it now stands.
 */
export async function catchUpWithOwner(
  mongo: Connection,
  r: Pick<SharingRepositories, 'dips' | 'links' | 'recipients'>,
  outbox: EventOutbox,
  state: DipState,
  /** Now, by the route's clock: when the shares of an old slug count as revoked. */
  at: Date,
): Promise<DipProjection> {
  const current = projectionOf(state);
  return mongo.transaction(async (session) => {
    const existing = await r.dips.find(state.dipId, session);
    if (!existing) {
      await r.dips.insertIfAbsent(current, session);
      return current;
    }
    if (existing.version >= state.version) return existing;
    const missed = missedRevocation(existing, state.linkRevokedAt);
    const { _id: _ignored, ...fields } = current;
    if (!(await r.dips.applyNewer(state.dipId, state.version, fields, session))) return existing;
    if (existing.shareSlug !== null && existing.shareSlug !== state.shareSlug)
      await revokeSharesOf(
        r,
        outbox,
        state.dipId,
        state.status === 'revoked' || missed ? 'dip-revoked' : 'link-regenerated',
        at,
        session,
      );
    if (existing.expiresAt.getTime() !== current.expiresAt.getTime())
      await r.recipients.setDipExpiry(state.dipId, current.expiresAt, session);
    return current;
  });
}

/** A person who registered from a shared deal (refDealId: the deal's token or id) is linked to it. */
export function handleUserRegistered(deals: SharingRepositories['deals']) {
  return async (envelope: EventEnvelope, session: ClientSession): Promise<void> => {
    const d = IDENTITY_EVENTS.registered.read(envelope);
    if (!d.refDealId) return;
    await deals.linkRegisteredUser(d.refDealId, d.userId, session);
  };
}

const DIP_TYPES = [
  DIP_EVENT_TYPES.created,
  DIP_EVENT_TYPES.linkRegenerated,
  DIP_EVENT_TYPES.expiryChanged,
  DIP_EVENT_TYPES.revoked,
];

/** What sharing learns from other services; each event changes state once (marker in the same transaction). */
export function subscribeSharing(
  bus: EventBus,
  processed: ProcessedEvents,
  r: ConsumerRepositories,
  outbox: EventOutbox,
) {
  const onDip = handleDipEvent(r, outbox);
  bus.subscribe({
    readsVersion: 1,
    consumerGroup: CONSUMER,
    types: DIP_TYPES,
    handler: async (envelope) => {
      await processed.handleOnce(`${CONSUMER}:dips`, envelope, (session) => onDip(envelope, session));
    },
  });
  const onRegistered = handleUserRegistered(r.deals);
  bus.subscribe({
    readsVersion: 1,
    // A group of its own: each group reads its own topics (one Kafka consumer group per subscription).
    consumerGroup: `${CONSUMER}-registrations`,
    types: [IDENTITY_EVENT_TYPES.registered],
    handler: async (envelope) => {
      await processed.handleOnce(`${CONSUMER}:registrations`, envelope, (session) =>
        onRegistered(envelope, session),
      );
    },
  });
}
