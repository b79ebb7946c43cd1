import { OutboxRelay, ProcessedEvents, RedisStreamsEventBus, createQueue } from '@lsp/service-kit';
import { type TestMongo, type TestSmtp, silentLogger, startTestMongo, startTestSmtp } from '@lsp/testing';
import type { Queue, Worker } from 'bullmq';
import type { Transporter } from 'nodemailer';
import { notificationsConfigSchema } from '../../notifications/src/config';
import { EMAIL_QUEUE, type EmailJob } from '../../notifications/src/email/jobs';
import { createMailTransport, startEmailWorker } from '../../notifications/src/email/sender';
import { handleSharingEvent, subscribeToSharingEvents } from '../../notifications/src/events/consumed';
import { type SharingHarness, startSharingHarness } from './sharing-harness';

jest.setTimeout(60_000);

/**
 * Sharing's outbox → the bus → notifications → the BullMQ `email` queue → the worker → SMTP: each
 * email a share, a deal and a referral asks for arrives once, with the sender, the message and the link.
 */
describe('sharing emails over SMTP', () => {
  let h: SharingHarness;
  let notificationsMongo: TestMongo;
  let smtp: TestSmtp;
  let relayBus: RedisStreamsEventBus;
  let consumerBus: RedisStreamsEventBus;
  let relay: OutboxRelay;
  let queue: Queue<EmailJob>;
  let worker: Worker<EmailJob>;
  let transport: Transporter;
  let processed: ProcessedEvents;

  beforeAll(async () => {
    h = await startSharingHarness();
    smtp = await startTestSmtp();
    notificationsMongo = await startTestMongo();
    const db = await notificationsMongo.database('notifications');
    const config = notificationsConfigSchema.parse({
      INTERNAL_SECRET: 'test-internal-secret-0123456789abcdef',
      MONGO_URL: notificationsMongo.url,
      REDIS_URL: h.redisUrl,
      SMTP_URL: smtp.url,
      DB_NAME: db.name,
    });
    relayBus = new RedisStreamsEventBus({ redisUrl: h.redisUrl, prefix: 'events:' });
    consumerBus = new RedisStreamsEventBus({ redisUrl: h.redisUrl, prefix: 'events:', blockMs: 100 });
    processed = await ProcessedEvents.open(db);
    queue = createQueue<EmailJob>(EMAIL_QUEUE, h.redisUrl);
    subscribeToSharingEvents(consumerBus, processed, queue);
    await consumerBus.start();
    transport = createMailTransport(config);
    worker = startEmailWorker({ config, logger: silentLogger(), mongo: db, transport });
    relay = new OutboxRelay({ outbox: h.outbox, bus: relayBus, pollIntervalMs: 100 });
    relay.start();
  });

  afterAll(async () => {
    await relay?.stop();
    await worker?.close();
    transport?.close();
    await queue?.close();
    await consumerBus?.close();
    await relayBus?.close();
    await smtp?.close();
    await notificationsMongo?.stop();
    await h?.close();
  });

  it('emails a targeted share its signed link, which opens the DIP for that recipient', async () => {
    const owner = await h.signedIn({ name: 'Olivia <Owner>' });
    const dip = await h.createDip(owner.user);
    const email = `recipient.${Date.now()}@example.co.uk`;
    const shared = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
      recipients: [email],
      message: 'Numbers <b>look</b> good & ready',
    });
    expect(shared.status).toBe(201);
    const mail = await smtp.waitForMessage((m) => m.to.includes(email));
    expect(mail.subject).toBe('Olivia <Owner> shared a Decision in Principle with you');
    expect(mail.text).toContain('Numbers <b>look</b> good & ready');
    expect(mail.html).toContain('Numbers &lt;b&gt;look&lt;/b&gt; good &amp; ready');
    expect(mail.html).not.toContain('<b>look</b>');
    expect(mail.html).toContain('Olivia &lt;Owner&gt;');
    const link = new URL(mail.text.match(/http:\/\/localhost:8080\/shared\/\S+/)![0]);
    const recipient = await h.signedIn({ email });
    const opened = await recipient.client.get(`/api/online-dip/shared/${dip.shareSlug}${link.search}`);
    expect(opened.status).toBe(200);
    expect(opened.json().dip.quote_code).toBe(dip.quoteCode);
  });

  it('sends no email for an open link and one email per event even when it is delivered twice', async () => {
    const owner = await h.signedIn();
    const dip = await h.createDip(owner.user);
    expect(
      (await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' })).status,
    ).toBe(200);
    const email = `twice.${Date.now()}@example.co.uk`;
    await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { recipients: [email] });
    await smtp.waitForMessage((m) => m.to.includes(email));
    const event = (await h.outboxEvents('share.created')).find((e) => e.data.recipientEmail === email)!;
    expect(await handleSharingEvent(event as never, processed, queue)).toBe(false);
    expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('emails a shared deal its page link and a referral its invitation', async () => {
    const { client, user } = await h.signedIn({ name: 'Rob Referrer' });
    const dealEmail = `deal.${Date.now()}@example.co.uk`;
    const { offer, deal: named } = await h.searchOffer(client);
    // Every word and figure of the posted offer edited: the email names the run's own lender.
    const deal = await client.post('/api/referrals/deal-share', {
      referralEmail: dealEmail,
      referrerId: user.userId,
      ...named,
      loanData: Object.fromEntries(
        Object.entries(offer).map(([field, value]) => [
          field,
          field === 'LenderId' || field === 'ProductId'
            ? value
            : typeof value === 'number'
              ? 0
              : typeof value === 'string'
                ? 'Forged Bank PLC'
                : value,
        ]),
      ),
      note: 'Worth a look',
    });
    expect(deal.status).toBe(201);
    const dealMail = await smtp.waitForMessage((m) => m.to.includes(dealEmail));
    expect(dealMail.subject).toBe('Rob Referrer sent you a loan deal');
    expect(dealMail.text).toContain('Worth a look');
    expect(dealMail.text).toContain(String(offer.LenderName));
    expect(`${dealMail.subject}${dealMail.text}${dealMail.html ?? ''}`).not.toContain('Forged');
    expect(dealMail.text).toContain(`http://localhost:8080/shared-deal/${deal.json().signupToken}`);

    const friend = `friend.${Date.now()}@example.co.uk`;
    const referral = await client.post('/api/referrals', {
      referrerName: 'Rob',
      referralEmail: friend,
      message: 'Join me',
    });
    expect(referral.status).toBe(201);
    const invite = await smtp.waitForMessage((m) => m.to.includes(friend));
    expect(invite.subject).toBe('Rob invited you to LoanSearch UK');
    expect(invite.text).toContain('Join me');
    expect(invite.text).toContain('http://localhost:8080/register');
  });
});
