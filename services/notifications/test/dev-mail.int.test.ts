import {
  CookieClient,
  type Listening,
  type TestMongo,
  type TestRedis,
  TEST_SECRETS,
  leaseRedisDb,
  listen,
  silentLogger,
  startTestMongo,
} from '@lsp/testing';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import type { Connection } from 'mongoose';
import type { Transporter } from 'nodemailer';
import { notificationsConfigSchema } from '../src/config';
import { type MailCatcher, startMailCatcher } from '../src/dev-mail/catcher';
import { createMailTransport } from '../src/email/sender';
import { verificationEmail } from '../src/email/templates';
import { buildTestApp } from './test-app';

jest.setTimeout(60_000);

describe('the mail catcher at /dev/mail', () => {
  let mongo: TestMongo;
  let redis: TestRedis;
  let db: Connection;
  let catcher: MailCatcher;
  let service: Listening;
  let gateway: TestGateway;
  let transport: Transporter;

  beforeAll(async () => {
    mongo = await startTestMongo();
    redis = await leaseRedisDb();
    db = await mongo.database('notifications');
    const logger = silentLogger();
    catcher = await startMailCatcher({ port: 0, mongo: db, logger });
    const config = notificationsConfigSchema.parse({
      ...TEST_SECRETS,
      MONGO_URL: mongo.url,
      REDIS_URL: redis.url,
      MAIL_CATCHER_ENABLED: 'true',
      MAIL_CATCHER_SMTP_PORT: String(catcher.port),
    });
    service = await listen(buildTestApp(config, db));
    gateway = await startTestGateway({
      redisUrl: redis.url,
      upstreams: { notifications: service.url },
      env: { MAIL_CATCHER_ENABLED: 'true' },
    });
    // Without SMTP_URL the worker's transport points at the catcher.
    transport = createMailTransport(config);
  });

  afterAll(async () => {
    transport.close();
    await gateway.close();
    await service.close();
    await catcher.close();
    await redis.release();
    await mongo.stop();
  });

  it('keeps a sent email and lists it with its verification link clickable, escaped', async () => {
    const link = 'http://localhost:8080/verify-email?token=abc123&email=jo%40example.com';
    const email = verificationEmail({
      name: '<b>Jo</b> Bloggs',
      verificationUrl: link,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await transport.sendMail({ from: 'no-reply@loansearch.local', to: 'jo@example.com', ...email });

    const browser = new CookieClient(gateway.url);
    const list = await browser.get('/dev/mail/messages');
    expect(list.status).toBe(200);
    const [message] = list.json().messages;
    expect(message).toMatchObject({ to: ['jo@example.com'], subject: email.subject, links: [link] });

    const page = await browser.get('/dev/mail', { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain(`<a href="${link.replace(/&/g, '&amp;')}">`);
    expect(page.text).not.toContain('<b>Jo</b>');
    expect(page.text).toContain('Hi &lt;b&gt;Jo&lt;/b&gt;,');

    const one = await browser.get(`/dev/mail/messages/${message.id}`);
    expect(one.json().html).toContain('Verify email address');
  });

  it('is not served by a notifications service whose catcher is off', async () => {
    const config = notificationsConfigSchema.parse({
      ...TEST_SECRETS,
      MONGO_URL: mongo.url,
      REDIS_URL: redis.url,
    });
    const app = buildTestApp(config, db);
    const res = await app.inject({ method: 'GET', url: '/dev/mail/messages' });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});
