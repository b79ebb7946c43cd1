import type { Connection } from 'mongoose';
import { sharingCollections } from './collections';
import { DipProjections } from './dip-projections';
import { RecipientShares } from './recipient-shares';
import { Referrals } from './referrals';
import { ShareFunnelEvents } from './share-funnel';
import { ShareLinks } from './share-links';
import { SharedDeals } from './shared-deals';

/** One repository per collection of the `sharing` database; writes take the caller's session. */
export function sharingRepositories(connection: Connection) {
  const c = sharingCollections(connection);
  return {
    dips: new DipProjections(c.dips),
    links: new ShareLinks(c.dipShares),
    recipients: new RecipientShares(c.recipientShares),
    deals: new SharedDeals(c.sharedDeals),
    referrals: new Referrals(c.referrals),
    funnel: new ShareFunnelEvents(c.shareFunnel),
  };
}
export type SharingRepositories = ReturnType<typeof sharingRepositories>;
