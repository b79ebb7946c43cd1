import {
  type UserRegisteredEvent,
  type UserVerifiedEvent,
  type VerificationRequestedEvent,
  IDENTITY_EVENTS,
} from '@lsp/contracts';
import { type Clock, type EventOutbox, HttpError, conflict } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { IdentityConfig } from '../config';
import { hashPassword } from '../domain/passwords';
import type { ResendLimiter } from './throttles';
import { hashToken, randomToken } from '../domain/tokens';
import type { SessionStore } from './sessions';
import { type User, type UserDocument, type UserModel, normaliseEmail, userModel } from './users';

export const MESSAGES = {
  duplicateEmail: 'An account with this email already exists. Please sign in instead.',
  invalidToken: 'The verification link is invalid or has expired.',
  expiredToken: 'This verification link has expired. Please request a new one.',
  alreadyVerified: 'This email address has already been verified. Please sign in.',
  verified: 'Email verified successfully. You can now sign in.',
  registered: 'Registration successful! Please check your email to verify your account.',
  accountCreated: 'Account created. Please check your email to verify your address, then sign in.',
  verificationSent: 'Verification email sent. Please check your inbox.',
} as const;

interface SignUpInput {
  name: string;
  email: string;
  password: string;
  phone?: string;
  source: User['source'];
  refDealId?: string;
  fromSharedLink?: boolean;
  signupSearchData?: unknown;
  signupSearchRunId?: string;
}

/** Account rules: sign-up, verification and its emails. Sign-in and sessions live in accounts/sign-in.ts. */
export class Accounts {
  readonly users: UserModel;

  constructor(
    private readonly mongo: Connection,
    private readonly outbox: EventOutbox,
    private readonly sessions: SessionStore,
    private readonly resendLimiter: ResendLimiter,
    private readonly config: Pick<
      IdentityConfig,
      'PUBLIC_URL' | 'PASSWORD_HASH_COST' | 'VERIFICATION_TTL_HOURS'
    >,
    /** Decides when a verification link was sent, when it expires and when an email was verified. */
    private readonly clock: Clock,
  ) {
    this.users = userModel(mongo);
  }

  private newVerification(email: string) {
    const token = randomToken();
    const url = new URL('/verify-email', this.config.PUBLIC_URL);
    url.searchParams.set('token', token);
    url.searchParams.set('email', email);
    const sentAt = this.clock.now();
    return {
      token,
      url: url.toString(),
      fields: {
        verificationToken: hashToken(token),
        verificationSentAt: sentAt,
        verificationExpiresAt: new Date(sentAt.getTime() + this.config.VERIFICATION_TTL_HOURS * 3600_000),
      },
    };
  }

  private verificationRequested(
    user: UserDocument,
    verification: ReturnType<Accounts['newVerification']>,
    reason: VerificationRequestedEvent['reason'],
    correlationId?: string,
  ) {
    const data: VerificationRequestedEvent = {
      userId: user.id as string,
      email: user.email,
      name: user.name,
      verificationUrl: verification.url,
      expiresAt: verification.fields.verificationExpiresAt.toISOString(),
      reason,
    };
    return IDENTITY_EVENTS.verificationRequested.envelope(data, { correlationId });
  }

  /** Creates an unverified account and asks for its verification email, atomically. */
  async signUp(input: SignUpInput, correlationId?: string): Promise<UserDocument> {
    const email = normaliseEmail(input.email);
    if (await this.users.exists({ email })) throw conflict(MESSAGES.duplicateEmail);
    const passwordHash = await hashPassword(input.password, this.config.PASSWORD_HASH_COST);
    const verification = this.newVerification(email);
    let created: UserDocument | undefined;
    try {
      await this.mongo.transaction(async (session) => {
        [created] = await this.users.create(
          [
            {
              email,
              name: input.name.trim(),
              phone: input.phone,
              passwordHash,
              emailVerified: false,
              source: input.source,
              refDealId: input.refDealId,
              fromSharedLink: input.fromSharedLink,
              signupSearchData: input.signupSearchData,
              signupSearchRunId: input.signupSearchRunId,
              ...verification.fields,
            },
          ],
          { session },
        );
        const user = created as UserDocument;
        const registered: UserRegisteredEvent = {
          userId: user.id as string,
          email,
          name: user.name,
          source: input.source,
          refDealId: input.refDealId,
          fromSharedLink: input.fromSharedLink,
          registeredAt: user.createdAt.toISOString(),
        };
        await this.outbox.add(
          [
            IDENTITY_EVENTS.registered.envelope(registered, { correlationId }),
            this.verificationRequested(user, verification, 'registration', correlationId),
          ],
          session,
        );
      });
    } catch (err) {
      // Two sign-ups with one email at once: the unique index lets exactly one through.
      if ((err as { code?: number }).code === 11000) throw conflict(MESSAGES.duplicateEmail);
      throw err;
    }
    await this.resendLimiter.noteSent(email);
    return created as UserDocument;
  }

  /** Uses a verification token once: marks the email verified and updates open sessions. */
  async verifyEmail(token: string, correlationId?: string): Promise<UserDocument> {
    const tokenHash = hashToken(token);
    const user = await this.users.findOne({ verificationToken: tokenHash });
    if (!user) {
      const used = await this.users.findOne({ usedVerificationToken: tokenHash });
      if (used) throw this.alreadyVerified(used);
      throw new HttpError(400, MESSAGES.invalidToken, { canResend: true });
    }
    if (!user.verificationExpiresAt || user.verificationExpiresAt.getTime() <= this.clock.now().getTime()) {
      throw new HttpError(410, MESSAGES.expiredToken, {
        canResend: true,
        user: { name: user.name, email: user.email },
      });
    }
    const verifiedAt = this.clock.now();
    let updated: UserDocument | null = null;
    await this.mongo.transaction(async (session) => {
      // Conditional on the token still being outstanding: of two clicks at once, one wins.
      updated = await this.users.findOneAndUpdate(
        { _id: user._id, verificationToken: tokenHash },
        {
          $set: {
            emailVerified: true,
            verifiedAt,
            verificationToken: null,
            usedVerificationToken: tokenHash,
          },
        },
        { session, returnDocument: 'after' },
      );
      if (!updated) return;
      const data: UserVerifiedEvent = {
        userId: user.id as string,
        email: user.email,
        verifiedAt: verifiedAt.toISOString(),
        // The search run the account was created with goes to search, which saves it to the account.
        ...(user.signupSearchRunId ? { searchRunId: user.signupSearchRunId } : {}),
      };
      await this.outbox.add([IDENTITY_EVENTS.verified.envelope(data, { correlationId })], session);
    });
    if (!updated) throw this.alreadyVerified(user);
    await this.sessions.markVerified(user.id as string);
    return updated;
  }

  private alreadyVerified(user: UserDocument) {
    return new HttpError(409, MESSAGES.alreadyVerified, {
      alreadyVerified: true,
      user: { name: user.name, email: user.email },
    });
  }

  /**
   * Sends a new link (replacing the old one) to an unverified account. The allowance is taken for
   * every address asked about, and the answer is the same whether or not an account exists.
   */
  async resendVerification(rawEmail: string, correlationId?: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    await this.resendLimiter.take(email);
    const user = await this.users.findOne({ email });
    if (!user || user.emailVerified) return;
    const verification = this.newVerification(email);
    await this.mongo.transaction(async (session) => {
      await this.users.updateOne({ _id: user._id }, { $set: verification.fields }, { session });
      await this.outbox.add(
        [this.verificationRequested(user, verification, 'resend', correlationId)],
        session,
      );
    });
  }
}
