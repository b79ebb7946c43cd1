import type { Collection } from 'mongoose';
import type { ShareFunnelRecord } from './collections';

/** Share-funnel telemetry (`share_funnel_events`, removed by its TTL index after 90 days). */
export class ShareFunnelEvents {
  constructor(private readonly events: Collection<ShareFunnelRecord>) {}

  async record(event: ShareFunnelRecord): Promise<void> {
    await this.events.insertOne(event);
  }
}
