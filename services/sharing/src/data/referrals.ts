import type { ClientSession, Collection } from 'mongoose';
import type { Referral } from './collections';

/** Invitations to join the platform (`referrals`). */
export class Referrals {
  constructor(private readonly referrals: Collection<Referral>) {}

  async insert(referral: Referral, session: ClientSession): Promise<void> {
    await this.referrals.insertOne(referral, { session });
  }
}
