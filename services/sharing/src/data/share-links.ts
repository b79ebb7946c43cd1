import type { InviteType } from '@lsp/contracts';
import type { ClientSession, Collection } from 'mongoose';
import type { DipShare } from './collections';

/** What an open link's record says; the rest is kept from when it was first made. */
export type OpenLinkFields = Pick<
  DipShare,
  | 'dipId'
  | 'shareSlug'
  | 'ownerUserId'
  | 'tokenHash'
  | 'tokenSalt'
  | 'permissions'
  | 'expiresAt'
  | 'linkNonce'
>;

/** The signed links (`dip_shares`): one per DIP, invite type and recipient email (null for the open link). */
export class ShareLinks {
  constructor(private readonly links: Collection<DipShare>) {}

  async findOfDip(dipId: string, linkId: string): Promise<DipShare | null> {
    return this.links.findOne({ _id: linkId, dipId });
  }

  async findByIds(linkIds: string[]): Promise<DipShare[]> {
    return this.links.find({ _id: { $in: linkIds } }).toArray();
  }

  /** The DIP a link signed for this slug belongs to (a slug the projection may not have heard of yet). */
  async dipIdWithSlug(slug: string): Promise<string | null> {
    return (await this.links.findOne({ shareSlug: slug }, { projection: { dipId: 1 } }))?.dipId ?? null;
  }

  /** The DIP's open link, whatever its state. */
  async findOpen(dipId: string, session?: ClientSession): Promise<DipShare | null> {
    return this.links.findOne({ dipId, inviteType: 'open', recipientEmail: null }, { session });
  }

  /** The DIP's link for this recipient's email, whatever its state. */
  async findTargeted(dipId: string, email: string, session?: ClientSession): Promise<DipShare | null> {
    return this.links.findOne({ dipId, inviteType: 'targeted', recipientEmail: email }, { session });
  }

  /** The DIP's open link if it is active and signed for this slug. */
  async findActiveOpen(dipId: string, slug: string): Promise<DipShare | null> {
    return this.links.findOne({ dipId, inviteType: 'open', status: 'active', shareSlug: slug });
  }

  /** Makes the open link, or makes it anew (active, with a fresh signature), under `linkId`. */
  async saveOpen(linkId: string, fields: OpenLinkFields, now: Date, session: ClientSession): Promise<void> {
    await this.links.updateOne(
      { _id: linkId },
      {
        $set: { ...fields, inviteType: 'open', recipientEmail: null, status: 'active' },
        $setOnInsert: { recipientUserId: null, message: null, createdAt: now, lastAccessAt: null },
      },
      { upsert: true, session },
    );
  }

  /** Writes the link whole (a targeted link, made or made again). */
  async save(link: DipShare, session: ClientSession): Promise<void> {
    await this.links.replaceOne({ _id: link._id }, link, { upsert: true, session });
  }

  /** A targeted link opened by its recipient: claimed by that person. */
  async markClaimed(linkId: string, recipientUserId: string, session: ClientSession): Promise<void> {
    await this.links.updateOne(
      { _id: linkId, inviteType: 'targeted' },
      { $set: { recipientUserId, status: 'claimed' } },
      { session },
    );
  }

  async touch(linkId: string, now: Date): Promise<void> {
    await this.links.updateOne({ _id: linkId }, { $set: { lastAccessAt: now } });
  }

  /** True when the link was not revoked before. */
  async revoke(linkId: string, session: ClientSession): Promise<boolean> {
    const result = await this.links.updateOne(
      { _id: linkId, status: { $ne: 'revoked' } },
      { $set: { status: 'revoked' } },
      { session },
    );
    return result.modifiedCount === 1;
  }

  /** Revokes every live link of the DIP, or only those of one invite type. */
  async revokeAllOf(
    dipId: string,
    inviteType: InviteType | undefined,
    session: ClientSession,
  ): Promise<void> {
    await this.links.updateMany(
      { dipId, status: { $in: ['active', 'claimed'] }, ...(inviteType ? { inviteType } : {}) },
      { $set: { status: 'revoked' } },
      { session },
    );
  }
}
