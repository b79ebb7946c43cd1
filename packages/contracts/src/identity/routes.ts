import { z } from 'zod';
import {
  FORBIDDEN,
  INVALID_REQUEST,
  NOT_SIGNED_IN,
  TOO_MANY,
  defineRoute,
  errorAnswer,
  errorResponseSchema,
} from '../api/route';
import {
  API_KEY_MESSAGES,
  apiKeyParamsSchema,
  apiKeySummarySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from './api-keys';
import {
  createAccountBodySchema,
  loginBodySchema,
  registerBodySchema,
  resendVerificationBodySchema,
  saveLeadInfoBodySchema,
  sessionUserSchema,
  verifyEmailQuerySchema,
} from './http';
import {
  changePasswordBodySchema,
  forgotPasswordBodySchema,
  passwordActionResponseSchema,
  resetPasswordBodySchema,
} from './password-reset';

/** The identity service's public routes: accounts, sessions, verification and lead details. */

const signedInUserSchema = sessionUserSchema.extend({ roles: z.array(z.string()).optional() });
const success = z.object({ success: z.literal(true) });
const successWithMessage = z.object({ success: z.literal(true), message: z.string() });
/** A verification answer that names the account and whether a new link may be asked for. */
const verificationErrorSchema = errorResponseSchema.extend({
  canResend: z.boolean().optional(),
  alreadyVerified: z.boolean().optional(),
  user: z.object({ name: z.string(), email: z.string() }).optional(),
});

export const IDENTITY_ROUTES = [
  defineRoute({
    operationId: 'getCurrentUser',
    method: 'GET',
    path: '/api/auth/me',
    service: 'identity',
    summary: 'The signed-in user (renews the session cookie)',
    auth: 'session',
    responses: {
      200: { description: 'Signed in', schema: z.object({ user: signedInUserSchema }) },
      401: NOT_SIGNED_IN,
    },
  }),
  defineRoute({
    operationId: 'login',
    method: 'POST',
    path: '/api/login',
    service: 'identity',
    summary: 'Sign in with email and password; sets the session cookie',
    auth: 'public',
    body: loginBodySchema,
    responses: {
      200: {
        description: 'Signed in',
        schema: z.object({ success: z.literal(true), user: sessionUserSchema }),
      },
      400: INVALID_REQUEST,
      401: errorAnswer('Invalid credentials'),
      429: TOO_MANY,
    },
  }),
  defineRoute({
    operationId: 'logout',
    method: 'POST',
    path: '/api/logout',
    service: 'identity',
    summary: "Sign out: ends this browser's session",
    auth: 'public',
    responses: { 200: { description: 'Signed out', schema: success } },
  }),
  defineRoute({
    operationId: 'logoutEverywhere',
    method: 'POST',
    path: '/api/auth/logout-all',
    service: 'identity',
    summary: 'Sign out everywhere: every session of the caller ends',
    auth: 'session',
    responses: {
      200: { description: 'Every session ended', schema: passwordActionResponseSchema },
      401: NOT_SIGNED_IN,
    },
  }),
  defineRoute({
    operationId: 'forgotPassword',
    method: 'POST',
    path: '/api/auth/forgot-password',
    service: 'identity',
    summary: 'Email a password reset link (the same answer whether or not the address has an account)',
    auth: 'public',
    body: forgotPasswordBodySchema,
    responses: {
      200: { description: 'Requested', schema: passwordActionResponseSchema },
      400: INVALID_REQUEST,
      429: TOO_MANY,
    },
  }),
  defineRoute({
    operationId: 'resetPassword',
    method: 'POST',
    path: '/api/auth/reset-password',
    service: 'identity',
    summary: 'Set a new password with the emailed token; every session ends',
    auth: 'public',
    body: resetPasswordBodySchema,
    responses: {
      200: { description: 'Password reset', schema: passwordActionResponseSchema },
      400: errorAnswer('Invalid request, or the token is invalid or used'),
    },
  }),
  defineRoute({
    operationId: 'changePassword',
    method: 'POST',
    path: '/api/auth/change-password',
    service: 'identity',
    summary: 'Change the password (signed in); other sessions end, this browser gets a fresh one',
    auth: 'session',
    body: changePasswordBodySchema,
    responses: {
      200: { description: 'Password changed', schema: passwordActionResponseSchema },
      400: errorAnswer('Invalid request, or the current password is wrong'),
      401: NOT_SIGNED_IN,
      409: errorAnswer('The password was changed meanwhile'),
      429: TOO_MANY,
    },
  }),
  defineRoute({
    operationId: 'register',
    method: 'POST',
    path: '/api/auth/register',
    service: 'identity',
    summary: 'Register an account; a verification email is sent',
    auth: 'public',
    body: registerBodySchema,
    responses: {
      201: {
        description: 'Registered; the email must be verified before sign-in',
        schema: z.object({
          success: z.literal(true),
          user: sessionUserSchema,
          message: z.string(),
          requiresVerification: z.boolean(),
        }),
      },
      400: INVALID_REQUEST,
      409: errorAnswer('An account with this email exists'),
    },
  }),
  defineRoute({
    operationId: 'createAccount',
    method: 'POST',
    path: '/api/create-account',
    service: 'identity',
    summary: 'Create an account after an anonymous search, keeping the search',
    auth: 'public',
    body: createAccountBodySchema,
    responses: {
      201: { description: 'Account created', schema: successWithMessage },
      400: INVALID_REQUEST,
      409: errorAnswer('An account with this email exists'),
    },
  }),
  defineRoute({
    operationId: 'verifyEmail',
    method: 'GET',
    path: '/api/verify-email',
    service: 'identity',
    summary: 'Verify an email address with the emailed token',
    auth: 'public',
    query: verifyEmailQuerySchema,
    responses: {
      200: {
        description: 'Verified',
        schema: successWithMessage.extend({
          user: z.object({ name: z.string(), email: z.string() }),
          /** The shared deal the account signed up from (`ref_deal_id`): where the person goes on to. */
          refDealId: z.string().optional(),
        }),
      },
      400: { description: 'No token, or an unknown one', schema: verificationErrorSchema },
      409: { description: 'Already verified', schema: verificationErrorSchema },
      410: { description: 'The token has expired', schema: verificationErrorSchema },
    },
  }),
  defineRoute({
    operationId: 'resendVerification',
    method: 'POST',
    path: '/api/auth/resend-verification',
    service: 'identity',
    summary: 'Send a new verification email',
    auth: 'public',
    body: resendVerificationBodySchema,
    responses: {
      200: { description: 'Sent (when the address has an unverified account)', schema: successWithMessage },
      400: INVALID_REQUEST,
      429: TOO_MANY,
    },
  }),
  defineRoute({
    operationId: 'saveLeadInfo',
    method: 'POST',
    path: '/api/save-lead-info',
    service: 'identity',
    summary: "Keep the results gate's answers on the signed-in user's record",
    auth: 'session',
    body: saveLeadInfoBodySchema,
    responses: {
      200: { description: 'Saved', schema: success },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
    },
  }),
  defineRoute({
    operationId: 'createApiKey',
    method: 'POST',
    path: '/api/api-keys',
    service: 'identity',
    summary: 'Make an API key for a broker system (shown once; only its hash is kept)',
    description:
      'Only from a signed-in browser session (a call with an API key is refused). The key is sent as ' +
      '`Authorization: Bearer <key>` and acts as its user within its `scopes` (all when left out).',
    auth: 'session',
    verifiedEmail: true,
    body: createApiKeyBodySchema,
    responses: {
      201: { description: 'Made: `key` is shown this once', schema: createdApiKeySchema },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: errorAnswer(`Not verified, or called with an API key (${API_KEY_MESSAGES.sessionOnly})`),
      409: errorAnswer(API_KEY_MESSAGES.tooMany),
    },
  }),
  defineRoute({
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api/api-keys',
    service: 'identity',
    summary: "The caller's API keys: prefix, scopes, created and last used (never the key)",
    auth: 'session',
    verifiedEmail: true,
    responses: {
      200: {
        description: 'The keys, newest first',
        schema: z.object({ apiKeys: z.array(apiKeySummarySchema) }),
      },
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
    },
  }),
  defineRoute({
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/api/api-keys/:keyId',
    service: 'identity',
    summary: 'Revoke an API key: the next call with it is 401',
    auth: 'session',
    verifiedEmail: true,
    params: apiKeyParamsSchema,
    responses: {
      200: { description: 'Revoked', schema: success },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
      403: FORBIDDEN,
      404: errorAnswer(API_KEY_MESSAGES.notFound),
    },
  }),
] as const;
