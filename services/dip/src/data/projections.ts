import type {
  LoanOffer,
  LoanType,
  SearchSavedEvent,
  SharePermissions,
  ShareCreatedEvent,
  ShareViewedEvent,
} from '@lsp/contracts';
import type { ClientSession, Connection } from 'mongoose';

/**
 * What dip knows of other services, kept from their events so that no call to them is needed (DIP
 * creation works while search is down; access checks while sharing is down).
 */

export interface ProjectedSearch {
  _id: string;
  userId: string;
  loanType: LoanType;
  projectName: string | null;
  offers: LoanOffer[];
  searchData: Record<string, unknown>;
  savedAt: Date;
  /** The lender panel version the offers were priced under (absent for searches recorded before it was). */
  panelVersion?: string | null;
}

export class SavedSearchProjection {
  constructor(private readonly connection: Connection) {}

  private collection() {
    return this.connection.collection<ProjectedSearch>('saved_searches');
  }

  /**
   * A saved search never changes its offers; a redelivered event (or the event arriving after search
   * was asked directly) finds it there and changes nothing.
   */
  async record(event: SearchSavedEvent, session?: ClientSession): Promise<void> {
    await this.collection().updateOne(
      { _id: event.searchId },
      {
        $setOnInsert: {
          userId: event.userId,
          loanType: event.loanType,
          projectName: event.projectName ?? null,
          offers: event.offers,
          searchData: event.searchData,
          savedAt: new Date(event.savedAt),
          panelVersion: event.panelVersion ?? null,
        },
      },
      { upsert: true, session },
    );
  }

  async find(searchId: string): Promise<ProjectedSearch | null> {
    return this.collection().findOne({ _id: searchId });
  }
}

/** Asks the sharing service through which live shares a person may open a DIP with this slug. */
export type SharedAccessSource = (
  dipId: string,
  shareSlug: string,
  caller: { userId: string; email: string },
  /** When the owner last revoked the link: a share by email from before then grants nothing. */
  linkRevokedAt?: Date | null,
) => Promise<Array<{ shareId: string; permissions: SharePermissions }>>;

/** Asks the search service for a saved search (null: there is no such search). */
export type SavedSearchSource = (searchId: string) => Promise<SearchSavedEvent | null>;

/**
 * The saved search a DIP is made from: the projection, or, when search.saved has not arrived yet (the
 * user saved the search a moment ago), the search service itself, whose answer is then recorded as the
 * event would have been. A search saved long ago is found in the projection while search is down.
 */
export async function savedSearchFor(
  projection: SavedSearchProjection,
  askSearch: SavedSearchSource,
  searchId: string,
): Promise<ProjectedSearch | null> {
  const known = await projection.find(searchId);
  if (known) return known;
  const saved = await askSearch(searchId);
  if (!saved) return null;
  await projection.record(saved);
  return projection.find(searchId);
}

/** One way in to a DIP for someone other than its owner: a targeted share, or a person who opened an open link. */
export interface Access {
  _id: string;
  shareId: string;
  dipId: string;
  /** The slug the share's link carried: a regenerated or revoked link ends the access at once. */
  shareSlug: string | null;
  inviteType: 'targeted' | 'open';
  recipientEmail: string | null;
  recipientUserId: string | null;
  permissions: SharePermissions;
  /** The link's own expiry; null when it lasts as long as the DIP (whose own expiry is checked first). */
  expiresAt: Date | null;
  revoked: boolean;
  /** When the share was last made (its `share.created`): an older event never undoes a newer one. */
  grantedAt: Date;
  /** When it was last revoked: a `share.created` from before then does not bring it back. */
  revokedAt: Date | null;
}

/** The slug in a share link `/shared/{slug}?e=…&sig=…` (or `/dip/{slug}`). */
export function slugInShareUrl(url: string): string | null {
  try {
    const match = new URL(url).pathname.match(/^\/(?:shared|dip)\/([A-Za-z0-9_-]+)$/);
    return match?.[1] ?? null;
  } catch {
    return null;
  }
}

export class AccessProjection {
  constructor(private readonly connection: Connection) {}

  private collection() {
    return this.connection.collection<Access>('dip_access');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection().createIndex({ dipId: 1, recipientEmail: 1 }, { name: 'dip_email' });
    await this.collection().createIndex({ dipId: 1, recipientUserId: 1 }, { name: 'dip_user' });
    await this.collection().createIndex({ shareId: 1 }, { name: 'share' });
  }

  /**
   * A share made, or made again (after a revocation, a regenerated link or for a new open link): the
   * grant takes the share's current slug, permissions and expiry and is active again. Events of
   * different types may arrive out of order (a topic per type on Kafka), so each carries its time
   * and an older one never undoes a newer one.
   */
  async shareCreated(event: ShareCreatedEvent, session: ClientSession): Promise<void> {
    const grantedAt = new Date(event.createdAt);
    const existing = await this.collection().findOne({ _id: event.shareId }, { session });
    if (existing && existing.grantedAt && existing.grantedAt.getTime() >= grantedAt.getTime()) return;
    if (existing?.revokedAt && existing.revokedAt.getTime() >= grantedAt.getTime()) return;
    const terms = {
      shareSlug: slugInShareUrl(event.shareUrl),
      recipientEmail: event.recipientEmail?.toLowerCase() ?? null,
      permissions: event.permissions,
      expiresAt: event.expiresWithDip ? null : new Date(event.expiresAt),
      revoked: false,
      grantedAt,
    };
    await this.collection().updateOne(
      { _id: event.shareId },
      {
        $set: terms,
        $setOnInsert: {
          shareId: event.shareId,
          dipId: event.dipId,
          inviteType: event.inviteType,
          recipientUserId: null,
          revokedAt: null,
        },
      },
      { upsert: true, session },
    );
    // The people who opened an earlier open link keep their place under the new one's terms.
    if (event.inviteType === 'open') {
      const { recipientEmail: _shareHasNone, ...openTerms } = terms;
      await this.collection().updateMany(
        { shareId: event.shareId, _id: { $ne: event.shareId } },
        { $set: openTerms },
        { session },
      );
    }
  }

  /** Whoever opens an open link becomes a recipient of that share (targeted shares already name theirs). */
  async shareViewed(event: ShareViewedEvent, session: ClientSession): Promise<void> {
    const linkId = event.linkId ?? event.shareId;
    const share = await this.collection().findOne({ _id: linkId }, { session });
    if (!share || share.inviteType !== 'open') return;
    const { _id: _linkId, ...terms } = share;
    await this.collection().updateOne(
      { _id: `${linkId}:${event.recipientUserId}` },
      {
        $set: {
          ...terms,
          recipientEmail: event.recipientEmail.toLowerCase(),
          recipientUserId: event.recipientUserId,
        },
      },
      { upsert: true, session },
    );
  }

  /** Ends every grant of a DIP made before `revokedAt` (the owner withdrew its link). */
  async dipRevoked(dipId: string, revokedAt: Date): Promise<void> {
    await this.collection().updateMany(
      { dipId, $or: [{ grantedAt: { $lte: revokedAt } }, { grantedAt: { $exists: false } }] },
      { $set: { revoked: true, revokedAt } },
    );
  }

  /** Ends a share's grants, unless the share was made again after `revokedAt`. */
  async shareRevoked(shareId: string, revokedAt: Date, session: ClientSession): Promise<void> {
    await this.collection().updateMany(
      { shareId, $or: [{ grantedAt: { $lte: revokedAt } }, { grantedAt: { $exists: false } }] },
      { $set: { revoked: true, revokedAt } },
      { session },
    );
  }

  /**
   * The ways in that still hold for this caller: not revoked, not expired, naming the caller's email or
   * user id; a share by email whatever slug the DIP's link now has (regenerating the link keeps the
   * people it was shared with by email), an open link's only for the DIP's current slug. A DIP whose
   * link is revoked (no slug) has none.
   */
  async grantsFor(
    dip: { id: string; shareSlug: string | null; linkRevokedAt?: Date | null },
    caller: { userId: string; email: string },
    now: Date,
  ): Promise<Access[]> {
    if (!dip.shareSlug) return [];
    // A share by email made before the link was last revoked ended with it, even if its share.created
    // reached dip only afterwards.
    const targeted = dip.linkRevokedAt
      ? { inviteType: 'targeted' as const, grantedAt: { $gt: dip.linkRevokedAt } }
      : { inviteType: 'targeted' as const };
    return this.collection()
      .find({
        dipId: dip.id,
        revoked: false,
        $and: [
          { $or: [targeted, { shareSlug: dip.shareSlug }] },
          { $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
          { $or: [{ recipientEmail: caller.email.toLowerCase() }, { recipientUserId: caller.userId }] },
        ],
      })
      .toArray();
  }
}
