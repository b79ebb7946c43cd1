import { z } from 'zod';
import { DIP_EVENT_TYPES, DIP_PRODUCT_CHANGES } from '../dip/events';
import { LOAN_TYPES } from '../common/enums';
import { REPRICING_MARKERS, SEARCH_EVENT_TYPES, repricedOfferSchema } from '../search/events';
import { SHARING_EVENT_TYPES } from '../sharing/events';

/**
 * Webhooks (owned by notifications): a broker's system registers an https endpoint for some of its
 * user's events and gets each as a signed POST, per Standard Webhooks (standardwebhooks.com): headers
 * `webhook-id` (the same on every retry), `webhook-timestamp` (unix seconds of the try) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the bytes of the
 * secret after `whsec_`, base64-decoded; the body is `{ type, timestamp, data }`.
 */

/** The events an endpoint may subscribe to: each about the endpoint owner's own things. */
export const WEBHOOK_EVENT_TYPES = [
  DIP_EVENT_TYPES.created,
  SEARCH_EVENT_TYPES.repriced,
  DIP_EVENT_TYPES.productChanged,
  SHARING_EVENT_TYPES.shareViewed,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the delivery `POST /api/webhooks/{id}/test` sends (no endpoint subscribes to it). */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** The most endpoints one account may hold. */
export const WEBHOOKS_PER_USER_MAX = 10;
/** The longest endpoint URL taken. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** How many of an endpoint's latest tries `GET /api/webhooks/{id}/deliveries` lists. */
export const WEBHOOK_DELIVERIES_LISTED = 100;
/** The mark a signing secret starts with; the rest is the base64 of its random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A try is a delivery when a 2xx answer comes within this. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * When each retry of a failed delivery is made, after the try before it: the first try at once, then
 * 5 s, 5 min, 30 min, 2 h, 5 h, 8 h and 8 h later, about a day in all (23 h 35 min). After the last
 * failure the endpoint is disabled and its owner emailed.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  8 * 3600_000,
  8 * 3600_000,
] as const;

export const WEBHOOK_MESSAGES = {
  urlRequired: 'url is required',
  urlInvalid: 'url must be an absolute https:// URL',
  urlTooLong: `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`,
  urlCredentials: 'url must not contain a user name or password',
  notHttps: 'url must use https',
  unresolvable: 'The host of url could not be resolved',
  privateTarget:
    'url must point to a public address: loopback, private, link-local and multicast addresses are refused',
  eventsRequired: 'events must name at least one event',
  unknownEvent: `events must be some of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  tooMany: `You have the most webhook endpoints an account may hold (${WEBHOOKS_PER_USER_MAX}). Delete one first.`,
  notFound: 'Webhook endpoint not found',
  badId: 'A webhook endpoint id is at most 64 characters',
  disabled: 'This webhook endpoint is disabled: delete it and add it again to receive events',
} as const;

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: WEBHOOK_MESSAGES.unknownEvent });

export const createWebhookBodySchema = z.strictObject({
  /** Checked further by the service: https, and every address its host resolves to public. */
  url: z
    .string({ error: WEBHOOK_MESSAGES.urlRequired })
    .trim()
    .min(1, WEBHOOK_MESSAGES.urlRequired)
    .max(WEBHOOK_URL_MAX_LENGTH, WEBHOOK_MESSAGES.urlTooLong)
    .pipe(z.url({ protocol: /^https?$/, error: WEBHOOK_MESSAGES.urlInvalid })),
  events: z
    .array(webhookEventTypeSchema, { error: WEBHOOK_MESSAGES.eventsRequired })
    .min(1, WEBHOOK_MESSAGES.eventsRequired)
    .max(WEBHOOK_EVENT_TYPES.length * 2, WEBHOOK_MESSAGES.unknownEvent),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;

/** An endpoint as its owner sees it in the list: never its secret. */
export const webhookSummarySchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  /** `disabled` after a delivery failed on every try; nothing more is sent to it. */
  status: z.enum(WEBHOOK_STATUSES),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
});
export type WebhookSummary = z.infer<typeof webhookSummarySchema>;

/** The answer to adding an endpoint: the only time `secret` is shown. */
export const createdWebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  /** `whsec_` + base64 of 24 random bytes: the signing key of every delivery. */
  secret: z.string(),
  createdAt: z.string(),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** Any id is looked up (another user's or an unknown one is 404); bounded so no request part is unbounded. */
export const webhookParamsSchema = z.object({ webhookId: z.string().max(64, WEBHOOK_MESSAGES.badId) });

/** One try of one delivery to an endpoint. */
export const webhookDeliverySchema = z.object({
  /** The `webhook-id` header: the same on every try of one event. */
  eventId: z.string(),
  type: z.string(),
  /** 1 for the first try. */
  attempt: z.number().int().positive(),
  /** The endpoint's HTTP status; null when no answer came (`error` says why). */
  statusCode: z.number().int().nullable(),
  /** Why the try failed without a status (a timeout, a refused address), else null. */
  error: z.string().nullable(),
  /** A 2xx came back within the timeout. */
  delivered: z.boolean(),
  at: z.string(),
  durationMs: z.number().int().nonnegative(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesResponseSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

export const webhookTestResponseSchema = z.object({
  /** The test delivery's `webhook-id`: its tries appear in the deliveries list. */
  eventId: z.string(),
  type: z.literal(WEBHOOK_TEST_EVENT_TYPE),
});

// ---- the payloads: what each delivery's body says (only what the endpoint's owner may see)

const iso = z.string();

export const webhookDipCreatedDataSchema = z.object({
  dipId: z.string(),
  quoteCode: z.string(),
  searchId: z.string(),
  loanIndex: z.number().int().nonnegative(),
  loanType: z.enum(LOAN_TYPES),
  lenderName: z.string(),
  productName: z.string(),
  netLoan: z.number(),
  grossLoan: z.number(),
  /** Annual, as a fraction. */
  interestRate: z.number(),
  termMonths: z.number().int(),
  /** The owner's share link: the online DIP page. */
  shareUrl: z.string(),
  expiresAt: iso,
  createdAt: iso,
});

export const webhookSearchRepricedDataSchema = z.object({
  searchId: z.string(),
  loanType: z.enum(LOAN_TYPES),
  projectName: z.string().nullable(),
  panelVersion: z.string(),
  previousVersion: z.string(),
  marker: z.enum(REPRICING_MARKERS),
  bestBefore: repricedOfferSchema.nullable(),
  bestAfter: repricedOfferSchema.nullable(),
  offersGained: z.number().int(),
  offersLost: z.number().int(),
  betterBest: z.boolean(),
  repricedAt: iso,
});

export const webhookDipProductChangedDataSchema = z.object({
  panelVersion: z.string(),
  changedAt: iso,
  dips: z.array(
    z.object({
      dipId: z.string(),
      quoteCode: z.string(),
      lenderName: z.string(),
      productName: z.string(),
      change: z.enum(DIP_PRODUCT_CHANGES),
    }),
  ),
});

export const webhookShareViewedDataSchema = z.object({
  shareId: z.string(),
  dipId: z.string(),
  /**
   * `invitation` when the owner shared it to the address; `link` when it came through the open link;
   * null when the event does not say (events from before the link was recorded).
   */
  via: z.enum(['invitation', 'link']).nullable(),
  /** The address the owner shared the DIP to; null for the open link (the opener's address is theirs). */
  recipientEmail: z.string().nullable(),
  viewedAt: iso,
});

export const webhookTestDataSchema = z.object({ webhookId: z.string(), message: z.string() });

/** Each event's `data`, by type (the OpenAPI document's `webhooks` section is generated from it). */
export const WEBHOOK_PAYLOAD_DATA = {
  [DIP_EVENT_TYPES.created]: {
    summary: 'A DIP of the user was created',
    schema: webhookDipCreatedDataSchema,
  },
  [SEARCH_EVENT_TYPES.repriced]: {
    summary: "A lender panel change re-priced one of the user's saved searches",
    schema: webhookSearchRepricedDataSchema,
  },
  [DIP_EVENT_TYPES.productChanged]: {
    summary: "A lender panel change withdrew or re-priced the product of some of the user's DIPs",
    schema: webhookDipProductChangedDataSchema,
  },
  [SHARING_EVENT_TYPES.shareViewed]: {
    summary: 'Someone opened a DIP the user shared (once per share, the first time)',
    schema: webhookShareViewedDataSchema,
  },
  [WEBHOOK_TEST_EVENT_TYPE]: {
    summary: 'A test delivery, sent by POST /api/webhooks/{webhookId}/test',
    schema: webhookTestDataSchema,
  },
} as const satisfies Record<
  WebhookEventType | typeof WEBHOOK_TEST_EVENT_TYPE,
  { summary: string; schema: z.ZodType }
>;

/** A delivery's body: `{ type, timestamp, data }`, `timestamp` the event's time (ISO 8601). */
export function webhookPayloadSchema<T extends keyof typeof WEBHOOK_PAYLOAD_DATA>(type: T) {
  return z.object({
    type: z.literal(type),
    timestamp: z.string(),
    data: WEBHOOK_PAYLOAD_DATA[type].schema,
  });
}
export type WebhookPayload = { type: string; timestamp: string; data: Record<string, unknown> };
