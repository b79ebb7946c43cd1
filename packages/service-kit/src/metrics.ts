import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const EVENT_LOOP_SAMPLE_MS = 1000;
/** Seconds: fine below 50 ms (the aim at rest), coarse up to the relay's 5 s poll and beyond. */
export const PROPAGATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One Prometheus registry per service process, exposed at /metrics. */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly eventsPublished: Counter<'type'>;
  readonly eventsConsumed: Counter<'type'>;
  readonly eventsFailed: Counter<'type'>;
  readonly eventsDeadLettered: Counter<'type'>;
  readonly queueDepth: Gauge<'queue' | 'state'>;
  /** From the event's time (its commit, near enough) to its being published to the bus. */
  readonly eventPublishDelay: Histogram<'type'>;
  /** From the event's time to a consumer having handled it: what a user waiting on a projection meets. */
  readonly eventPropagation: Histogram<'type' | 'consumer'>;
  private readonly queueDepthSources: Array<
    () => Promise<Array<{ queue: string; state: string; count: number }>>
  > = [];

  /**
   * `processMetrics: false` leaves out the process's own figures (memory, CPU, event-loop lag, GC):
   * in the all-in-one host they are the one process's, reported once (by the gateway), not by each
   * service again with one more event-loop sampler each.
   */
  constructor(service: string, opts: { processMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ service });
    // prom-client samples event-loop delay with a 10 ms timer by default: 100 wake-ups a second, about
    // 8 ms of CPU per second in every idle process on a small machine (a wake-up costs about 0.2 ms),
    // and still 2 ms at 100 ms. At 1 s a loop blocked for a second or more always shows in the lag; a
    // shorter stall shows when it covers a sample, which under sustained load some always do.
    if (opts.processMetrics !== false)
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    const counter = (name: string, help: string) =>
      new Counter({ name, help, labelNames: ['type'], registers: [this.registry] });
    this.eventsPublished = counter('events_published_total', 'Events published to the bus');
    this.eventsConsumed = counter('events_consumed_total', 'Events handled successfully');
    this.eventsFailed = counter('events_failed_total', 'Event handler failures (each attempt)');
    this.eventsDeadLettered = counter('events_dead_lettered_total', 'Events moved to a dead-letter topic');
    this.eventPublishDelay = new Histogram({
      name: 'event_publish_delay_seconds',
      help: 'From an event being committed to its outbox entry being published',
      labelNames: ['type'],
      buckets: PROPAGATION_BUCKETS,
      registers: [this.registry],
    });
    this.eventPropagation = new Histogram({
      name: 'event_propagation_seconds',
      help: 'From an event being committed to a consumer group having handled it',
      labelNames: ['type', 'consumer'],
      buckets: PROPAGATION_BUCKETS,
      registers: [this.registry],
    });
    const sources = this.queueDepthSources;
    this.queueDepth = new Gauge({
      name: 'queue_depth',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const source of sources) {
          for (const row of await source().catch(() => []))
            this.set({ queue: row.queue, state: row.state }, row.count);
        }
      },
    });
  }

  /** The hook the event bus reports through. */
  get eventHooks() {
    return {
      onPublished: (type: string) => this.eventsPublished.inc({ type }),
      onConsumed: (type: string, handled?: { time: string; consumerGroup: string }) => {
        this.eventsConsumed.inc({ type });
        if (!handled) return;
        const ageMs = Date.now() - Date.parse(handled.time);
        if (Number.isFinite(ageMs))
          this.eventPropagation.observe({ type, consumer: handled.consumerGroup }, Math.max(0, ageMs) / 1000);
      },
      onFailed: (type: string) => this.eventsFailed.inc({ type }),
      onDeadLettered: (type: string) => this.eventsDeadLettered.inc({ type }),
    };
  }

  addQueueDepthSource(source: () => Promise<Array<{ queue: string; state: string; count: number }>>) {
    this.queueDepthSources.push(source);
  }
}
