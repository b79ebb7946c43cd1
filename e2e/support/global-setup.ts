// Starts what the browser tests run against, unless E2E_BASE_URL points at a running system.
// E2E_STACK=frontends (or a missing stack module) uses the frontend-only harness; otherwise the
// whole system starts through scripts/lib/stack.mjs, as `npm start` does.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import { startFrontendHarness } from './frontend-harness';

/** E2E_PORT_OFFSET pins the offset; otherwise the first free one from 10000. */
const stackPortOffset = async () =>
  process.env.E2E_PORT_OFFSET ? Number(process.env.E2E_PORT_OFFSET) : freeStackPortOffset(10000);

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
  // The tests read verification emails from the built-in mail catcher (/dev/mail); the operations
  // console's test signs in as the one address OPS_EMAILS lists; the webhooks' test delivers to a
  // loopback receiver, which only WEBHOOKS_ALLOW_PRIVATE_TARGETS admits.
  // A Redis database of its own (leased like the integration tests', emptied first) keeps sessions,
  // queues and event streams apart from a running `npm start` (database 0) and from other runs.
  const redis = await leaseRedisDb();
  let stack: { url: string; stop(): Promise<void> };
  try {
    stack = await startStack({
      dataDir,
      portOffset: await stackPortOffset(),
      logs: 'file',
      env: {
        MAIL_CATCHER_ENABLED: 'true',
        REDIS_URL: redis.url,
        OPS_EMAILS: 'oncall@ops.example',
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      },
    });
  } catch (err) {
    await redis.release();
    throw err;
  }
  process.env.E2E_BASE_URL = stack.url;
  return async () => {
    await stack.stop();
    await redis.release();
  };
}
