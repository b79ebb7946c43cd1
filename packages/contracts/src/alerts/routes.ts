import { z } from 'zod';
import { INVALID_REQUEST, NOT_SIGNED_IN, defineRoute, errorAnswer } from '../api/route';

/**
 * Re-pricing alerts (owned by notifications): when a lender panel change makes the best offer of a
 * saved search better, its owner gets one email for that change, unless they turned alerts off on the
 * dashboard or through the email's unsubscribe link (which works without signing in).
 */

export const ALERT_MESSAGES = {
  badLink: 'This unsubscribe link is not valid. Turn alerts off from your dashboard instead.',
} as const;

export const alertSettingsSchema = z.object({
  /** Emails when a lender panel change improves the best offer of a saved search. On by default. */
  repricingAlerts: z.boolean(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

export const alertSettingsBodySchema = z.object({
  repricingAlerts: z.boolean({ error: 'repricingAlerts must be true or false' }),
});

const unsubscribeQuerySchema = z.object({
  token: z.string({ error: 'The unsubscribe link has no token' }).max(500, ALERT_MESSAGES.badLink).min(1),
});

export const ALERT_ROUTES = [
  defineRoute({
    operationId: 'getAlertSettings',
    method: 'GET',
    path: '/api/alerts/settings',
    service: 'notifications',
    summary: "The caller's email alert settings",
    auth: 'session',
    responses: { 200: { description: 'The settings', schema: alertSettingsSchema }, 401: NOT_SIGNED_IN },
  }),
  defineRoute({
    operationId: 'updateAlertSettings',
    method: 'PUT',
    path: '/api/alerts/settings',
    service: 'notifications',
    summary: "Turn the caller's re-pricing alerts on or off",
    auth: 'session',
    body: alertSettingsBodySchema,
    responses: {
      200: { description: 'The settings now', schema: alertSettingsSchema },
      400: INVALID_REQUEST,
      401: NOT_SIGNED_IN,
    },
  }),
  defineRoute({
    operationId: 'showAlertUnsubscribe',
    method: 'GET',
    path: '/api/alerts/unsubscribe',
    service: 'notifications',
    summary:
      "The alert email's unsubscribe page: a button that turns the alerts off (a mail scanner's visit changes nothing)",
    auth: 'public',
    query: unsubscribeQuerySchema,
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      400: errorAnswer(ALERT_MESSAGES.badLink),
    },
  }),
  defineRoute({
    operationId: 'unsubscribeFromAlerts',
    method: 'POST',
    path: '/api/alerts/unsubscribe',
    service: 'notifications',
    summary: 'Turn re-pricing alerts off by the signed token of an alert email (also one-click, RFC 8058)',
    auth: 'public',
    query: unsubscribeQuerySchema,
    responses: {
      200: { description: 'The confirmation page', contentType: 'text/html' },
      400: errorAnswer(ALERT_MESSAGES.badLink),
    },
  }),
] as const;
