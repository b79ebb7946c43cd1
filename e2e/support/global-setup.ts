// Starts what the browser tests run against, unless E2E_BASE_URL points at a running system.
// E2E_STACK=frontends (or a missing stack module) uses the frontend-only harness; otherwise the
// whole system starts through scripts/lib/stack.mjs, as `npm start` does.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import net from 'node:net';
import { leaseRedisDb } from '@lsp/testing';
import { startFrontendHarness } from './frontend-harness';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port }, () => server.close(() => resolve(true)));
  });
}

/**
 * The first offset (10000, 11000, ...) at which the stack's ports are free, so browser runs can go on
 * beside `npm start` and beside each other. E2E_PORT_OFFSET pins one.
 */
async function freePortOffset(): Promise<number> {
  if (process.env.E2E_PORT_OFFSET) return Number(process.env.E2E_PORT_OFFSET);
  const stackPorts = [27017, 8080, 4001, 4002, 4003, 4004, 4005, 4013, 4015, 3000, 3001, 3002, 1025];
  for (let offset = 10000; offset <= 20000; offset += 1000) {
    const free = await Promise.all(stackPorts.map((p) => portIsFree(p + offset)));
    if (free.every(Boolean)) return offset;
  }
  throw new Error("no free set of ports for the browser tests' stack");
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
  // A Redis database of its own (leased like the integration tests', emptied first) keeps sessions,
  // queues and event streams apart from a running `npm start` (database 0) and from other runs.
  const redis = await leaseRedisDb();
  let stack: { url: string; stop(): Promise<void> };
  try {
    stack = await startStack({
      dataDir,
      portOffset: await freePortOffset(),
      logs: 'file',
      env: { MAIL_CATCHER_ENABLED: 'true', REDIS_URL: redis.url },
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
