import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedMongo } from '@lsp/embedded-mongo';
import { Redis } from 'ioredis';
import mongoose, { type Connection } from 'mongoose';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const uniqueId = () => randomBytes(4).toString('hex');

/** Polls until the condition holds; fails with `what` if it never does within `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function deleteKeysWithPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/**
 * What a test makes and must close (buses, relays): `keep(made)` remembers it and returns it; after
 * each test, or earlier at `closeAll()`, every one kept is closed.
 */
export function closedAfterEach<T>(close: (made: T) => Promise<unknown>) {
  let kept: T[] = [];
  const closeAll = async () => {
    await Promise.all(kept.map(close));
    kept = [];
  };
  afterEach(closeAll);
  const keep = (made: T) => {
    kept.push(made);
    return made;
  };
  return { keep, closeAll };
}

/** A deferred promise, to hold a handler mid-flight. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * MongoDB with transactions: the server at MONGO_URL when set, else an embedded replica-set member
 * on a free port. Each caller gets its own database, dropped by `stop()`.
 */
export async function openTestMongo(): Promise<{
  uri: string;
  connection: Connection;
  stop: () => Promise<void>;
}> {
  const embedded = process.env.MONGO_URL ? undefined : await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
  const uri = process.env.MONGO_URL ?? embedded!.uri;
  const connection = await mongoose
    .createConnection(uri, { dbName: `events_test_${uniqueId()}` })
    .asPromise();
  return {
    uri,
    connection,
    stop: async () => {
      await connection.dropDatabase().catch(() => undefined);
      await connection.close();
      await embedded?.stop();
    },
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A Redis server of the test's own, with AOF in a temporary directory, that the test can stop and
 * start again on the same port to play a broker outage.
 */
export class PrivateRedis {
  private process: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), await mkdtemp(join(tmpdir(), 'events-redis-')));
    await redis.up();
    return redis;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'],
      { cwd: this.dir, stdio: 'ignore' },
    );
    const client = new Redis(this.url, { lazyConnect: true, retryStrategy: () => 50 });
    client.on('error', () => undefined);
    await waitFor(
      async () => (await client.ping().catch(() => '')) === 'PONG',
      'redis-server to answer',
      10_000,
    );
    client.disconnect();
  }

  /** SIGTERM: Redis writes its AOF and exits, like an orderly restart. */
  async down(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    this.process = undefined;
  }

  async destroy(): Promise<void> {
    await this.down();
    await rm(this.dir, { recursive: true, force: true });
  }
}
