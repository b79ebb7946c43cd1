import {
  PUBLIC_API_ROUTES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGES,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TEST_EVENT_TYPE,
  buildOpenApiDocument,
  createWebhookBodySchema,
  schemaProblem,
} from '../src';

type Json = Record<string, any>;

describe('the webhook contracts', () => {
  const document = buildOpenApiDocument(PUBLIC_API_ROUTES, { title: 'API', version: '1' }) as Json;

  it("documents every event's signed POST in the OpenAPI 3.1 webhooks section", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE].sort(),
    );
    const created = document.webhooks['dip.created'].post;
    expect(created.parameters.map((p: Json) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const body = created.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['type', 'timestamp', 'data']);
    expect(body.properties.type).toEqual({ type: 'string', const: 'dip.created' });
    expect(body.properties.data.properties).toHaveProperty('quoteCode');
    // Only what the owner may see: no borrower block, no other user's address.
    expect(body.properties.data.properties).not.toHaveProperty('snapshot');
    expect(
      document.webhooks['share.viewed'].post.requestBody.content['application/json'].schema.properties.data
        .properties,
    ).not.toHaveProperty('recipientUserId');
  });

  it('retries for about a day', () => {
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThan(20 * 3600_000);
    expect(total).toBeLessThan(28 * 3600_000);
  });

  it('refuses an unknown event, an empty list, a URL that is not http(s) and unknown fields', () => {
    const url = 'https://hooks.example.com/in';
    expect(schemaProblem(createWebhookBodySchema, { url, events: ['dip.created'] })).toBeNull();
    expect(schemaProblem(createWebhookBodySchema, { url, events: ['dip.deleted'] })).toBe(
      `events.0: ${WEBHOOK_MESSAGES.unknownEvent}`,
    );
    expect(schemaProblem(createWebhookBodySchema, { url, events: [] })).toBe(
      `events: ${WEBHOOK_MESSAGES.eventsRequired}`,
    );
    expect(schemaProblem(createWebhookBodySchema, { url: 'ftp://x.example/', events: ['dip.created'] })).toBe(
      `url: ${WEBHOOK_MESSAGES.urlInvalid}`,
    );
    expect(schemaProblem(createWebhookBodySchema, { url: 'not a url', events: ['dip.created'] })).toBe(
      `url: ${WEBHOOK_MESSAGES.urlInvalid}`,
    );
    expect(
      schemaProblem(createWebhookBodySchema, { url, events: ['dip.created'], secret: 'x' }),
    ).not.toBeNull();
  });
});
