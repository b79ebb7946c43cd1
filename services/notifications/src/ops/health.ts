// The health grid: every process's /health and /metrics, read over the internal network, /health with
// the internal secret (the gateway answers its details only to that) and /metrics with the metrics token
// (every process asks for it), never exposed through the gateway.
// Rates and p99 are differences between this scrape and the one about a minute before it, so the
// first poll of a fresh process shows null until a second scrape exists.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type {
  OpsConsumerLag,
  OpsEventPropagation,
  OpsHealthResponse,
  OpsProcessHealth,
} from '@lsp/contracts';
import { PLATFORM_PROCESSES, platformProcess } from '@lsp/contracts';
import { IDENTITY_HEADERS } from '@lsp/service-kit';
import type { Redis } from 'ioredis';
import type { NotificationsConfig } from '../config';
import { KAFKA_TAP_GROUP_PREFIX, type KafkaTap } from './kafka-tap';

export interface OpsTarget {
  name: string;
  url: string;
}

const SCRAPE_TIMEOUT_MS = 2000;
const WINDOW_MS = 60_000;
const HISTORY_MS = 5 * 60_000;
/** Probes' own requests are left out of p99 and error rates. */
const QUIET_ROUTES = new Set(['/health', '/metrics', '/alive']);
/** Grid answers reused for this long, so several open consoles do not multiply the scrapes. */
const CACHE_MS = 2000;

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

function withPort(url: string, delta: number): string {
  const parsed = new URL(url);
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  parsed.port = String(port + delta);
  return parsed.toString().replace(/\/+$/, '');
}

/** The addresses of the services the console is given (their registry `urlVariable`s). */
type ServiceUrls = Pick<
  NotificationsConfig,
  'IDENTITY_URL' | 'SEARCH_URL' | 'DIP_URL' | 'SHARING_URL' | 'NOTIFICATIONS_URL'
>;

/**
 * OPS_TARGETS, or every service and worker of the platform's process registry at the addresses the
 * console is given: a service at its URL, a worker beside the service it is part of (its registry
 * port's distance from that service's, so `npm start`'s test stacks with a port offset are found too),
 * and the gateway when the site is on this machine.
 */
export function opsTargets(config: NotificationsConfig): OpsTarget[] {
  if (config.OPS_TARGETS?.length) return config.OPS_TARGETS;
  const trim = (url: string) => url.replace(/\/+$/, '');
  const urls = config as ServiceUrls & Record<string, unknown>;
  const urlOf = (name: string): string | null => {
    const variable = platformProcess(name).urlVariable;
    const value = variable ? urls[variable] : undefined;
    return typeof value === 'string' ? trim(value) : null;
  };
  // The edge first, as a person reaches it.
  const targets: OpsTarget[] = isLoopback(config.PUBLIC_URL)
    ? [{ name: 'gateway', url: trim(new URL(config.PUBLIC_URL).origin) }]
    : [];
  for (const proc of PLATFORM_PROCESSES) {
    if (proc.kind === 'service' && proc.name !== 'gateway') {
      const url = urlOf(proc.name);
      if (url) targets.push({ name: proc.name, url });
    } else if (proc.kind === 'worker' && proc.partOf) {
      const url = urlOf(proc.partOf);
      const besideIt = proc.port - platformProcess(proc.partOf).port;
      if (url) targets.push({ name: proc.name, url: withPort(url, besideIt) });
    }
  }
  return targets;
}

// ---------------------------------------------------------------- instances

/** Every address a host name resolves to. */
export type ResolveAll = (host: string) => Promise<string[]>;

const resolveWithDns: ResolveAll = async (host) =>
  (await lookup(host, { all: true })).map((address) => address.address);

/**
 * One probe per instance. A target whose host name resolves to several addresses (on Kubernetes, a
 * headless Service such as `search-pods`: one address per ready pod) is scraped at each of them, so
 * a process running in three pods shows as three rows, each with its own p99 and error rate; a
 * Service's single virtual address would hand each scrape to any one pod. Loopback, literal addresses
 * and names that do not resolve are probed as they are.
 */
export async function instancesOf(target: OpsTarget, resolve: ResolveAll): Promise<OpsTarget[]> {
  const host = new URL(target.url).hostname;
  if (isLoopback(target.url) || isIP(host.replace(/^\[|\]$/g, ''))) return [target];
  let addresses: string[];
  try {
    addresses = [...new Set(await resolve(host))].sort();
  } catch {
    return [target];
  }
  if (addresses.length <= 1) return [target];
  return addresses.map((address) => {
    const url = new URL(target.url);
    url.hostname = address.includes(':') ? `[${address}]` : address;
    return { name: `${target.name} ${address}`, url: url.toString().replace(/\/+$/, '') };
  });
}

// ---------------------------------------------------------------- Prometheus text

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments and malformed lines skipped). */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key] = value.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    const value = Number(match[3]);
    if (!Number.isNaN(value)) samples.push({ name: match[1], labels, value });
  }
  return samples;
}

export interface MetricsSnapshot {
  at: number;
  /** Cumulative HTTP duration buckets (upper bound in s → count), probes left out. */
  buckets: Map<number, number>;
  requests: number;
  errors: number;
  consumed: number;
  failed: number;
  outboxBacklog: number | null;
  startTime: number | null;
  /** Cumulative commit-to-handled buckets per `type\tconsumer` (event_propagation_seconds). */
  propagation: Map<string, Map<number, number>>;
}

const PROPAGATION_KEY_SEPARATOR = '\t';

export function snapshotOf(samples: Sample[], at: number): MetricsSnapshot {
  const snap: MetricsSnapshot = {
    at,
    buckets: new Map(),
    requests: 0,
    errors: 0,
    consumed: 0,
    failed: 0,
    outboxBacklog: null,
    startTime: null,
    propagation: new Map(),
  };
  for (const s of samples) {
    switch (s.name) {
      case 'event_propagation_seconds_bucket': {
        const key = `${s.labels.type}${PROPAGATION_KEY_SEPARATOR}${s.labels.consumer}`;
        const buckets = snap.propagation.get(key) ?? new Map<number, number>();
        const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
        buckets.set(le, (buckets.get(le) ?? 0) + s.value);
        snap.propagation.set(key, buckets);
        break;
      }
      case 'http_request_duration_seconds_bucket': {
        if (QUIET_ROUTES.has(s.labels.route ?? '')) break;
        const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
        snap.buckets.set(le, (snap.buckets.get(le) ?? 0) + s.value);
        break;
      }
      case 'http_request_duration_seconds_count':
        if (QUIET_ROUTES.has(s.labels.route ?? '')) break;
        snap.requests += s.value;
        if (Number(s.labels.status) >= 500) snap.errors += s.value;
        break;
      case 'events_consumed_total':
        snap.consumed += s.value;
        break;
      case 'events_failed_total':
      case 'events_dead_lettered_total':
        snap.failed += s.value;
        break;
      case 'queue_depth':
        if (s.labels.queue === 'outbox' && s.labels.state === 'pending')
          snap.outboxBacklog = (snap.outboxBacklog ?? 0) + s.value;
        break;
      case 'process_start_time_seconds':
        snap.startTime = s.value;
        break;
    }
  }
  return snap;
}

/** histogram_quantile over cumulative buckets, linear within a bucket; ms. */
export function quantileMs(buckets: Map<number, number>, q: number): number | null {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? (bounds.length ? buckets.get(bounds[bounds.length - 1])! : 0);
  if (!total || total <= 0) return null;
  const rank = q * total;
  let previousBound = 0;
  let previousCount = 0;
  for (const bound of bounds) {
    const count = buckets.get(bound)!;
    if (count >= rank) {
      if (bound === Infinity) return Math.round(previousBound * 1000 * 100) / 100;
      const inBucket = count - previousCount;
      const fraction = inBucket > 0 ? (rank - previousCount) / inBucket : 1;
      return Math.round((previousBound + (bound - previousBound) * fraction) * 1000 * 100) / 100;
    }
    previousBound = bound;
    previousCount = count;
  }
  return null;
}

/** The change from `before` to `now`; a restarted process (counters reset) counts from zero. */
export function windowOf(before: MetricsSnapshot | undefined, now: MetricsSnapshot) {
  if (!before) return null;
  const restarted =
    (now.startTime !== null && before.startTime !== null && now.startTime !== before.startTime) ||
    now.requests < before.requests;
  const base = restarted
    ? {
        buckets: new Map<number, number>(),
        requests: 0,
        errors: 0,
        consumed: 0,
        failed: 0,
        propagation: new Map<string, Map<number, number>>(),
      }
    : before;
  const difference = (current: Map<number, number>, earlier: Map<number, number> | undefined) => {
    const out = new Map<number, number>();
    for (const [le, count] of current) out.set(le, Math.max(0, count - (earlier?.get(le) ?? 0)));
    return out;
  };
  const buckets = difference(now.buckets, base.buckets);
  const propagation = new Map<string, Map<number, number>>();
  for (const [key, current] of now.propagation)
    propagation.set(key, difference(current, base.propagation.get(key)));
  return {
    buckets,
    propagation,
    requests: Math.max(0, now.requests - base.requests),
    errors: Math.max(0, now.errors - base.errors),
    consumed: Math.max(0, now.consumed - base.consumed),
    failed: Math.max(0, now.failed - base.failed),
  };
}

// ---------------------------------------------------------------- the grid

async function fetchWithTimeout(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    headers: { ...headers, accept: 'application/json, text/plain' },
    signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS),
  });
}

export class HealthGrid {
  private readonly history = new Map<string, MetricsSnapshot[]>();
  private cached: { at: number; answer: Promise<OpsHealthResponse> } | undefined;

  constructor(
    private readonly opts: {
      targets: OpsTarget[];
      internalSecret: string;
      /** What every process's /metrics asks for (METRICS_TOKEN); without it the grid shows no rates. */
      metricsToken: string | undefined;
      eventBus: 'redis' | 'kafka';
      lag: () => Promise<OpsConsumerLag[]>;
      /** How instances are found (DNS by default; tests give their own). */
      resolve?: ResolveAll;
    },
  ) {}

  check(): Promise<OpsHealthResponse> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.answer;
    const answer = this.checkNow();
    this.cached = { at: now, answer };
    answer.catch(() => (this.cached = undefined));
    return answer;
  }

  private async checkNow(): Promise<OpsHealthResponse> {
    const resolve = this.opts.resolve ?? resolveWithDns;
    const instances = (
      await Promise.all(this.opts.targets.map((target) => instancesOf(target, resolve)))
    ).flat();
    // A pod that went away takes its history with it.
    const current = new Set(instances.map((instance) => instance.name));
    for (const name of this.history.keys()) if (!current.has(name)) this.history.delete(name);
    const windows: Array<Map<string, Map<number, number>>> = [];
    const [processes, consumerLag] = await Promise.all([
      Promise.all(instances.map((instance) => this.probe(instance, windows))),
      this.opts.lag().catch(() => []),
    ]);
    return {
      checkedAt: new Date().toISOString(),
      eventBus: this.opts.eventBus,
      processes,
      consumerLag,
      propagation: propagationOf(windows),
    };
  }

  private baseline(name: string, now: number): MetricsSnapshot | undefined {
    const list = this.history.get(name) ?? [];
    // The newest scrape at least a minute old, else the oldest there is (a shorter window).
    let found: MetricsSnapshot | undefined;
    for (const snap of list) if (now - snap.at >= WINDOW_MS) found = snap;
    return found ?? list[0];
  }

  private remember(name: string, snap: MetricsSnapshot): void {
    const list = (this.history.get(name) ?? []).filter((s) => snap.at - s.at <= HISTORY_MS);
    list.push(snap);
    this.history.set(name, list);
  }

  /** One instance's health; its commit-to-handled window of the last minute goes into `propagation`. */
  async probe(
    target: OpsTarget,
    propagation: Array<Map<string, Map<number, number>>> = [],
  ): Promise<OpsProcessHealth> {
    const checkedAt = new Date().toISOString();
    const down = (error: string): OpsProcessHealth => ({
      name: target.name,
      up: false,
      status: 'unreachable',
      version: null,
      checks: {},
      p99Ms: null,
      errorRate: null,
      requestsLastMinute: 0,
      outboxBacklog: null,
      eventsConsumedLastMinute: 0,
      eventsFailedLastMinute: 0,
      checkedAt,
      error,
    });
    let health: {
      status?: string;
      version?: string;
      checks?: Record<string, { status: string; error?: string }>;
    };
    try {
      const res = await fetchWithTimeout(`${target.url}/health`, {
        [IDENTITY_HEADERS.secret]: this.opts.internalSecret,
      });
      health = (await res.json()) as typeof health;
    } catch (err) {
      return down((err as Error).name === 'TimeoutError' ? 'no answer within 2 s' : (err as Error).message);
    }
    let metricsError: string | undefined;
    let window: ReturnType<typeof windowOf> = null;
    let outboxBacklog: number | null = null;
    try {
      const res = await fetchWithTimeout(`${target.url}/metrics`, {
        authorization: `Bearer ${this.opts.metricsToken ?? ''}`,
      });
      if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
      const now = Date.now();
      const snap = snapshotOf(parsePrometheus(await res.text()), now);
      window = windowOf(this.baseline(target.name, now), snap);
      if (window) propagation.push(window.propagation);
      outboxBacklog = snap.outboxBacklog;
      this.remember(target.name, snap);
    } catch (err) {
      metricsError = `metrics unreadable: ${(err as Error).message}`;
    }
    const status = health.status === 'ok' ? 'ok' : 'degraded';
    return {
      name: target.name,
      up: true,
      status,
      version: typeof health.version === 'string' ? health.version : null,
      checks: Object.fromEntries(
        Object.entries(health.checks ?? {}).map(([name, check]) => [
          name,
          { status: String(check.status), ...(check.error ? { error: String(check.error) } : {}) },
        ]),
      ),
      p99Ms: window ? quantileMs(window.buckets, 0.99) : null,
      errorRate: window && window.requests > 0 ? window.errors / window.requests : null,
      requestsLastMinute: window?.requests ?? 0,
      outboxBacklog,
      eventsConsumedLastMinute: window?.consumed ?? 0,
      eventsFailedLastMinute: window?.failed ?? 0,
      checkedAt,
      ...(metricsError ? { error: metricsError } : {}),
    };
  }
}

/**
 * Commit-to-handled latency per event type and consumer group over the last minute, the instances of a
 * group added together; groups that handled nothing in the window are left out.
 */
export function propagationOf(windows: Array<Map<string, Map<number, number>>>): OpsEventPropagation[] {
  const merged = new Map<string, Map<number, number>>();
  for (const window of windows)
    for (const [key, buckets] of window) {
      const into = merged.get(key) ?? new Map<number, number>();
      for (const [le, count] of buckets) into.set(le, (into.get(le) ?? 0) + count);
      merged.set(key, into);
    }
  const rows: OpsEventPropagation[] = [];
  for (const [key, buckets] of merged) {
    const handled = buckets.get(Infinity) ?? 0;
    if (handled <= 0) continue;
    const [type, consumerGroup] = key.split(PROPAGATION_KEY_SEPARATOR);
    rows.push({
      type,
      consumerGroup,
      handledLastMinute: handled,
      p50Ms: quantileMs(buckets, 0.5),
      p99Ms: quantileMs(buckets, 0.99),
    });
  }
  return rows.sort((a, b) => a.type.localeCompare(b.type) || a.consumerGroup.localeCompare(b.consumerGroup));
}

// ---------------------------------------------------------------- consumer lag

/** Redis: XINFO GROUPS of every event stream (lag needs Redis 7; null before). */
export async function redisConsumerLag(
  redis: Redis,
  keys: string[],
  prefix: string,
): Promise<OpsConsumerLag[]> {
  const rows: OpsConsumerLag[] = [];
  for (const key of keys) {
    const groups = (await redis.xinfo('GROUPS', key).catch(() => [])) as unknown[][];
    for (const group of groups) {
      const info: Record<string, unknown> = {};
      for (let i = 0; i + 1 < group.length; i += 2) info[String(group[i])] = group[i + 1];
      const lag = info.lag;
      rows.push({
        consumerGroup: String(info.name),
        topic: key.slice(prefix.length),
        lag: typeof lag === 'number' ? lag : null,
        pending: typeof info.pending === 'number' ? info.pending : null,
      });
    }
  }
  return rows.sort(
    (a, b) => a.consumerGroup.localeCompare(b.consumerGroup) || a.topic.localeCompare(b.topic),
  );
}

/** Kafka: per group and topic, the high watermarks less the committed offsets. */
export async function kafkaConsumerLag(tap: KafkaTap): Promise<OpsConsumerLag[]> {
  const admin = await tap.admin();
  const { groups } = await admin.listGroups();
  const highs = new Map<string, Map<number, bigint>>();
  const highOf = async (topic: string) => {
    let found = highs.get(topic);
    if (!found) {
      const offsets = await admin.fetchTopicOffsets(topic).catch(() => []);
      found = new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
      highs.set(topic, found);
    }
    return found;
  };
  const rows: OpsConsumerLag[] = [];
  for (const { groupId } of groups) {
    if (groupId.startsWith(KAFKA_TAP_GROUP_PREFIX)) continue;
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId }).catch(() => [])) {
      const high = await highOf(topic);
      let lag = 0n;
      for (const { partition, offset } of partitions) {
        if (offset === '-1') continue;
        const h = high.get(partition);
        if (h !== undefined && h > BigInt(offset)) lag += h - BigInt(offset);
      }
      rows.push({ consumerGroup: groupId, topic, lag: Number(lag), pending: null });
    }
  }
  return rows.sort(
    (a, b) => a.consumerGroup.localeCompare(b.consumerGroup) || a.topic.localeCompare(b.topic),
  );
}
