import { EMAIL_NOT_VERIFIED, SESSION_COOKIE } from '@lsp/contracts';
import {
  OutboxRelay,
  ProcessedEvents,
  RedisStreamsEventBus,
  ServiceMetrics,
  createQueue,
  Outbox,
} from '@lsp/service-kit';
import {
  CookieClient,
  type Listening,
  TEST_SECRETS,
  type TestMongo,
  type TestSmtp,
  connectedRedis,
  freePort,
  listen,
  silentLogger,
  startTestMongo,
  startTestSmtp,
} from '@lsp/testing';
import { type TestGateway, startTestGateway } from '@lsp/gateway/testing';
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Transporter } from 'nodemailer';
import { type DipHarness, startDipHarness } from '../../dip/test/dip-harness';
import { type IdentityStack, startIdentityStack } from '../../identity/test/harness';
import { notificationsConfigSchema } from '../../notifications/src/config';
import { EMAIL_QUEUE, type EmailJob } from '../../notifications/src/email/jobs';
import { createMailTransport, startEmailWorker } from '../../notifications/src/email/sender';
import { subscribeToIdentityEvents, subscribeToSharingEvents } from '../../notifications/src/events/consumed';
import { buildApp } from '../src/app';
import { sharingConfigSchema } from '../src/config';
import { type SharingCollections, ensureSharingIndexes, sharingCollections } from '../src/data/collections';
import { sharingRepositories } from '../src/data/repositories';
import { subscribeSharing } from '../src/events/consumed';
import { SHARE_LINK_SECRET } from './sharing-harness';

jest.setTimeout(120_000);

/**
 * The whole journey across services, each in-process on one Redis database and its own MongoDB
 * database, events on the Redis Streams bus: the owner makes a DIP (search, dip), shares it (sharing),
 * the email arrives over SMTP (notifications), the recipient registers, verifies and signs in
 * (identity), opens the link, and the dip service consumes share.viewed.
 */
describe('sharing a DIP, end to end', () => {
  let dip: DipHarness;
  let identity: IdentityStack;
  let mongo: TestMongo;
  let smtp: TestSmtp;
  let gateway: TestGateway;
  let sharingServer: Listening;
  let sharingRedis: Redis;
  let collections: SharingCollections;
  let sharingOutbox: Outbox;
  let queue: Queue<EmailJob>;
  let worker: Worker<EmailJob>;
  let transport: Transporter;
  const buses: RedisStreamsEventBus[] = [];
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    // dip asks sharing about shares it has not heard of yet, so it must know sharing's address first.
    const sharingPort = await freePort();
    dip = await startDipHarness({ sharingUrl: `http://127.0.0.1:${sharingPort}` });
    const redisUrl = dip.redis.url;
    // The dip harness's streams prefix: every service here must publish and consume on it.
    const prefix = (dip.bus as unknown as { prefix: string }).prefix;
    const newBus = () => {
      const bus = new RedisStreamsEventBus({ redisUrl, prefix, blockMs: 100, claimIntervalMs: 500 });
      buses.push(bus);
      return bus;
    };
    identity = await startIdentityStack({ redis: dip.redis, relayTo: dip.bus });
    mongo = await startTestMongo();
    smtp = await startTestSmtp();

    const sharingDb = await mongo.database('sharing');
    const outbox = await Outbox.open(sharingDb);
    sharingOutbox = outbox;
    collections = sharingCollections(sharingDb);
    await ensureSharingIndexes(collections);
    const sharingBus = newBus();
    const repositories = sharingRepositories(sharingDb);
    subscribeSharing(sharingBus, await ProcessedEvents.open(sharingDb), repositories, outbox);
    sharingRedis = await connectedRedis(redisUrl);
    const sharingApp = buildApp({
      config: sharingConfigSchema.parse({
        INTERNAL_SECRET: TEST_SECRETS.INTERNAL_SECRET,
        MONGO_URL: mongo.url,
        REDIS_URL: redisUrl,
        SHARE_LINK_SECRET,
        DIP_URL: dip.gateway.config.DIP_URL,
      }),
      logger: silentLogger(),
      metrics: new ServiceMetrics('sharing'),
      healthChecks: [],
      mongo: sharingDb,
      redis: sharingRedis,
      repositories,
      outbox,
    });
    sharingServer = await listen(sharingApp, sharingPort);
    // Published at commit, as in production; the relay's poll (an hour) is only the safety net.
    outbox.publishAtCommit({ bus: dip.bus });
    relays.push(new OutboxRelay({ outbox, bus: dip.bus, pollIntervalMs: 3600_000 }));

    const notificationsDb = await mongo.database('notifications');
    const config = notificationsConfigSchema.parse({
      INTERNAL_SECRET: TEST_SECRETS.INTERNAL_SECRET,
      MONGO_URL: mongo.url,
      REDIS_URL: redisUrl,
      SMTP_URL: smtp.url,
      DB_NAME: notificationsDb.name,
    });
    queue = createQueue<EmailJob>(EMAIL_QUEUE, redisUrl);
    const notificationsBus = newBus();
    const processed = await ProcessedEvents.open(notificationsDb);
    subscribeToIdentityEvents(notificationsBus, processed, queue);
    subscribeToSharingEvents(notificationsBus, processed, queue);
    transport = createMailTransport(config);
    worker = startEmailWorker({ config, logger: silentLogger(), mongo: notificationsDb, transport });

    for (const bus of buses) await bus.start();
    for (const relay of relays) relay.start();
    // One site, as the browser sees it: every service behind one gateway.
    gateway = await startTestGateway({
      redisUrl,
      upstreams: {
        identity: identity.identityUrl,
        search: dip.gateway.config.SEARCH_URL,
        dip: dip.gateway.config.DIP_URL,
        sharing: sharingServer.url,
      },
      env: { RATE_LIMIT_MAX: '100000', RATE_LIMIT_AUTH_MAX: '100000' },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    for (const relay of relays) await relay.stop();
    await sharingOutbox?.drain();
    await worker?.close();
    transport?.close();
    await queue?.close();
    for (const bus of buses) await bus.close();
    await sharingServer?.close();
    await sharingRedis?.quit();
    await smtp?.close();
    await identity?.close();
    await mongo?.stop();
    await dip?.close();
  });

  it('creates, shares, emails, registers, opens the link and the dip service learns of the view', async () => {
    // The owner: a session as the identity service would make it, used through the one gateway.
    const ownerSession = await dip.signedIn({ name: 'Olivia Owner' });
    const owner = new CookieClient(gateway.url);
    owner.setCookie(SESSION_COOKIE, ownerSession.client.cookie(SESSION_COOKIE)!);
    const searchId = await dip.savedSearch(owner, ownerSession.user.userId);
    const created = await owner.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 });
    expect(created.status).toBeLessThan(300);
    const { dipId, shareUrl } = created.json();
    // Shared at once, with no wait for dip.created: sharing asks dip about a DIP it has not heard of.

    const email = `recipient.${Date.now()}@example.co.uk`;
    const shared = await owner.post(`/api/online-dip/${dipId}/share`, {
      recipients: [email],
      message: 'Here is the DIP we discussed',
    });
    expect(shared.status).toBe(201);
    const mail = await smtp.waitForMessage(
      (m) => m.to.includes(email) && m.subject.includes('Decision in Principle'),
    );
    expect(mail.text).toContain('Here is the DIP we discussed');
    expect(mail.text).toContain('Olivia Owner');
    const link = new URL(mail.text.match(/http:\/\/localhost:8080\/shared\/\S+/)![0]);

    // The recipient has no account yet: register and sign in, before verifying the address.
    const browser = new CookieClient(gateway.url);
    const password = 'correct horse battery';
    expect(
      (await browser.post('/api/auth/register', { name: 'Rita Recipient', email, password })).status,
    ).toBe(201);
    expect((await browser.post('/api/login', { email, password })).status).toBe(200);
    const linkPath = `/api/online-dip/shared/${link.pathname.split('/').at(-1)}${link.search}`;
    // Registering the address is not proving it: the link and the list stay closed.
    const early = await browser.get(linkPath);
    expect(early.status).toBe(403);
    expect(early.json()).toEqual({ success: false, error: EMAIL_NOT_VERIFIED, verificationRequired: true });
    expect((await browser.get('/api/shared')).status).toBe(403);
    expect(await collections.recipientShares.findOne({ dipId, email, viewedAt: { $ne: null } })).toBeNull();

    // Verified from the emailed link: the same session opens it, with no new sign-in.
    const verifyMail = await smtp.waitForMessage(
      (m) => m.to.includes(email) && m.subject.startsWith('Verify'),
    );
    const token = new URL(
      verifyMail.text.match(/http:\/\/localhost:8080\/verify-email\?token=\S+/)![0],
    ).searchParams.get('token')!;
    expect((await browser.get(`/api/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);

    const opened = await browser.get(linkPath);
    expect(opened.status).toBe(200);
    expect(opened.json()).toMatchObject({
      dip: { id: dipId },
      permissions: { readOnly: true },
      accessMethod: 'signed-link',
    });
    // At once on the dip service too, whether or not share.viewed has reached it: dip asks sharing.
    const slug = new URL(shareUrl).pathname.split('/').at(-1);
    expect((await browser.get(`/api/online-dip/${slug}`)).status).toBe(200);
    const viewed = await dip.until(async () => {
      const entries = await collections.recipientShares.findOne({ dipId, email });
      return entries?.viewedAt ? entries : null;
    }, 'the share to be viewed');
    expect(viewed.recipientUserId).toBeTruthy();
    // The dip service consumed share.viewed: its processed-event marker for sharing's event.
    const entry = await sharingOutbox.collection().findOne({ type: 'share.viewed' });
    expect(entry).not.toBeNull();
    await dip.until(
      () => dip.dipDb.collection('processed_events').findOne({ eventId: entry!.eventId }),
      'the dip service to consume share.viewed',
    );
  });
});
