import {
  IDENTITY_EVENT_TYPES,
  type PasswordChangedEvent,
  type PasswordResetRequestedEvent,
  type UserRegisteredEvent,
  type UserVerifiedEvent,
  type VerificationRequestedEvent,
  createEnvelope,
} from '@lsp/contracts';

export const SERVICE_NAME = 'identity';

/** Every identity event is about one user: the user's id is the subject. */
const identityEvent =
  <T extends { userId: string }>(type: string) =>
  (data: T, correlationId?: string) =>
    createEnvelope(SERVICE_NAME, { type, subject: data.userId, data, correlationId });

export const userRegisteredEvent = identityEvent<UserRegisteredEvent>(IDENTITY_EVENT_TYPES.registered);
export const verificationRequestedEvent = identityEvent<VerificationRequestedEvent>(
  IDENTITY_EVENT_TYPES.verificationRequested,
);
export const userVerifiedEvent = identityEvent<UserVerifiedEvent>(IDENTITY_EVENT_TYPES.verified);
export const passwordResetRequestedEvent = identityEvent<PasswordResetRequestedEvent>(
  IDENTITY_EVENT_TYPES.passwordResetRequested,
);
export const passwordChangedEvent = identityEvent<PasswordChangedEvent>(IDENTITY_EVENT_TYPES.passwordChanged);
