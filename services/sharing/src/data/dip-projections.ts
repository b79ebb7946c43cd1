import type { ClientSession, Collection } from 'mongoose';
import type { DipProjection } from './collections';

/** The `dips` projection: what sharing knows of each DIP, kept from dip.* events and dip's answers. */
export class DipProjections {
  constructor(private readonly dips: Collection<DipProjection>) {}

  async find(dipId: string, session?: ClientSession): Promise<DipProjection | null> {
    return this.dips.findOne({ _id: dipId }, { session });
  }

  /** The DIP whose current link has this slug, as far as the projection knows. */
  async idWithSlug(slug: string): Promise<string | null> {
    return (await this.dips.findOne({ shareSlug: slug }, { projection: { _id: 1 } }))?._id ?? null;
  }

  /** The current slug of each of these DIPs that the projection knows. */
  async slugsOf(dipIds: string[]): Promise<Map<string, string | null>> {
    const found = await this.dips.find({ _id: { $in: dipIds } }, { projection: { shareSlug: 1 } }).toArray();
    return new Map(found.map((dip) => [dip._id, dip.shareSlug]));
  }

  async insert(dip: DipProjection, session: ClientSession): Promise<void> {
    await this.dips.insertOne(dip, { session });
  }

  /** Records the DIP unless the projection already has it (whatever its version). */
  async insertIfAbsent(dip: DipProjection, session: ClientSession): Promise<void> {
    await this.dips.updateOne({ _id: dip._id }, { $setOnInsert: dip }, { upsert: true, session });
  }

  /**
   * Applies an update only when its version is newer than the projection's, so a redelivered or late
   * event never rolls the DIP back. True when it changed the DIP.
   */
  async applyNewer(
    dipId: string,
    version: number,
    set: Record<string, unknown>,
    session: ClientSession,
  ): Promise<boolean> {
    const result = await this.dips.updateOne(
      { _id: dipId, version: { $lt: version } },
      { $set: { ...set, version } },
      { session },
    );
    return result.modifiedCount === 1;
  }
}
