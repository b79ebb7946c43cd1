import { type Logger, RedisRateLimiter } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import type { SharingConfig } from '../config';

const HOUR_MS = 3600_000;
const MINUTE_MS = 60_000;
/** The same share-funnel event from the same visitor within this window is recorded once. */
export const TELEMETRY_DEDUPE_SECONDS = 30;

/**
 * Sharing's allowances in Redis, shared by every instance: `sharing:invitations:<userId>:<hour window>`
 * and `sharing:telemetry:<who>:<minute window>` (service-kit's limiter), and the share-funnel's
 * duplicate window `sharing:telemetry-seen:<fingerprint>`. If Redis does not answer, the call is let
 * through and the failure logged: a Redis outage must not stop people sharing.
 */
export class SharingAllowances {
  private readonly limiter: RedisRateLimiter;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly config: Pick<SharingConfig, 'INVITATIONS_PER_HOUR' | 'TELEMETRY_PER_MINUTE'>,
  ) {
    this.limiter = new RedisRateLimiter(redis, { allowWhenUnavailable: true });
  }

  private async within(key: string, limit: number, windowMs: number, now?: number) {
    const verdict = await this.limiter.hit({ key, limit, windowMs, windows: 'clock' }, now);
    if (!verdict.counted)
      this.logger.warn(
        { err: verdict.storeError, key },
        'rate limit check failed; letting the request through',
      );
    return verdict;
  }

  /** Deal shares and referrals together: one allowance per user, so nobody can spam through the platform. */
  async spendInvitation(
    userId: string,
    now?: number,
  ): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const verdict = await this.within(
      `sharing:invitations:${userId}`,
      this.config.INVITATIONS_PER_HOUR,
      HOUR_MS,
      now,
    );
    return { allowed: verdict.allowed, retryAfterSeconds: verdict.allowed ? 0 : verdict.resetSeconds };
  }

  /** Share-funnel events per visitor (user, browser session or client address) and minute. */
  async telemetryAllowed(who: string): Promise<boolean> {
    return (await this.within(`sharing:telemetry:${who}`, this.config.TELEMETRY_PER_MINUTE, MINUTE_MS))
      .allowed;
  }

  /** True the first time this fingerprint is seen within the duplicate window, and when Redis does not answer. */
  async firstSighting(fingerprint: string): Promise<boolean> {
    const first = await this.redis
      .set(`sharing:telemetry-seen:${fingerprint}`, '1', 'EX', TELEMETRY_DEDUPE_SECONDS, 'NX')
      .catch(() => 'OK');
    return first === 'OK';
  }
}
