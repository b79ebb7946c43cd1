import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../common/text';
import { IDENTITY_MESSAGES, loginBodySchema, registerBodySchema } from './http';

/**
 * Password reset, password change and signing out everywhere. The spec has no routes or wording for
 * these; they are the product team's (docs/decisions/0071-sessions-end-passwords-can-be-reset-scrypt-at-2-17.md). New passwords follow the registration rules
 * (`registerBodySchema.shape.password`), so every form and the server agree.
 */
export const PASSWORD_MESSAGES = {
  /** The same answer whether or not the address has an account. */
  resetRequested:
    'If an account exists for that email address, we have sent a link to reset your password. Please check your inbox.',
  resetTooSoon:
    'A password reset email was sent very recently. Please wait a minute before asking for another.',
  resetTooMany: 'Too many password reset requests. Please try again later.',
  noResetToken: 'No password reset token provided',
  resetInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  resetDone: 'Your password has been reset. Please sign in with your new password.',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Your current password is incorrect.',
  changed: 'Your password has been changed. You have been signed out on your other devices.',
  signedOutEverywhere: 'You have been signed out on every device.',
} as const;

const RESET_TOKEN_MAX_LENGTH = 200;
const newPassword = registerBodySchema.shape.password;
const confirmation = z.string({ error: IDENTITY_MESSAGES.registerMismatch }).max(PASSWORD_MAX_LENGTH);
/** The new password twice, with the registration rules: `withMatchingPasswords` checks they agree. */
const newPasswordTwice = { password: newPassword, confirmPassword: confirmation };

function withMatchingPasswords<Schema extends z.ZodType<{ password: string; confirmPassword: string }>>(
  schema: Schema,
): Schema {
  return schema.refine((form) => form.password === form.confirmPassword, {
    message: IDENTITY_MESSAGES.registerMismatch,
    path: ['confirmPassword'],
  });
}

/** POST /api/auth/forgot-password (and the forgot-password form). */
export const forgotPasswordBodySchema = z.object({ email: loginBodySchema.shape.email });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

/** The reset page's form: the new password twice, with the registration rules. */
export const resetPasswordFormSchema = withMatchingPasswords(z.object(newPasswordTwice));
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/** POST /api/auth/reset-password: the emailed token plus the form. */
export const resetPasswordBodySchema = withMatchingPasswords(
  z.object({
    token: z
      .string({ error: PASSWORD_MESSAGES.noResetToken })
      .trim()
      .min(1, PASSWORD_MESSAGES.noResetToken)
      .max(RESET_TOKEN_MAX_LENGTH, PASSWORD_MESSAGES.resetInvalid),
    ...newPasswordTwice,
  }),
);
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** POST /api/auth/change-password (signed in): the current password and the new one twice. */
export const changePasswordBodySchema = withMatchingPasswords(
  z.object({
    currentPassword: z
      .string({ error: PASSWORD_MESSAGES.currentPasswordRequired })
      .min(1, PASSWORD_MESSAGES.currentPasswordRequired)
      .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.currentPasswordWrong),
    ...newPasswordTwice,
  }),
);
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** The answer of forgot-password, reset-password, change-password and logout-all. */
export const passwordActionResponseSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  error: z.string().optional(),
});
