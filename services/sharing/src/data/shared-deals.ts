import type { ClientSession, Collection } from 'mongoose';
import type { SharedDeal } from './collections';

/** Lender offers shared with a note (`shared_deals`), opened by their signup token. */
export class SharedDeals {
  constructor(private readonly deals: Collection<SharedDeal>) {}

  async insert(deal: SharedDeal, session: ClientSession): Promise<void> {
    await this.deals.insertOne(deal, { session });
  }

  async findByToken(signupToken: string): Promise<SharedDeal | null> {
    return this.deals.findOne({ signupToken });
  }

  /** True when this call is the one that marked the deal viewed. */
  async markViewed(dealId: string, now: Date, session: ClientSession): Promise<boolean> {
    const result = await this.deals.updateOne(
      { _id: dealId, viewed: false },
      { $set: { viewed: true, viewedAt: now } },
      { session },
    );
    return result.modifiedCount === 1;
  }

  /** Links the person who registered from a deal (named by its token or id) to it, if none is yet. */
  async linkRegisteredUser(tokenOrId: string, userId: string, session: ClientSession): Promise<void> {
    await this.deals.updateOne(
      { $or: [{ signupToken: tokenOrId }, { _id: tokenOrId }], linkedUserId: null },
      { $set: { linkedUserId: userId } },
      { session },
    );
  }
}
