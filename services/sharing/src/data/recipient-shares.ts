import { randomUUID } from 'node:crypto';
import { DEFAULT_SHARE_PERMISSIONS, type InviteType, dipSummaryOf } from '@lsp/contracts';
import type { ClientSession, Collection } from 'mongoose';
import type { DipProjection, RecipientShare } from './collections';

/** A new entry in someone's 'Shared with me' list, or one made again. */
export interface RecipientEntry {
  linkId: string;
  email: string;
  inviteType: InviteType;
  message: string | null;
  now: Date;
}

/** The DIP's summary as the recipients' list shows it, copied so the list is one indexed read. */
function summaryOf(dip: DipProjection): RecipientShare['summary'] {
  const { projectName: _listsOnly, ...summary } = dipSummaryOf(dip.snapshot);
  return summary;
}

/** The recipients' 'Shared with me' entries (`online_dip_shares`): one per DIP and email. */
export class RecipientShares {
  constructor(private readonly entries: Collection<RecipientShare>) {}

  async findById(entryId: string): Promise<RecipientShare | null> {
    return this.entries.findOne({ _id: entryId });
  }

  /** The DIP's entry for this email, whatever its state. */
  async find(dipId: string, email: string, session?: ClientSession): Promise<RecipientShare | null> {
    return this.entries.findOne({ dipId, email }, { session });
  }

  async findActive(dipId: string, email: string): Promise<RecipientShare | null> {
    return this.entries.findOne({ dipId, email, status: 'active' });
  }

  /** The DIP's active entries, or only those of one invite type. */
  async activeOf(dipId: string, inviteType: InviteType | undefined, session: ClientSession) {
    return this.entries
      .find({ dipId, status: 'active', ...(inviteType ? { inviteType } : {}) }, { session })
      .toArray();
  }

  /** The DIP's active entries that came in through one link. */
  async activeThrough(dipId: string, linkId: string, session: ClientSession): Promise<RecipientShare[]> {
    return this.entries.find({ dipId, linkId, status: 'active' }, { session }).toArray();
  }

  async countActiveThrough(dipId: string, linkId: string): Promise<number> {
    return this.entries.countDocuments({ dipId, linkId, status: 'active' });
  }

  /** The people the owner shared the DIP with by email, newest first. */
  async activeTargetedOf(dipId: string, limit: number): Promise<RecipientShare[]> {
    return this.entries
      .find({ dipId, inviteType: 'targeted', status: 'active' })
      .sort({ sharedAt: -1 })
      .limit(limit)
      .toArray();
  }

  /** The DIPs shared with this email, newest first. */
  async activeFor(email: string, limit: number): Promise<RecipientShare[]> {
    return this.entries.find({ email, status: 'active' }).sort({ sharedAt: -1 }).limit(limit).toArray();
  }

  /** The DIP's active entries held under this email or by this person. */
  async activeForPerson(dipId: string, email: string, userId: string): Promise<RecipientShare[]> {
    return this.entries
      .find({ dipId, status: 'active', $or: [{ email }, { recipientUserId: userId }] })
      .toArray();
  }

  /** Entries not yet read whose DIP has not expired. */
  async countUnread(email: string, now: Date): Promise<number> {
    return this.entries.countDocuments({
      email,
      status: 'active',
      viewedAt: null,
      dipExpiresAt: { $gt: now },
    });
  }

  /** One entry per DIP and email; sharing again re-activates and refreshes it. */
  async upsert(dip: DipProjection, entry: RecipientEntry, session?: ClientSession): Promise<void> {
    const existing = await this.find(dip._id, entry.email, session);
    const wasActive = existing?.status === 'active';
    await this.entries.updateOne(
      { dipId: dip._id, email: entry.email },
      {
        $set: {
          linkId: entry.linkId,
          inviteType: entry.inviteType,
          status: 'active',
          sharedBy: dip.ownerName,
          sharedByEmail: dip.ownerEmail,
          ownerUserId: dip.ownerUserId,
          message: entry.message,
          quoteCode: dip.quoteCode,
          dipExpiresAt: dip.expiresAt,
          permissions: DEFAULT_SHARE_PERMISSIONS,
          summary: summaryOf(dip),
          // A share made again after its revocation is new to the recipient again.
          ...(wasActive ? {} : { sharedAt: entry.now, viewedAt: null }),
        },
        // A targeted entry shares its link's id; each person who opens the open link gets their own.
        $setOnInsert: {
          _id: entry.inviteType === 'targeted' ? entry.linkId : randomUUID(),
          recipientUserId: null,
        },
      },
      { upsert: true, session },
    );
  }

  /** True when this call is the one that marked the entry read (by this person). */
  async markViewed(
    entryId: string,
    recipientUserId: string,
    now: Date,
    session: ClientSession,
  ): Promise<boolean> {
    const result = await this.entries.updateOne(
      { _id: entryId, viewedAt: null },
      { $set: { viewedAt: now, recipientUserId } },
      { session },
    );
    return result.modifiedCount === 1;
  }

  async revoke(entryIds: string[], session: ClientSession): Promise<void> {
    await this.entries.updateMany({ _id: { $in: entryIds } }, { $set: { status: 'revoked' } }, { session });
  }

  /** Revokes the DIP's active entries, or only those of one invite type. */
  async revokeAllOf(
    dipId: string,
    inviteType: InviteType | undefined,
    session: ClientSession,
  ): Promise<void> {
    await this.entries.updateMany(
      { dipId, status: 'active', ...(inviteType ? { inviteType } : {}) },
      { $set: { status: 'revoked' } },
      { session },
    );
  }

  /** The DIP's expiry moved: every copy of it in the recipients' entries follows. */
  async setDipExpiry(dipId: string, expiresAt: Date, session: ClientSession): Promise<void> {
    await this.entries.updateMany({ dipId }, { $set: { dipExpiresAt: expiresAt } }, { session });
  }
}
