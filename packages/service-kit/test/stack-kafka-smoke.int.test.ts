import { DIP_EVENT_TYPES, IDENTITY_EVENT_TYPES } from '@lsp/contracts';
import { type TestRedis, freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SEARCH_PAYLOADS, sameOrigin, signUpVerified } from '../../../scripts/lib/journeys';
import { waitFor } from './events-helpers';
import { type TestKafka, kafkaTargetName, startTestKafka } from './kafka-broker';

/**
 * The whole system on EVENT_BUS=kafka, through the gateway as a person uses it: register, verify by
 * the emailed link (the email is sent by notifications from identity's event, so it crossed Kafka),
 * sign in, search, save the search, create a DIP, and the sharing service consumes the DIP and
 * registration events. On a real Apache Kafka broker: KAFKA_BROKERS when set, else one this suite starts.
 */
const ROOT = path.resolve(__dirname, '../../..');

interface Stack {
  url: string;
  stop(): Promise<void>;
}

/** A counter's value for one event type in a process's /metrics text (0 when absent). */
function consumedCount(metricsText: string, type: string): number {
  const line = metricsText
    .split('\n')
    .find((l) => l.startsWith('events_consumed_total{') && l.includes(`type="${type}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe(`the whole system on EVENT_BUS=kafka (${kafkaTargetName()})`, () => {
  jest.setTimeout(180_000);
  let kafka: TestKafka | undefined;
  let redis: TestRedis;
  let stack: Stack;
  let portOffset: number;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lsp-kafka-smoke-'));

  beforeAll(async () => {
    kafka = await startTestKafka();
    const brokers = kafka.brokers.join(',');
    console.info(`Kafka smoke: the whole system on ${kafka.target}`);
    // The stack runs the frontend servers too, and they refuse to start without a build (a fresh clone
    // reaches the integration stage before the browser stage builds them).
    const unbuilt = ['shell', 'search', 'dashboard'].some(
      (app) => !existsSync(path.join(ROOT, 'frontends', app, 'dist', 'index.html')),
    );
    if (unbuilt) {
      const build = spawnSync(process.execPath, ['scripts/build-frontends.mjs'], {
        cwd: ROOT,
        stdio: 'inherit',
      });
      if (build.status !== 0) throw new Error('the frontends did not build');
    }
    redis = await leaseRedisDb();
    portOffset = await freeStackPortOffset(20000);
    const { startStack } = (await import(path.join(ROOT, 'scripts/lib/stack.mjs'))) as {
      startStack(opts: object): Promise<Stack>;
    };
    stack = await startStack({
      dataDir,
      portOffset,
      logs: 'file',
      env: { EVENT_BUS: 'kafka', KAFKA_BROKERS: brokers, MAIL_CATCHER_ENABLED: 'true', REDIS_URL: redis.url },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await redis?.release();
    await kafka?.stop();
    if (!process.env.KEEP_SMOKE_DATA) rmSync(dataDir, { recursive: true, force: true });
    else console.info(`Kafka smoke: logs kept in ${dataDir}`);
  });

  it('registers, verifies by email, searches, creates a DIP, and the events are consumed', async () => {
    const user = await signUpVerified(stack.url, 'Kafka Smoke');
    const headers = sameOrigin(stack.url);
    const searchData = { ...SEARCH_PAYLOADS.bridging, projectName: 'Kafka smoke' };
    const run = await user.client.post('/api/bridging', searchData, { headers });
    expect(run.status).toBe(200);
    const saved = await user.client.post(
      '/api/search',
      { userId: user.userId, loanType: 'bridging', searchData, apiResponse: run.json() },
      { headers },
    );
    expect(saved.status).toBeLessThan(300);
    // The DIP service knows a saved search from search.saved, consumed from Kafka: until then it is a 404.
    const createDip = () =>
      user.client.post(`/api/online-dip/create/${saved.json().search.id}/0`, { validHours: 48 }, { headers });
    let dip = await createDip();
    await waitFor(
      async () => dip.status !== 404 || (dip = await createDip()).status !== 404,
      'the DIP service to consume search.saved from Kafka',
      60_000,
    );
    expect(dip.status).toBeLessThan(300);
    expect(dip.json().dipId).toEqual(expect.any(String));

    const sharingMetrics = `http://127.0.0.1:${4004 + portOffset}/metrics`;
    let text = '';
    await waitFor(
      async () => {
        text = await (await fetch(sharingMetrics)).text();
        return (
          consumedCount(text, DIP_EVENT_TYPES.created) >= 1 &&
          consumedCount(text, IDENTITY_EVENT_TYPES.registered) >= 1
        );
      },
      'the sharing service to consume dip.created and identity.user.registered from Kafka',
      60_000,
    );
  });
});
