// Messages any service's refusal may carry, in a module without zod so the frontends can import it
// alone (`@lsp/contracts/src/api/messages`).

/**
 * The 403 of a `verifiedEmail` route to a caller whose address is not verified yet (with
 * `verificationRequired: true`). The spec: 'After registering, users must verify their email address'.
 */
export const EMAIL_NOT_VERIFIED =
  'Please verify your email address to continue. Check your inbox for the verification email, or send a new one.';
