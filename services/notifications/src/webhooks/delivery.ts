import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
  type WebhookDelivery,
  type WebhookPayload,
} from '@lsp/contracts';
import { type Logger, createWorker, enqueue } from '@lsp/service-kit';
import type { Job, JobsOptions, Queue, Worker } from 'bullmq';
import type { AlertStore } from '../data/alerts';
import type { EmailJob, WebhookDisabledEmailJob } from '../email/jobs';
import { signWebhook } from './signing';
import type { EndpointDocument, WebhookStore } from './store';
import { type CheckedTarget, type Resolve, WebhookTargetError, checkTarget } from './targets';

export const WEBHOOK_QUEUE = 'webhook';

/** One event to deliver to one endpoint; the body is fixed when the job is made, so every try sends it. */
export interface WebhookJob {
  endpointId: string;
  /** The `webhook-id` header: the event's id, the same on every try. */
  eventId: string;
  type: string;
  body: string;
}

/** One job per event per endpoint: a redelivered event adds nothing while its job is kept. */
export const webhookJobId = (endpointId: string, eventId: string) => `${endpointId}.${eventId}`;

/**
 * The first try and one retry per delay of WEBHOOK_RETRY_DELAYS_MS (the worker's backoff strategy);
 * finished jobs are kept a day (so a redelivered event is recognised) and failed ones a week.
 */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = {
  attempts: WEBHOOK_RETRY_DELAYS_MS.length + 1,
  backoff: { type: 'webhook' },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** The delay before the retry that follows `attemptsMade` failed tries. */
export const webhookRetryDelay = (attemptsMade: number): number =>
  WEBHOOK_RETRY_DELAYS_MS[Math.min(attemptsMade, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? 0;

export function enqueueWebhook(
  queue: Queue<WebhookJob>,
  endpointId: string,
  eventId: string,
  payload: WebhookPayload,
) {
  const job: WebhookJob = { endpointId, eventId, type: payload.type, body: JSON.stringify(payload) };
  return enqueue(queue, payload.type, job, webhookJobId(endpointId, eventId), WEBHOOK_JOB_OPTIONS);
}

/** What one try got: a status, or why none came. */
interface TryResult {
  statusCode: number | null;
  error: string | null;
}

const BODY_READ_LIMIT = 64 * 1024;

/**
 * POSTs the signed body to the checked address (the URL's host name stays in the Host header and
 * TLS's server name). A redirect is an answer like any other (not followed); the whole try, the
 * answer's body included, has WEBHOOK_TIMEOUT_MS.
 */
export function postSigned(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<TryResult> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: TryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        agent: false,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Only the status matters: a long answer is cut off, not waited for.
          if (read > BODY_READ_LIMIT) response.destroy();
        });
        const done = () => finish({ statusCode: response.statusCode ?? null, error: null });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `No answer within ${timeoutMs / 1000} seconds` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: err.code ? `${err.code}: ${err.message}` : err.message }),
    );
    request.end(body);
  });
}

export interface WebhookWorkerDeps {
  store: WebhookStore;
  alerts: Pick<AlertStore, 'recipient'>;
  emailQueue: Queue<EmailJob>;
  logger: Logger;
  redisUrl: string;
  prefix: string;
  concurrency: number;
  allowPrivateTargets: boolean;
  publicUrl: string;
  /** Tests pin a host name to their receiver; in service, the system resolver. */
  resolve?: Resolve;
  now?: () => Date;
}

const describe = (result: TryResult) =>
  result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? 'no answer');

/**
 * Tries one job: checks the endpoint's address again, sends, records the try. Anything but a 2xx
 * throws, so BullMQ retries after the next delay of the schedule; the last failure disables the
 * endpoint and emails its owner. A disabled or deleted endpoint's jobs send nothing.
 */
export async function tryWebhookJob(job: Job<WebhookJob>, deps: WebhookWorkerDeps) {
  const now = deps.now ?? (() => new Date());
  const endpoint = await deps.store.byId(job.data.endpointId);
  if (!endpoint || endpoint.status !== 'enabled') return { skipped: true };
  const attempt = job.attemptsMade + 1;
  const at = now();
  const started = process.hrtime.bigint();
  let result: TryResult;
  try {
    const target = await checkTarget(endpoint.url, deps.allowPrivateTargets, deps.resolve);
    const timestamp = Math.floor(at.getTime() / 1000);
    result = await postSigned(
      target,
      {
        'content-type': 'application/json',
        'user-agent': 'LoanSearch-Webhooks/1',
        'webhook-id': job.data.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(endpoint.secret, job.data.eventId, timestamp, job.data.body),
      },
      job.data.body,
    );
  } catch (err) {
    if (!(err instanceof WebhookTargetError)) throw err;
    result = { statusCode: null, error: err.message };
  }
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const record: WebhookDelivery = {
    eventId: job.data.eventId,
    type: job.data.type,
    attempt,
    statusCode: result.statusCode,
    error: result.error,
    delivered,
    at: at.toISOString(),
    durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
  };
  await deps.store.recordTry(endpoint._id, record);
  if (delivered) return { statusCode: result.statusCode };
  if (attempt >= (job.opts.attempts ?? 1)) await disableAndTell(endpoint, job.data, describe(result), deps);
  throw new Error(`webhook try ${attempt} to ${endpoint._id} failed: ${describe(result)}`);
}

/** Disables the endpoint and queues one email to its owner (the job id is the endpoint's). */
async function disableAndTell(
  endpoint: EndpointDocument,
  job: WebhookJob,
  lastResult: string,
  deps: WebhookWorkerDeps,
) {
  const now = deps.now ?? (() => new Date());
  if (!(await deps.store.disable(endpoint._id, now()))) return;
  deps.logger.warn(
    { endpointId: endpoint._id, userId: endpoint.userId, lastResult },
    'webhook endpoint disabled',
  );
  const recipient = await deps.alerts.recipient(endpoint.userId);
  if (!recipient) {
    deps.logger.warn({ userId: endpoint.userId }, 'no email address known for a disabled webhook; none sent');
    return;
  }
  const email: WebhookDisabledEmailJob = {
    eventId: `webhook-disabled-${endpoint._id}`,
    template: 'webhook-disabled',
    to: recipient.email,
    name: recipient.name,
    url: endpoint.url,
    eventType: job.type,
    lastResult,
    accountUrl: `${deps.publicUrl}/account`,
  };
  await enqueue<EmailJob>(deps.emailQueue, email.template, email, email.eventId);
}

/** Takes the `webhook` queue's jobs, retrying each on the schedule of WEBHOOK_RETRY_DELAYS_MS. */
export function startWebhookWorker(deps: WebhookWorkerDeps): Worker<WebhookJob> {
  return createWorker<WebhookJob>(
    WEBHOOK_QUEUE,
    (job) => tryWebhookJob(job, deps),
    deps.redisUrl,
    deps.logger,
    {
      prefix: deps.prefix,
      concurrency: deps.concurrency,
      settings: { backoffStrategy: (attemptsMade: number) => webhookRetryDelay(attemptsMade) },
    },
  );
}
