import { createHash, randomUUID } from 'node:crypto';
import { type Logger, RedisRateLimiter } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import type { SharingConfig } from '../config';

const HOUR_MS = 3600_000;
const MINUTE_MS = 60_000;
/** The same share-funnel event from the same visitor within this window is recorded once. */
export const TELEMETRY_DEDUPE_SECONDS = 30;
/** One email per address per DIP within this long: a repeat share is recorded but not emailed again. */
export const DIP_EMAIL_REPEAT_WINDOW_MS = 24 * HOUR_MS;

/**
 * Spends invitation emails from a user's sliding-window allowance, in one atomic step.
 *
 * KEYS[1]: the user's log (a sorted set, one member per email sent, scored by when); KEYS[2..]: one
 * 'already emailed' marker per address of a DIP share (none for a deal share or referral).
 * ARGV: now (ms), window (ms), limit, marker lifetime (ms), a unique id for the members.
 *
 * The cost is one email per address without a live marker (1 when no marker is given). Entries older
 * than the window are dropped first, so the allowance is 'at most `limit` in any window', never a
 * clock hour. Refused: nothing is written, and the answer says when enough entries will have left the
 * window. Allowed: the entries are logged and the markers set. Answers
 * {allowed (0|1), retryAfterMs, the 1-based positions of the addresses to email...}.
 */
const SPEND_INVITATIONS = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local markerMs = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local fresh = {}
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 0 then fresh[#fresh + 1] = i - 1 end
end
local cost = #fresh
if #KEYS == 1 then cost = 1 end
local used = redis.call('ZCARD', KEYS[1])
if used + cost > limit then
  local retry = window
  local needed = used + cost - limit
  if needed <= used then
    local entry = redis.call('ZRANGE', KEYS[1], needed - 1, needed - 1, 'WITHSCORES')
    retry = tonumber(entry[2]) + window - now
  end
  return {0, retry}
end
for j = 1, cost do redis.call('ZADD', KEYS[1], now, ARGV[5] .. ':' .. j) end
if cost > 0 then redis.call('PEXPIRE', KEYS[1], window) end
for _, position in ipairs(fresh) do redis.call('SET', KEYS[position + 1], '1', 'PX', markerMs) end
local answer = {1, 0}
for _, position in ipairs(fresh) do answer[#answer + 1] = position end
return answer`;

const SPEND_COMMAND = 'sharingSpendInvitations';

type SpendingRedis = Redis & {
  [SPEND_COMMAND](keys: number, ...keysAndArgs: Array<string | number>): Promise<number[]>;
};

/** The allowance could not be asked (Redis did not answer): no invitation email may go. */
export class AllowanceUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the invitation allowance could not be checked', { cause });
    this.name = 'AllowanceUnavailableError';
  }
}

export type InvitationVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type DipShareEmailVerdict =
  { allowed: true; toEmail: Set<string> } | { allowed: false; retryAfterSeconds: number };

const addressKey = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 32);

/**
 * Sharing's allowances in Redis, shared by every instance:
 * - `sharing:invitation-log:<userId>`: every email a user had the platform send to someone else (DIP
 *   shares, deal shares, referrals), at most INVITATIONS_PER_HOUR in any 60 minutes (a sliding window:
 *   a clock-hour window let twice the limit out in two minutes around the hour). When Redis does not
 *   answer, no invitation is sent (AllowanceUnavailableError): the platform must not become a relay
 *   while it cannot count.
 * - `sharing:dip-emailed:<dipId>:<address hash>`: the address was emailed about the DIP in the last 24
 *   hours; sharing again records the share without another email.
 * - `sharing:telemetry:<who>:<minute window>` (service-kit's limiter) and the share-funnel's duplicate
 *   window `sharing:telemetry-seen:<fingerprint>`: measurements only, so these let the call through
 *   when Redis does not answer (logged).
 */
export class SharingAllowances {
  private readonly limiter: RedisRateLimiter;
  private readonly spending: SpendingRedis;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly config: Pick<SharingConfig, 'INVITATIONS_PER_HOUR' | 'TELEMETRY_PER_MINUTE'>,
  ) {
    this.limiter = new RedisRateLimiter(redis, { allowWhenUnavailable: true });
    this.spending = redis as SpendingRedis;
    if (typeof this.spending[SPEND_COMMAND] !== 'function')
      redis.defineCommand(SPEND_COMMAND, { lua: SPEND_INVITATIONS });
  }

  private async spend(userId: string, markerKeys: string[], now: number) {
    const keys = [`sharing:invitation-log:${userId}`, ...markerKeys];
    try {
      const answer = await this.spending[SPEND_COMMAND](
        keys.length,
        ...keys,
        now,
        HOUR_MS,
        this.config.INVITATIONS_PER_HOUR,
        DIP_EMAIL_REPEAT_WINDOW_MS,
        randomUUID(),
      );
      const [allowed, retryAfterMs, ...positions] = answer.map(Number);
      return {
        allowed: allowed === 1,
        retryAfterSeconds: Math.max(1, Math.ceil((retryAfterMs ?? HOUR_MS) / 1000)),
        positions: positions as number[],
      };
    } catch (err) {
      throw new AllowanceUnavailableError(err);
    }
  }

  /** Deal shares and referrals: one email from the user's allowance. */
  async spendInvitation(userId: string, now: number = Date.now()): Promise<InvitationVerdict> {
    const verdict = await this.spend(userId, [], now);
    return verdict.allowed
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: verdict.retryAfterSeconds };
  }

  /**
   * A DIP shared with these addresses (trimmed, lower case): which of them to email now. An address
   * emailed about this DIP in the last 24 hours is not emailed again and costs nothing; each other one
   * costs one email from the owner's allowance, all or none.
   */
  async spendDipShareEmails(
    userId: string,
    dipId: string,
    emails: readonly string[],
    now: number = Date.now(),
  ): Promise<DipShareEmailVerdict> {
    const verdict = await this.spend(
      userId,
      emails.map((email) => this.markerKey(dipId, email)),
      now,
    );
    if (!verdict.allowed) return { allowed: false, retryAfterSeconds: verdict.retryAfterSeconds };
    return { allowed: true, toEmail: new Set(verdict.positions.map((position) => emails[position - 1]!)) };
  }

  /**
   * Forgets that these addresses were emailed about the DIP: the share that was to email them was not
   * recorded, so sharing again must email them. Best effort (logged): at worst a retry within the day
   * records the share without the email.
   */
  async forgetDipShareEmails(dipId: string, emails: readonly string[]): Promise<void> {
    if (emails.length === 0) return;
    await this.redis.del(...emails.map((email) => this.markerKey(dipId, email))).catch((err) => {
      this.logger.warn({ err, dipId }, 'could not forget the emailed markers of a share not recorded');
    });
  }

  private markerKey(dipId: string, email: string) {
    return `sharing:dip-emailed:${dipId}:${addressKey(email)}`;
  }

  /** Share-funnel events per visitor (user, browser session or client address) and minute. */
  async telemetryAllowed(who: string): Promise<boolean> {
    const key = `sharing:telemetry:${who}`;
    const verdict = await this.limiter.hit({
      key,
      limit: this.config.TELEMETRY_PER_MINUTE,
      windowMs: MINUTE_MS,
      windows: 'clock',
    });
    if (!verdict.counted)
      this.logger.warn(
        { err: verdict.storeError, key },
        'rate limit check failed; letting the request through',
      );
    return verdict.allowed;
  }

  /** True the first time this fingerprint is seen within the duplicate window, and when Redis does not answer. */
  async firstSighting(fingerprint: string): Promise<boolean> {
    const first = await this.redis
      .set(`sharing:telemetry-seen:${fingerprint}`, '1', 'EX', TELEMETRY_DEDUPE_SECONDS, 'NX')
      .catch(() => 'OK');
    return first === 'OK';
  }
}
