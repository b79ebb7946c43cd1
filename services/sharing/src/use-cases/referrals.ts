import { randomUUID } from 'node:crypto';
import { type ReferralBody, SHARING_EVENTS } from '@lsp/contracts';
import type { CallerIdentity, Clock, EventOutbox } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { SharingConfig } from '../config';
import type { Referral } from '../data/collections';
import type { SharingRepositories } from '../data/repositories';
import { type InvitationAllowanceDeps, spendInvitation } from './invitation-allowance';

export interface ReferralDeps extends InvitationAllowanceDeps {
  config: Pick<SharingConfig, 'PUBLIC_URL'>;
  mongo: Connection;
  repositories: Pick<SharingRepositories, 'referrals'>;
  outbox: EventOutbox;
  clock: Clock;
}

/** An invitation to join the platform, from the invitation allowance, emailed from referral.created. */
export async function refer(deps: ReferralDeps, caller: CallerIdentity, input: ReferralBody) {
  await spendInvitation(deps, caller.userId);
  const now = deps.clock.now();
  const referral: Referral = {
    _id: randomUUID(),
    referrerUserId: caller.userId,
    referrerName: input.referrerName,
    referralEmail: input.referralEmail.toLowerCase(),
    message: input.message,
    createdAt: now,
  };
  await deps.mongo.transaction(async (session) => {
    await deps.repositories.referrals.insert(referral, session);
    await deps.outbox.add(
      [
        SHARING_EVENTS.referralCreated.envelope({
          referralId: referral._id,
          referrerUserId: referral.referrerUserId,
          referrerName: referral.referrerName,
          referralEmail: referral.referralEmail,
          message: referral.message,
          inviteUrl: new URL('/register', deps.config.PUBLIC_URL).toString(),
          createdAt: now.toISOString(),
        }),
      ],
      session,
    );
  });
  return { success: true as const, referralId: referral._id };
}
