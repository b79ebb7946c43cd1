/**
 * The whole system as people use it, with the outbox relays' safety-net poll set to an hour: every
 * event gets out only because the process that committed it publishes it at once, and every call
 * answers right the first time because no call waits on an event still on its way
 * (docs/decisions/0082-events-published-at-commit-by-the-process-that-committed.md and
 * docs/decisions/0083-read-your-own-writes-across-services.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PLATFORM_PROCESSES, defaultPortOf } from '@lsp/contracts';
import { type TestRedis, freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import { SEARCH_PAYLOADS, type SignedInUser, sameOrigin, signUpVerified } from '../../scripts/lib/journeys';

const ROOT = path.resolve(__dirname, '../..');
/** The relay's poll in these stacks: far longer than any test, so only publishing at commit gets events out. */
export const SAFETY_NET_POLL_MS = 3600_000;

/** The operator of these stacks (OPS_EMAILS): who activates a lender panel. */
export const SYSTEM_OPS_EMAIL = 'system-ops@ops.example';

export interface Stack {
  url: string;
  portOffset: number;
  /** What every process's /metrics asks for (the stack's METRICS_TOKEN); without it /metrics answers 401. */
  metricsToken?: string;
  stop(): Promise<void>;
}

/** Starts the whole system (compiled, as npm start runs it) on its own ports, Redis database and data folder. */
export async function startSystem(env: Record<string, string>): Promise<Stack> {
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
  const redis: TestRedis = await leaseRedisDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lsp-system-'));
  const portOffset = await freeStackPortOffset(14000, 24000);
  const { startStack } = (await import(path.join(ROOT, 'scripts/lib/stack.mjs'))) as {
    startStack(opts: object): Promise<{ url: string; env: Record<string, string>; stop(): Promise<void> }>;
  };
  const stack = await startStack({
    dataDir,
    portOffset,
    logs: 'file',
    // One process per service, as the images run them: each process's /metrics is counted on its own.
    mode: 'split',
    env: {
      MAIL_CATCHER_ENABLED: 'true',
      OPS_EMAILS: SYSTEM_OPS_EMAIL,
      REDIS_URL: redis.url,
      OUTBOX_POLL_MS: String(SAFETY_NET_POLL_MS),
      // The chain makes hundreds of calls a minute as one person; the gateway's limits have their own tests.
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_AUTH_MAX: '100000',
      ...env,
    },
  });
  // startStack waits for the API services only; these tests read the workers' /metrics too, so each
  // worker must answer its health path before the stack is handed over.
  try {
    await Promise.all(
      PLATFORM_PROCESSES.filter((p) => p.kind === 'worker' && p.health).map((p) =>
        eventually(
          async () =>
            (await fetch(`http://127.0.0.1:${p.port + portOffset}${p.health}`).catch(() => null))?.ok ===
            true,
          `${p.name} to be ready`,
          120_000,
        ),
      ),
    );
  } catch (err) {
    await stack.stop();
    await redis.release();
    throw err;
  }
  return {
    url: stack.url,
    portOffset,
    metricsToken: stack.env.METRICS_TOKEN!,
    async stop() {
      await stack.stop();
      await redis.release();
      if (process.env.KEEP_SYSTEM_DATA) console.info(`system test: logs kept in ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The processes whose events these tests count, each read at its /metrics on the port npm start gives it. */
export type ProcessName =
  'identity' | 'search' | 'repricing-worker' | 'dip' | 'sharing' | 'notifications' | 'pdf-worker';

/** The sum of a metric's samples whose labels include all of `labels`. */
export function metricSum(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.split(' ').pop());
  }
  return sum;
}

export async function metricsOf(stack: Stack, process: ProcessName): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${defaultPortOf(process) + stack.portOffset}/metrics`, {
    headers: { authorization: `Bearer ${stack.metricsToken ?? ''}` },
  });
  if (!res.ok) throw new Error(`${process}'s /metrics answered ${res.status}`);
  return res.text();
}

/** Polls a condition that events bring about, failing after `ms`; with an hour's relay poll, only publishing at commit can satisfy it in time. */
export async function eventually(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A DIP application made from a saved search, as the wizard sends it. */
export const APPLICATION = {
  loanType: 'bridging',
  fullName: 'Chain Owner',
  email: 'owner@example.co.uk',
  phone: '07700 900123',
  propertyAddress: '14 Chapel Street, Leeds',
  propertyType: 'residential',
  propertyValue: '650,000',
  loanAmount: '£350,000',
  loanTerm: '12',
  loanPurpose: 'purchase',
  exitStrategy: 'sale',
  annualIncome: 90000,
  existingDebt: '',
  creditScore: 'good',
  additionalInfo: 'Chain test.',
};

const slugOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const openPath = (url: string) => {
  const link = new URL(url);
  return `/api/online-dip/shared/${slugOf(url)}${link.search}`;
};

/** The people of the chain: an owner, a recipient shared by email, and someone who opens open links. */
export async function chainPeople(stack: Stack) {
  const [owner, recipient, opener] = await Promise.all([
    signUpVerified(stack.url, 'Chain Owner'),
    signUpVerified(stack.url, 'Chain Recipient'),
    signUpVerified(stack.url, 'Chain Opener'),
  ]);
  return { owner, recipient, opener };
}

/**
 * One round of the chain, every call made once with no wait: save a search → create a DIP → share it
 * by email → the recipient opens it → Copy Link → Regenerate → Copy Link gives the new link → the old
 * link is refused → apply → the saved search says submitted. Returns the first step that answered
 * wrong, or null.
 */
export async function chainRound(
  stack: Stack,
  people: { owner: SignedInUser; recipient: SignedInUser; opener: SignedInUser },
  round: number,
): Promise<string | null> {
  const { owner, recipient, opener } = people;
  const headers = sameOrigin(stack.url);
  const searchData = { ...SEARCH_PAYLOADS.bridging, projectName: `Chain ${round}` };
  const run = await owner.client.post('/api/bridging', searchData, { headers });
  if (run.status !== 200) return `search: ${run.status}`;
  const saved = await owner.client.post(
    '/api/search',
    { userId: owner.userId, loanType: 'bridging', searchData, apiResponse: run.json() },
    { headers },
  );
  if (saved.status !== 201) return `save search: ${saved.status}`;
  const searchId = saved.json().search.id as string;

  const created = await owner.client.post(
    `/api/online-dip/create/${searchId}/0`,
    { validHours: 48 },
    { headers },
  );
  if (created.status !== 201) return `create DIP: ${created.status} ${created.text.slice(0, 120)}`;
  const { dipId } = created.json() as { dipId: string };

  const shared = await owner.client.post(
    `/api/online-dip/${dipId}/share`,
    { recipients: [recipient.email], message: `Round ${round}` },
    { headers },
  );
  if (shared.status !== 201) return `share by email: ${shared.status} ${shared.text.slice(0, 120)}`;
  const opened = await recipient.client.get(`/api/shared/dips/${dipId}`);
  if (opened.status !== 200) return `the recipient opens it: ${opened.status}`;

  const firstCopy = await owner.client.post(
    `/api/online-dip/${dipId}/share`,
    { inviteType: 'open' },
    { headers },
  );
  if (firstCopy.status !== 200) return `Copy Link: ${firstCopy.status}`;
  const oldLink = firstCopy.json().url as string;

  const regenerated = await owner.client.post(`/api/online-dip/${dipId}/regenerate-link`, {}, { headers });
  if (regenerated.status !== 200) return `Regenerate: ${regenerated.status}`;
  const newSlug = regenerated.json().shareSlug as string;

  const secondCopy = await owner.client.post(
    `/api/online-dip/${dipId}/share`,
    { inviteType: 'open' },
    { headers },
  );
  if (secondCopy.status !== 200) return `Copy Link after Regenerate: ${secondCopy.status}`;
  const newLink = secondCopy.json().url as string;
  if (slugOf(newLink) !== newSlug) return 'Copy Link after Regenerate handed out the old link';

  const old = await opener.client.get(openPath(oldLink));
  if (old.status !== 404) return `the old link still opens: ${old.status}`;
  const fresh = await opener.client.get(openPath(newLink));
  if (fresh.status !== 200) return `the new link: ${fresh.status}`;
  const onlineView = await opener.client.get(`/api/online-dip/${newSlug}`);
  if (onlineView.status !== 200) return `the online DIP through the new link: ${onlineView.status}`;

  const applied = await owner.client.post(
    '/api/dip-applications',
    { ...APPLICATION, userId: owner.userId, searchId, email: owner.email },
    { headers },
  );
  if (applied.status !== 201) return `apply: ${applied.status} ${applied.text.slice(0, 120)}`;
  const searches = await owner.client.get(`/api/user-searches/${owner.userId}`);
  const status = (searches.json() as Array<{ id: string; application_status: string }>).find(
    (s) => s.id === searchId,
  )?.application_status;
  if (status !== 'submitted') return `the saved search says ${status}`;
  return null;
}
