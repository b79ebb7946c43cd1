import {
  PASSWORD_MESSAGES,
  type PasswordChangedEvent,
  type PasswordResetRequestedEvent,
  IDENTITY_EVENTS,
} from '@lsp/contracts';
import { type Clock, type EventOutbox, HttpError, type Logger } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import { hashPassword } from '../domain/passwords';
import type { ResetConfig } from '../domain/throttles';
import type { ResetLimiter } from './throttles';
import { hashToken, randomToken } from '../domain/tokens';
import type { SessionStore } from './sessions';
import { type UserDocument, normaliseEmail, userModel } from './users';

/**
 * Password reset by email and password change. A reset token is 256 random bits, stored only as its
 * sha-256, works once (a conditional update) and for PASSWORD_RESET_TTL_MINUTES; a new request
 * replaces the outstanding one. Every change of password ends all the user's sessions and tells the
 * owner by email.
 */
export class PasswordResets {
  private readonly users;
  /** Work started after an answer was sent; awaited by tests and by shutdown-minded callers. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly mongo: Connection,
    private readonly outbox: EventOutbox,
    private readonly sessions: SessionStore,
    private readonly limiter: ResetLimiter,
    private readonly config: ResetConfig,
    private readonly logger: Logger,
    /** Decides when a reset link expires and when a password was changed. */
    private readonly clock: Clock,
  ) {
    this.users = userModel(mongo);
  }

  /**
   * Takes the allowance (429 past it), then answers at once: looking the address up and writing
   * the token and its email happen after the answer, so a registered address is answered as fast as
   * an unknown one and the timing does not tell them apart.
   */
  async request(rawEmail: string, clientAddress: string, correlationId?: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    await this.limiter.take(email, clientAddress);
    const work = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.sendLink(email, correlationId))
      .catch((err: unknown) => this.logger.error({ err }, 'password reset email could not be requested'))
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  /** Resolves when the work of earlier requests is done. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private async sendLink(email: string, correlationId?: string): Promise<void> {
    const user = await this.users.findOne({ email });
    if (!user) return;
    const token = randomToken();
    const url = new URL('/reset-password', this.config.PUBLIC_URL);
    url.searchParams.set('token', token);
    const expiresAt = new Date(this.clock.now().getTime() + this.config.PASSWORD_RESET_TTL_MINUTES * 60_000);
    const data: PasswordResetRequestedEvent = {
      userId: user.id as string,
      email: user.email,
      name: user.name,
      resetUrl: url.toString(),
      expiresAt: expiresAt.toISOString(),
    };
    await this.mongo.transaction(async (session) => {
      await this.users.updateOne(
        { _id: user._id },
        { $set: { passwordResetToken: hashToken(token), passwordResetExpiresAt: expiresAt } },
        { session },
      );
      await this.outbox.add(
        [IDENTITY_EVENTS.passwordResetRequested.envelope(data, { correlationId })],
        session,
      );
    });
  }

  /**
   * Uses a reset token once: stores the new password's hash, ends every session of the user and
   * asks for the "password changed" email. Unknown, used and expired tokens get the same 400.
   */
  async reset(token: string, password: string, correlationId?: string): Promise<UserDocument> {
    const tokenHash = hashToken(token);
    const user = await this.users.findOne({
      passwordResetToken: tokenHash,
      passwordResetExpiresAt: { $gt: this.clock.now() },
    });
    if (!user) throw new HttpError(400, PASSWORD_MESSAGES.resetInvalid);
    const passwordHash = await hashPassword(password, this.config.PASSWORD_HASH_COST);
    // Still outstanding and unexpired after the slow hash: of two uses of one link, one wins.
    const updated = await this.storePassword(
      user,
      passwordHash,
      { passwordResetToken: tokenHash, passwordResetExpiresAt: { $gt: this.clock.now() } },
      'reset',
      correlationId,
    );
    if (!updated) throw new HttpError(400, PASSWORD_MESSAGES.resetInvalid);
    return updated;
  }

  /** The signed-in user's new password (the current one already checked by the caller). */
  async change(user: UserDocument, password: string, correlationId?: string): Promise<UserDocument | null> {
    const passwordHash = await hashPassword(password, this.config.PASSWORD_HASH_COST);
    return this.storePassword(
      user,
      passwordHash,
      { passwordHash: user.passwordHash },
      'change',
      correlationId,
    );
  }

  /**
   * Writes the hash only while `condition` still holds (of two uses of one token, one wins), with
   * the event in the same transaction; then ends every session of the user.
   */
  private async storePassword(
    user: UserDocument,
    passwordHash: string,
    condition: Record<string, unknown>,
    how: PasswordChangedEvent['how'],
    correlationId?: string,
  ): Promise<UserDocument | null> {
    const changedAt = this.clock.now();
    let updated: UserDocument | null = null;
    await this.mongo.transaction(async (session) => {
      updated = await this.users.findOneAndUpdate(
        { _id: user._id, ...condition },
        {
          $set: {
            passwordHash,
            passwordChangedAt: changedAt,
            passwordResetToken: null,
            passwordResetExpiresAt: null,
          },
        },
        { session, returnDocument: 'after' },
      );
      if (!updated) return;
      const data: PasswordChangedEvent = {
        userId: user.id as string,
        email: user.email,
        name: user.name,
        changedAt: changedAt.toISOString(),
        how,
        forgotPasswordUrl: new URL('/forgot-password', this.config.PUBLIC_URL).toString(),
      };
      await this.outbox.add([IDENTITY_EVENTS.passwordChanged.envelope(data, { correlationId })], session);
    });
    if (updated) await this.sessions.destroyAll(user.id as string);
    return updated;
  }
}
