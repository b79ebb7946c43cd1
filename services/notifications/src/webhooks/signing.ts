import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@lsp/contracts';

/**
 * The Standard Webhooks signature of a delivery: `v1,` and the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after
 * `whsec_`.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
