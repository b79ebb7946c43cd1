import { z } from 'zod';
import { defineEvent } from '../events/define';

export const IDENTITY_EVENT_TYPES = {
  registered: 'identity.user.registered',
  verificationRequested: 'identity.verification.requested',
  verified: 'identity.user.verified',
  passwordResetRequested: 'identity.password-reset.requested',
  passwordChanged: 'identity.password.changed',
} as const;

/** How the account came to be: the register page, or the create-account page after a search. */
export const SIGNUP_SOURCES = ['register', 'create-account'] as const;

export const userRegisteredEventSchema = z.object({
  userId: z.string().min(1),
  email: z.string().min(1),
  name: z.string(),
  source: z.enum(SIGNUP_SOURCES),
  refDealId: z.string().optional(),
  fromSharedLink: z.boolean().optional(),
  registeredAt: z.string().datetime(),
});
export type UserRegisteredEvent = z.infer<typeof userRegisteredEventSchema>;

/**
 * Asks for a verification email. It carries the link itself (the only place the raw token exists
 * besides the email): the token is single-use, expires in 24 hours and is stored hashed.
 */
export const verificationRequestedEventSchema = z.object({
  userId: z.string().min(1),
  email: z.string().min(1),
  name: z.string(),
  verificationUrl: z.string().url(),
  expiresAt: z.string().datetime(),
  reason: z.enum(['registration', 'resend']),
});
export type VerificationRequestedEvent = z.infer<typeof verificationRequestedEventSchema>;

export const userVerifiedEventSchema = z.object({
  userId: z.string().min(1),
  email: z.string().min(1),
  verifiedAt: z.string().datetime(),
  /**
   * The anonymous search run the account was created with (sent at registration): search saves it to
   * the account. Absent when none was sent.
   */
  searchRunId: z.string().min(1).optional(),
});
export type UserVerifiedEvent = z.infer<typeof userVerifiedEventSchema>;

/**
 * Asks for a password-reset email. Like the verification event it carries the link with the raw
 * token (single-use, short-lived, stored hashed by identity); event streams are internal.
 */
export const passwordResetRequestedEventSchema = z.object({
  userId: z.string().min(1),
  email: z.string().min(1),
  name: z.string(),
  resetUrl: z.string().url(),
  expiresAt: z.string().datetime(),
});
export type PasswordResetRequestedEvent = z.infer<typeof passwordResetRequestedEventSchema>;

/** The password was changed (by a reset link or by the signed-in user): the owner is told by email. */
export const passwordChangedEventSchema = z.object({
  userId: z.string().min(1),
  email: z.string().min(1),
  name: z.string(),
  changedAt: z.string().datetime(),
  how: z.enum(['reset', 'change']),
  /** Where the owner asks for a reset link if the change was not theirs. */
  forgotPasswordUrl: z.string().url(),
});
export type PasswordChangedEvent = z.infer<typeof passwordChangedEventSchema>;

/** Every identity event is about one user: the user's id is its subject. */
const identityEvent = <S extends z.ZodType<{ userId: string }>>(type: string, schema: S) =>
  defineEvent({ type, producer: 'identity', schema, subject: (data) => data.userId });

export const IDENTITY_EVENTS = {
  registered: identityEvent(IDENTITY_EVENT_TYPES.registered, userRegisteredEventSchema),
  verificationRequested: identityEvent(
    IDENTITY_EVENT_TYPES.verificationRequested,
    verificationRequestedEventSchema,
  ),
  verified: identityEvent(IDENTITY_EVENT_TYPES.verified, userVerifiedEventSchema),
  passwordResetRequested: identityEvent(
    IDENTITY_EVENT_TYPES.passwordResetRequested,
    passwordResetRequestedEventSchema,
  ),
  passwordChanged: identityEvent(IDENTITY_EVENT_TYPES.passwordChanged, passwordChangedEventSchema),
} as const;
