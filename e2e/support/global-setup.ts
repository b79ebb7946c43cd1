// Starts what the browser tests run against, unless E2E_BASE_URL points at a running system.
// E2E_STACK=frontends (or a missing stack module) uses the frontend-only harness; otherwise the
// whole system starts through scripts/lib/stack.mjs, as `npm start` does.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { Redis } from 'ioredis';
import { startFrontendHarness } from './frontend-harness';

async function flushRedisDatabase(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

const ROOT = path.resolve(__dirname, '../..');
const STACK_MODULE = path.join(ROOT, 'scripts/lib/stack.mjs');

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) return async () => undefined;
  const useHarness = process.env.E2E_STACK === 'frontends' || !existsSync(STACK_MODULE);
  if (useHarness) {
    const harness = await startFrontendHarness(
      process.env.E2E_HARNESS_PORT ? Number(process.env.E2E_HARNESS_PORT) : undefined,
    );
    process.env.E2E_BASE_URL = harness.url;
    process.env.E2E_STACK = 'frontends';
    return harness.stop;
  }
  const { startStack } = (await import(STACK_MODULE)) as {
    startStack(opts: {
      dataDir: string;
      portOffset?: number;
      logs?: 'console' | 'file';
      env?: Record<string, string>;
    }): Promise<{ url: string; stop(): Promise<void> }>;
  };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lsp-e2e-'));
  // The tests read verification emails from the built-in mail catcher (/dev/mail).
  // Redis database 15 keeps sessions, queues and event streams apart from a running `npm start`
  // (database 0) and from the integration tests (databases 1-14); it starts empty each run.
  const redisUrl = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
  await flushRedisDatabase(redisUrl);
  const stack = await startStack({
    dataDir,
    portOffset: Number(process.env.E2E_PORT_OFFSET ?? 10000),
    logs: 'file',
    env: { MAIL_CATCHER_ENABLED: 'true', REDIS_URL: redisUrl },
  });
  process.env.E2E_BASE_URL = stack.url;
  return stack.stop;
}
