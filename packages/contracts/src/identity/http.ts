import { z } from 'zod';
import { CONTACT_PREFERENCES, DEFAULT_CONTACT_PREFERENCE, PROPERTIES_OWNED } from '../common/enums';
import { jsonObject } from '../common/json';
import { optionalOrNull } from '../common/optional';
import { PASSWORD_MAX_LENGTH, emailText, nameText } from '../common/text';

/**
 * Identity HTTP contracts: request bodies with the exact messages the forms show, and the response
 * shapes the browser reads. The browser validates with the same schemas before it sends.
 */

export const IDENTITY_MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  loginEmailRequired: 'Email is required',
  loginPasswordRequired: 'Password is required',
  registerName: 'Name must be at least 2 characters',
  registerNameCharacters: 'Name must not contain control or text-direction characters',
  registerPassword: 'Password must be at least 8 characters',
  registerMismatch: "Passwords don't match",
  createName: 'Full name is required',
  createNameCharacters: 'Full name must not contain control or text-direction characters',
  createEmailRequired: 'Email address is required',
  createPhone: 'Phone number is required',
  createPasswordRequired: 'Password is required',
  createPassword: 'Password must be at least 8 characters long',
  createMismatch: 'Passwords do not match',
  resendEmailRequiredTitle: 'Email Required',
  resendEmailRequired: 'Please enter your email address to resend verification.',
  noToken: 'No verification token provided',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const REGISTER_NAME_MIN_LENGTH = 2;

/** Longest name, phone and token taken: bounded so no field of a request is unbounded. */
const NAME_MAX_LENGTH = 200;
const PHONE_MAX_LENGTH = 40;
const TOKEN_MAX_LENGTH = 200;

const email = emailText({ invalid: IDENTITY_MESSAGES.invalidEmail });
/**
 * The run id of the anonymous search the person just ran (its answer's SearchRunId), sent with a new
 * account: the search service saves that run to the account once the address is verified.
 */
const searchRunId = optionalOrNull(
  z
    .string()
    .max(100, 'Search run id must be at most 100 characters')
    .pipe(z.string().regex(/^[A-Za-z0-9-]+$/, 'Search run id must be a search run id')),
);
/** A password of any content, at most PASSWORD_MAX_LENGTH characters; `required` also when it is missing. */
const password = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const loginBodySchema = z.object({
  email: emailText({
    required: IDENTITY_MESSAGES.loginEmailRequired,
    invalid: IDENTITY_MESSAGES.invalidEmail,
  }),
  password: password(IDENTITY_MESSAGES.loginPasswordRequired),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const registerBodySchema = z.object({
  name: nameText(
    z
      .string({ error: IDENTITY_MESSAGES.registerName })
      .trim()
      .min(REGISTER_NAME_MIN_LENGTH, IDENTITY_MESSAGES.registerName)
      .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`),
    IDENTITY_MESSAGES.registerNameCharacters,
  ),
  email,
  password: password(IDENTITY_MESSAGES.registerPassword).min(
    PASSWORD_MIN_LENGTH,
    IDENTITY_MESSAGES.registerPassword,
  ),
  refDealId: optionalOrNull(z.string().min(1).max(200)),
  fromSharedLink: optionalOrNull(z.boolean()),
  searchRunId,
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** The register page's form: the body plus a confirmation that must match. */
export const registerFormSchema = z
  .object({
    name: registerBodySchema.shape.name,
    email,
    password: registerBodySchema.shape.password,
    confirmPassword: z.string({ error: IDENTITY_MESSAGES.registerMismatch }).max(PASSWORD_MAX_LENGTH),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: IDENTITY_MESSAGES.registerMismatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

const createAccountFields = {
  name: nameText(
    z
      .string({ error: IDENTITY_MESSAGES.createName })
      .trim()
      .min(1, IDENTITY_MESSAGES.createName)
      .max(NAME_MAX_LENGTH, `Full name must be at most ${NAME_MAX_LENGTH} characters`),
    IDENTITY_MESSAGES.createNameCharacters,
  ),
  email: emailText({
    required: IDENTITY_MESSAGES.createEmailRequired,
    invalid: IDENTITY_MESSAGES.invalidEmail,
  }),
  phone: z
    .string({ error: IDENTITY_MESSAGES.createPhone })
    .trim()
    .min(1, IDENTITY_MESSAGES.createPhone)
    .max(PHONE_MAX_LENGTH, `Phone number must be at most ${PHONE_MAX_LENGTH} characters`),
  password: password(IDENTITY_MESSAGES.createPasswordRequired).min(
    PASSWORD_MIN_LENGTH,
    IDENTITY_MESSAGES.createPassword,
  ),
  confirmPassword: z.string({ error: IDENTITY_MESSAGES.createMismatch }).max(PASSWORD_MAX_LENGTH),
};
const passwordsMatch = <T extends { password: string; confirmPassword: string }>(form: T) =>
  form.password === form.confirmPassword;

/** The create-account page's form (after an anonymous search). */
export const createAccountFormSchema = z
  .object(createAccountFields)
  .refine(passwordsMatch, { message: IDENTITY_MESSAGES.createMismatch, path: ['confirmPassword'] });
export type CreateAccountForm = z.infer<typeof createAccountFormSchema>;

/** POST /api/create-account: the form plus the search that led here (kept with the account). */
export const createAccountBodySchema = z
  .object({ ...createAccountFields, searchData: optionalOrNull(jsonObject('searchData')), searchRunId })
  .refine(passwordsMatch, { message: IDENTITY_MESSAGES.createMismatch, path: ['confirmPassword'] });
export type CreateAccountBody = z.infer<typeof createAccountBodySchema>;

export const resendVerificationBodySchema = z.object({
  email: emailText({
    required: IDENTITY_MESSAGES.resendEmailRequired,
    invalid: IDENTITY_MESSAGES.invalidEmail,
  }),
});
export type ResendVerificationBody = z.infer<typeof resendVerificationBodySchema>;

export const verifyEmailQuerySchema = z.object({
  token: z
    .string({ error: IDENTITY_MESSAGES.noToken })
    .trim()
    .min(1, IDENTITY_MESSAGES.noToken)
    .max(TOKEN_MAX_LENGTH, IDENTITY_MESSAGES.noToken),
});

/** The signed-in user as the browser sees it. */
export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  verified: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** GET /api/auth/me (200); any non-OK answer means signed out. */
export const meResponseSchema = z.object({ user: sessionUserSchema });

/** POST /api/login: `user` on success, `error` otherwise. */
export const loginResponseSchema = z.object({
  user: sessionUserSchema.optional(),
  error: z.string().optional(),
});

/** POST /api/auth/register. `requiresVerification` is set when the account must verify its email before login. */
export const registerResponseSchema = z.object({
  user: sessionUserSchema.partial().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  requiresVerification: z.boolean().optional(),
});

export const createAccountResponseSchema = z.object({
  success: z.boolean(),
  error: z.string().optional(),
  message: z.string().optional(),
});

/** GET /api/verify-email?token= */
export const verifyEmailResponseSchema = z.object({
  success: z.boolean(),
  error: z.string().optional(),
  message: z.string().optional(),
  canResend: z.boolean().optional(),
  user: z.object({ name: z.string(), email: z.string() }).optional(),
});

/** POST /api/auth/resend-verification */
export const resendVerificationResponseSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  error: z.string().optional(),
});

/**
 * POST /api/save-lead-info: the results gate's answers, kept on the signed-in user's record.
 * `userId`, when sent, must be the caller's own id.
 */
/** Missing altogether, the results gate's answers lack what it requires: the number of properties owned. */
export const leadInfoSchema = z.object(
  {
    fullName: optionalOrNull(z.string().max(200).trim()),
    email: optionalOrNull(z.string().max(254).trim()),
    phone: optionalOrNull(z.string().max(40).trim()),
    propertiesOwned: z.enum(PROPERTIES_OWNED, { error: 'Please select number of properties' }),
    contactPreference: z
      .enum(CONTACT_PREFERENCES, {
        error: `Contact preference must be one of ${CONTACT_PREFERENCES.join(', ')}`,
      })
      .default(DEFAULT_CONTACT_PREFERENCE),
    consent: optionalOrNull(z.boolean()),
    hasViewedProperty: z.boolean().default(false),
    ownsProperty: z.boolean().default(false),
    agreedPurchasePrice: z.boolean().default(false),
  },
  { error: 'Please select number of properties' },
);
export type LeadInfo = z.infer<typeof leadInfoSchema>;

export const saveLeadInfoBodySchema = z.object({
  userId: z.string().min(1).max(100).optional(),
  leadInfo: leadInfoSchema,
  searchData: optionalOrNull(jsonObject('searchData')),
});
export type SaveLeadInfoBody = z.infer<typeof saveLeadInfoBodySchema>;

export const saveLeadInfoResponseSchema = z.object({ success: z.boolean(), error: z.string().optional() });
