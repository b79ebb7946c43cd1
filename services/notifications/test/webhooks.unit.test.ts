import {
  EVENT_SCHEMAS,
  type EventType,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGES,
  WEBHOOK_RETRY_DELAYS_MS,
  createEnvelope,
  webhookPayloadSchema,
} from '@lsp/contracts';
import { ConfigError, loadConfig } from '@lsp/service-kit';
import { TEST_SECRETS } from '@lsp/testing';
import { releasedExamplesConsumedBy } from '@lsp/testing/src/released-events';
import { notificationsConfigSchema } from '../src/config';
import { webhookPayloadFor } from '../src/events/webhooks';
import { WEBHOOK_JOB_OPTIONS, webhookRetryDelay } from '../src/webhooks/delivery';
import { signWebhook } from '../src/webhooks/signing';
import { checkTarget, isPublicAddress } from '../src/webhooks/targets';

describe('webhook signatures', () => {
  it("match the Standard Webhooks reference libraries' test vector", () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('webhook targets', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.5',
    '172.16.3.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('admits %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a name with any private address, http, and credentials; pins the address it checked', async () => {
    await expect(
      checkTarget('https://hooks.example.com/in', false, resolvesTo('93.184.216.34', '10.0.0.1')),
    ).rejects.toThrow(WEBHOOK_MESSAGES.privateTarget);
    await expect(
      checkTarget('http://hooks.example.com/in', false, resolvesTo('93.184.216.34')),
    ).rejects.toThrow(WEBHOOK_MESSAGES.notHttps);
    await expect(
      checkTarget('https://a:b@hooks.example.com/', false, resolvesTo('93.184.216.34')),
    ).rejects.toThrow(WEBHOOK_MESSAGES.urlCredentials);
    await expect(checkTarget('https://[::1]:8443/', false)).rejects.toThrow(WEBHOOK_MESSAGES.privateTarget);
    await expect(
      checkTarget('https://nowhere.invalid/', false, async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toThrow(WEBHOOK_MESSAGES.unresolvable);
    const checked = await checkTarget('https://hooks.example.com/in', false, resolvesTo('93.184.216.34'));
    expect([checked.address, checked.family, checked.url.hostname]).toEqual([
      '93.184.216.34',
      4,
      'hooks.example.com',
    ]);
    // For tests and local development only.
    expect((await checkTarget('http://127.0.0.1:9/x', true)).address).toBe('127.0.0.1');
  });

  it('may not be opened to private addresses in production', () => {
    const env = {
      ...TEST_SECRETS,
      INTERNAL_SECRET: 'a-real-secret-of-enough-length',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    };
    expect(loadConfig(notificationsConfigSchema, env).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(() => loadConfig(notificationsConfigSchema, { ...env, NODE_ENV: 'production' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig(notificationsConfigSchema, { ...env, NODE_ENV: 'production' })).toThrow(
      /WEBHOOKS_ALLOW_PRIVATE_TARGETS must be off in production/,
    );
  });
});

describe('webhook retries', () => {
  it('wait 5 s, 5 min, 30 min, 2 h, 5 h, 8 h and 8 h: eight tries over about a day', () => {
    expect(WEBHOOK_JOB_OPTIONS.attempts).toBe(8);
    expect([1, 2, 3, 4, 5, 6, 7].map(webhookRetryDelay)).toEqual([...WEBHOOK_RETRY_DELAYS_MS]);
    expect(WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe(((23 * 60 + 35) * 60 + 5) * 1000);
  });
});

describe('webhook payloads', () => {
  it("turn every released example of each event into its declared body, with only the owner's own data", async () => {
    const examples = (await releasedExamplesConsumedBy('notifications')).filter((e) =>
      (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e.type),
    );
    expect(new Set(examples.map((e) => e.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    for (const example of examples) {
      const data = EVENT_SCHEMAS[example.type as EventType]![example.version]!.parse(example.payload);
      const envelope = createEnvelope('test', { type: example.type, subject: 'x', data });
      const made = webhookPayloadFor(envelope);
      expect(made).not.toBeNull();
      const type = example.type as (typeof WEBHOOK_EVENT_TYPES)[number];
      // Strict: the body holds exactly the declared fields.
      expect(webhookPayloadSchema(type).strict().safeParse(made!.payload).error).toBeUndefined();
      const text = JSON.stringify(made!.payload);
      const owner =
        (data as { ownerUserId?: string; userId?: string }).ownerUserId ??
        (data as { userId: string }).userId;
      expect(made!.userId).toBe(owner);
      for (const field of [
        'ownerEmail',
        'ownerName',
        'recipientUserId',
        'borrower',
        'userId',
        'ownerUserId',
      ]) {
        expect(text).not.toContain(`"${field}"`);
      }
    }
  });

  it("names a share's recipient only when the owner sent it to that address", () => {
    const viewed = (linkId: string | undefined) =>
      webhookPayloadFor(
        createEnvelope('sharing', {
          type: 'share.viewed',
          subject: 's',
          data: {
            shareId: 'share-1',
            dipId: '6f1c1f4e-8c1b-4f7e-9a51-0d3c4b5a6e7f',
            ownerUserId: 'owner',
            recipientUserId: 'opener',
            recipientEmail: 'opener@example.com',
            ...(linkId ? { linkId } : {}),
            viewedAt: new Date().toISOString(),
          },
        }),
      )!.payload.data;
    expect(viewed('share-1')).toMatchObject({ via: 'invitation', recipientEmail: 'opener@example.com' });
    expect(viewed('open-link')).toMatchObject({ via: 'link', recipientEmail: null });
    expect(viewed(undefined)).toMatchObject({ via: null, recipientEmail: null });
  });
});
