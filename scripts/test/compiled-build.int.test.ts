// Production runs compiled JavaScript with plain `node` (deploy/Dockerfile). This builds what the
// search image runs and embedded-mongo's publishable package, then starts both without tsx: the
// compiled embedded-mongo bin as the database, and the compiled search service on it, which must
// find its workspace packages' dist/ and the lender panel file copied beside its code.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { TEST_SECRETS, freePort, leaseRedisDb, waitFor, type TestRedis } from '@lsp/testing';

const ROOT = path.resolve(__dirname, '../..');
const EMBEDDED_MONGO = path.join(ROOT, 'packages/embedded-mongo');
const BUILD_MODULE = '../build-node.mjs';

/**
 * Plain node: no tsx from the environment, and on a Node that strips TypeScript types itself, that
 * switched off, so a resolution that reached a .ts file fails here as it would in the image.
 */
const PLAIN_NODE = process.allowedNodeEnvironmentFlags.has('--experimental-strip-types')
  ? ['--no-experimental-strip-types']
  : [];
const { NODE_OPTIONS: _tsxOrJestOptions, ...ENV_WITHOUT_NODE_OPTIONS } = process.env;

interface Started {
  child: ChildProcess;
  output: string[];
}

function startPlainNode(entry: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [...PLAIN_NODE, entry, ...args], {
    cwd: ROOT,
    env: { ...ENV_WITHOUT_NODE_OPTIONS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    readline.createInterface({ input: stream }).on('line', (line) => output.push(line));
  return { child, output };
}

async function stop(started: Started | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

/** Every `require("…")` of the compiled JavaScript under a folder. */
function requiredSpecifiers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .flatMap((file) =>
      [...readFileSync(path.join(dir, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!),
    );
}

describe('the compiled build, run with plain node', () => {
  let mongo: Started | undefined;
  let search: Started | undefined;
  let redis: TestRedis;
  let mongoPort: number;

  beforeAll(async () => {
    const { buildNode } = (await import(BUILD_MODULE)) as { buildNode(only: string[]): Promise<unknown> };
    await buildNode(['packages', 'services/search']);
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: EMBEDDED_MONGO,
      stdio: 'pipe',
    });
    redis = await leaseRedisDb();
    mongoPort = await freePort();
  });

  afterAll(async () => {
    await stop(search);
    await stop(mongo);
    await redis?.release();
  });

  it('builds embedded-mongo as a package of its own: declarations, exports and bin in dist, no workspace imports', () => {
    const manifest = JSON.parse(readFileSync(path.join(EMBEDDED_MONGO, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
      bin: Record<string, string>;
      files: string[];
      dependencies: Record<string, string>;
    };
    const targets = [
      ...Object.values(manifest.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin),
    ];
    for (const target of targets)
      expect({ target, exists: existsSync(path.join(EMBEDDED_MONGO, target)) }).toEqual({
        target,
        exists: true,
      });
    expect(manifest.files).toContain('dist');
    // What it loads at run time: Node's modules, its own files, and only its declared dependencies.
    const external = requiredSpecifiers(path.join(EMBEDDED_MONGO, 'dist')).filter(
      (specifier) => !specifier.startsWith('.'),
    );
    expect(external.length).toBeGreaterThan(0);
    const undeclared = external.filter((specifier) => {
      const name = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : specifier.split('/')[0]!;
      return !builtinModules.includes(specifier.replace(/^node:/, '')) && !(name in manifest.dependencies);
    });
    expect(undeclared).toEqual([]);
    expect(external.filter((specifier) => specifier.startsWith('@lsp/'))).toEqual([]);
  });

  it('starts the compiled embedded-mongo bin and the compiled search service, which seeds its panel from the copied file', async () => {
    mongo = startPlainNode(
      'packages/embedded-mongo/dist/bin/embedded-mongo.js',
      ['--port', String(mongoPort), '--replset', 'rs0'],
      {},
    );
    const searchPort = await freePort();
    search = startPlainNode('services/search/dist/server.js', [], {
      ...TEST_SECRETS,
      NODE_ENV: 'test',
      SERVICE_NAME: 'search',
      PORT: String(searchPort),
      MONGO_URL: `mongodb://127.0.0.1:${mongoPort}/?replicaSet=rs0`,
      REDIS_URL: redis.url,
      EVENT_STREAM_PREFIX: `compiled-build-${Date.now()}:`,
      LOG_LEVEL: 'info',
    });
    const exitedEarly = () => {
      for (const started of [mongo!, search!])
        if (started.child.exitCode !== null)
          throw new Error(
            `a compiled process exited (${started.child.exitCode}):\n${started.output.join('\n')}`,
          );
    };
    const alive = await waitFor(
      async () => {
        exitedEarly();
        const res = await fetch(`http://127.0.0.1:${searchPort}/alive`).catch(() => null);
        return res?.ok ? ((await res.json()) as { status: string; service: string }) : null;
      },
      'the compiled search service to answer /alive',
      90000,
      200,
    );
    expect(alive).toEqual({ status: 'ok', service: 'search' });
    const health = await fetch(`http://127.0.0.1:${searchPort}/health`, {
      headers: { 'x-internal-secret': TEST_SECRETS.INTERNAL_SECRET },
    });
    expect(health.status).toBe(200);
    expect(search.output.some((line) => line.includes('lender panel seeded'))).toBe(true);
  });
});
