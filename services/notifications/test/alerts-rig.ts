// The alert path of notifications as it runs, for the alert tests: the bus and the alert handlers, the
// email queue and its worker, an SMTP server that keeps what it gets, and the app (settings, unsubscribe).
import { randomUUID } from 'node:crypto';
import { ProcessedEvents, RedisStreamsEventBus, createQueue } from '@lsp/service-kit';
import {
  type EventEnvelope,
  IDENTITY_EVENT_TYPES,
  SEARCH_EVENT_TYPES,
  type SearchRepricedEvent,
  createEnvelope,
} from '@lsp/contracts';
import { type TestSmtp, silentLogger, startHarness, waitFor } from '@lsp/testing';
import type { Queue, Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Connection } from 'mongoose';
import { unsubscribeKey } from '../src/alerts/unsubscribe-token';
import { AlertStore } from '../src/data/alerts';
import { EMAIL_QUEUE, type EmailJob } from '../src/email/jobs';
import { type AlertDeps, subscribeToAlertEvents } from '../src/events/alerts';
import { buildTestApp, mailBackends, startTestEmailWorker } from './test-app';

export const PUBLIC_URL = 'http://localhost:8080';

export interface AlertsRig {
  db: Connection;
  smtp: TestSmtp;
  queue: Queue<EmailJob>;
  worker: Worker<EmailJob>;
  bus: RedisStreamsEventBus;
  app: FastifyInstance;
  deps: AlertDeps;
  /** The emails the SMTP server got for the address. */
  mailTo(address: string): TestSmtp['messages'];
  /** How many alerts are recorded as sent to the user. */
  alertsRecorded(userId: string): Promise<number>;
  /** Resolves once the bus handler has processed the event. */
  handled(envelope: EventEnvelope): Promise<unknown>;
  /** Registers a new user through identity's event and waits until the alerts know their address. */
  registerUser(): Promise<{ userId: string; email: string }>;
  close(): Promise<void>;
}

/** A user id no other test uses. */
export const newUserId = () => `user-${randomUUID().slice(0, 8)}`;

/** Notifications' alert path as it runs: the bus, the handlers, the email queue, its worker, an SMTP server. */
export function startAlerts(): Promise<AlertsRig> {
  return startHarness(async (backends) => {
    const { redis, onClose } = backends;
    const { smtp, db, config } = await mailBackends(backends, { PUBLIC_URL });
    const prefix = `events-${randomUUID().slice(0, 8)}:`;
    const bus = new RedisStreamsEventBus({ redisUrl: redis.url, prefix, blockMs: 100, claimIntervalMs: 500 });
    onClose(() => bus.close());
    const queue = createQueue<EmailJob>(EMAIL_QUEUE, redis.url);
    onClose(() => queue.close());
    const deps: AlertDeps = {
      processed: await ProcessedEvents.open(db),
      queue,
      alerts: new AlertStore(db),
      unsubscribeKey: unsubscribeKey(config.INTERNAL_SECRET),
      publicUrl: PUBLIC_URL,
      logger: silentLogger(),
    };
    subscribeToAlertEvents(bus, deps);
    await bus.start();
    const worker = startTestEmailWorker(config, db, onClose);
    const app = buildTestApp(config, db);
    await app.ready();
    onClose(() => app.close());
    return {
      db,
      smtp,
      queue,
      worker,
      bus,
      app,
      deps,
      mailTo: (address: string) => smtp.messages.filter((m) => m.to.includes(address)),
      alertsRecorded: (userId: string) => db.collection('repricing_alerts').countDocuments({ userId }),
      handled: (envelope: EventEnvelope) =>
        waitFor(
          async () => (await db.collection('processed_events').findOne({ eventId: envelope.id })) ?? null,
          `${envelope.type} handled`,
        ),
      registerUser: async () => {
        const userId = newUserId();
        const email = `${userId}@example.com`;
        await bus.publish(registered(userId, email));
        await waitFor(() => deps.alerts.recipient(userId), 'the recipient to be known');
        return { userId, email };
      },
    };
  });
}

export const registered = (userId: string, email: string) =>
  createEnvelope('identity', {
    type: IDENTITY_EVENT_TYPES.registered,
    subject: userId,
    data: { userId, email, name: 'Ana Borrower', source: 'register', registeredAt: new Date().toISOString() },
  });

/** A search.repriced for one of the user's searches in a panel change: its best offer halved in rate. */
export function repriced(
  userId: string,
  panelVersion: string,
  overrides: Partial<SearchRepricedEvent> = {},
): EventEnvelope {
  const data: SearchRepricedEvent = {
    searchId: `search-${randomUUID().slice(0, 8)}`,
    userId,
    loanType: 'bridging',
    projectName: 'Chapel Street',
    panelVersion,
    previousVersion: '2026-11',
    marker: 'Terms changed',
    bestBefore: {
      lenderName: 'Harbour Bank',
      productName: 'Bridge 12',
      netLoan: 350_000,
      interestRate: 0.108,
    },
    bestAfter: {
      lenderName: 'Harbour Bank',
      productName: 'Bridge 12',
      netLoan: 350_000,
      interestRate: 0.054,
    },
    offersGained: 0,
    offersLost: 0,
    betterBest: true,
    repricedAt: new Date().toISOString(),
    ...overrides,
  };
  return createEnvelope('search', { type: SEARCH_EVENT_TYPES.repriced, subject: data.searchId, data });
}
