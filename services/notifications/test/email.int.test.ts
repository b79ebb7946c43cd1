import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createEnvelope, IDENTITY_EVENT_TYPES } from '@lsp/contracts';
import { ProcessedEvents, createQueue } from '@lsp/service-kit';
import {
  type CapturedMail,
  type TestMongo,
  type TestRedis,
  type TestSmtp,
  leaseRedisDb,
  startTestMongo,
  startTestSmtp,
  useHarness,
  waitFor,
} from '@lsp/testing';
import type { Queue } from 'bullmq';
import type { Connection } from 'mongoose';
import { sentEmails } from '../src/data/sent-emails';
import { EMAIL_QUEUE, type EmailJob } from '../src/email/jobs';
import { handleVerificationRequested } from '../src/events/consumed';
import { startEmailPipeline } from './email-pipeline';

const ROOT = path.resolve(__dirname, '../../..');
const PASSWORD = 'correct horse battery';

function verificationEvent(email: string) {
  return createEnvelope('identity', {
    type: IDENTITY_EVENT_TYPES.verificationRequested,
    subject: `user-${email}`,
    data: {
      userId: `user-${email}`,
      email,
      name: 'Test Person',
      verificationUrl: `http://localhost:8080/verify-email?token=${encodeURIComponent(email)}`,
      expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
      reason: 'registration' as const,
    },
  });
}

jest.setTimeout(60_000);

describe('the verification email, end to end', () => {
  const pipeline = useHarness(startEmailPipeline);

  it('registers, receives the email over SMTP, follows the link and signs in verified', async () => {
    const email = `reader.${Date.now()}@example.com`;
    const browser = pipeline.identity.browser();
    expect(
      (await browser.post('/api/auth/register', { name: 'Mary Somerville', email, password: PASSWORD }))
        .status,
    ).toBe(201);

    const mail = await pipeline.smtp.waitForMessage((m) => m.to.includes(email));
    expect(mail.subject).toBe('Verify your email address to see your loan results');
    expect(mail.text).toContain('Hi Mary,');
    const link = mail.text.match(/http:\/\/localhost:8080\/verify-email\?token=[^\s]+/)![0];
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    expect(mail.text).toContain('expires in 24 hours');

    // The verify page calls the API with the token from its own URL.
    const url = new URL(link);
    const verified = await browser.get(
      `/api/verify-email?token=${encodeURIComponent(url.searchParams.get('token')!)}`,
    );
    expect(verified.status).toBe(200);
    expect(verified.json().success).toBe(true);

    const login = await browser.post('/api/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect((await browser.get('/api/auth/me')).json().user).toMatchObject({ email, verified: true });
    expect(pipeline.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('sends one email when the same event is delivered twice', async () => {
    const email = `twice.${Date.now()}@example.com`;
    const event = verificationEvent(email);
    await pipeline.identityBus.publish(event);
    await pipeline.identityBus.publish(event);
    await pipeline.smtp.waitForMessage((m) => m.to.includes(email));
    const job = await waitFor(async () => {
      const found = await pipeline.queue.getJob(event.id);
      return found && (await found.isCompleted()) ? found : null;
    }, 'the email job to complete');
    expect(job.id).toBe(event.id);
    await waitFor(
      async () =>
        (await pipeline.db.collection('processed_events').countDocuments({ eventId: event.id })) === 1,
      'the marker',
    );
    // Handling the event yet again (a redelivery after the marker) adds nothing.
    expect(
      await handleVerificationRequested(event, await ProcessedEvents.open(pipeline.db), pipeline.queue),
    ).toBe(false);
    expect(await pipeline.queue.getJobCountByTypes('waiting', 'active', 'delayed')).toBe(0);
    expect(pipeline.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('retries a send the SMTP server refused, with backoff, until it goes through', async () => {
    const email = `refused.${Date.now()}@example.com`;
    let refusals = 0;
    pipeline.smtp.beforeAccept = async (mail) => {
      if (mail.to.includes(email) && refusals < 1) {
        refusals++;
        throw new Error('mailbox busy');
      }
    };
    try {
      const event = verificationEvent(email);
      await pipeline.identityBus.publish(event);
      await pipeline.smtp.waitForMessage((m) => m.to.includes(email), 20_000);
      const job = await pipeline.queue.getJob(event.id);
      expect(job!.attemptsMade).toBeGreaterThanOrEqual(1);
      expect(refusals).toBe(1);
      expect(pipeline.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
    } finally {
      pipeline.smtp.beforeAccept = undefined;
    }
  });
});

describe('the email worker stopped mid-send', () => {
  let mongo: TestMongo;
  let redis: TestRedis;
  let smtp: TestSmtp;
  let db: Connection;
  let queue: Queue<EmailJob>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    mongo = await startTestMongo();
    redis = await leaseRedisDb();
    smtp = await startTestSmtp();
    db = await mongo.database('notifications');
    queue = createQueue<EmailJob>(EMAIL_QUEUE, redis.url);
  });

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await queue.close();
    await smtp.close();
    await redis.release();
    await mongo.stop();
  });

  function startWorkerProcess(): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/notifications/src/worker.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        SERVICE_NAME: 'email-worker',
        PORT: '0',
        INTERNAL_SECRET: 'test-internal-secret-0123456789abcdef',
        MONGO_URL: mongo.url,
        DB_NAME: db.name,
        REDIS_URL: redis.url,
        SMTP_URL: smtp.url,
        LOG_LEVEL: 'warn',
        EMAIL_WORKER_CONCURRENCY: '2',
        // A dead worker's jobs are taken over within a couple of seconds instead of the default 30.
        EMAIL_JOB_LOCK_MS: '2000',
        EMAIL_STALLED_CHECK_MS: '1000',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
    return child;
  }

  it('loses no email and sends none twice when the worker is killed and restarted', async () => {
    const processed = await ProcessedEvents.open(db);
    const emails = Array.from({ length: 6 }, (_, i) => `killed.${i}.${Date.now()}@example.com`);
    const events = emails.map(verificationEvent);
    for (const event of events) await handleVerificationRequested(event, processed, queue);

    // Hold every message at the end of DATA until the worker is dead, then refuse the held ones: a
    // connection dropped before the server's answer is a message the server never accepted.
    let killed = false;
    const held: CapturedMail[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    smtp.beforeAccept = async (mail) => {
      if (killed) return;
      held.push(mail);
      await released;
      throw new Error('connection lost before the message was accepted');
    };

    const first = startWorkerProcess();
    await waitFor(() => held.length >= 1, 'a send in progress', 30_000);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    killed = true;
    release();
    expect(smtp.messages).toHaveLength(0);

    startWorkerProcess();
    await waitFor(
      async () => {
        const counts = await queue.getJobCounts('completed', 'waiting', 'active', 'delayed');
        return counts.completed === events.length && counts.waiting + counts.active + counts.delayed === 0;
      },
      'every email job to complete',
      45_000,
    );

    const delivered = emails.map((email) => smtp.messages.filter((m) => m.to.includes(email)).length);
    expect(delivered).toEqual(emails.map(() => 1));
    expect(await sentEmails(db).countDocuments()).toBe(events.length);
    const messageIds = smtp.messages.map((m) => m.messageId);
    expect(new Set(messageIds).size).toBe(events.length);
  }, 90_000);
});
