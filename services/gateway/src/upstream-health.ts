import type { ServiceMetrics } from '@lsp/service-kit';
import { Gauge } from 'prom-client';

export interface UpstreamProbeOptions {
  metrics: ServiceMetrics;
  upstreams: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Upstream state for operations, kept out of the gateway's own readiness: a load balancer that took
 * the gateway out of rotation because one service is down would take the whole site down with it.
 * Each upstream's `/alive` is probed when the metrics are read and published as `gateway_upstream_up`
 * (1 answering, 0 not) with the probe's duration, so dashboards and alerts see which one is down.
 * Probing on a scrape rather than on a timer keeps an idle gateway asleep when nobody is watching,
 * and the answer is as fresh as the scrape.
 */
export function startUpstreamProbes({ metrics, upstreams, timeoutMs = 1500 }: UpstreamProbeOptions) {
  const up = new Gauge({
    name: 'gateway_upstream_up',
    help: 'Whether the upstream service answered its /alive probe (1) or not (0) when the metrics were read',
    labelNames: ['upstream'],
    registers: [metrics.registry],
    // Registered before the duration gauge, so a scrape probes first and reads both after.
    collect: () => probeAll(),
  });
  const probeSeconds = new Gauge({
    name: 'gateway_upstream_probe_seconds',
    help: 'Duration of the /alive probe of the upstream service when the metrics were read',
    labelNames: ['upstream'],
    registers: [metrics.registry],
  });

  const probe = async (upstream: string, base: string) => {
    const started = performance.now();
    let answering = false;
    try {
      const res = await fetch(`${base}/alive`, { signal: AbortSignal.timeout(timeoutMs) });
      answering = res.ok;
      await res.body?.cancel();
    } catch {
      answering = false;
    }
    up.set({ upstream }, answering ? 1 : 0);
    probeSeconds.set({ upstream }, (performance.now() - started) / 1000);
  };

  let running: Promise<unknown> = Promise.resolve();
  async function probeAll(): Promise<void> {
    running = Promise.all(Object.entries(upstreams).map(([name, base]) => probe(name, base)));
    await running;
  }

  return {
    /** Probes every upstream now (also what a scrape does); resolves when the gauges are set. */
    probeAll,
    /** Waits for a probe under way. */
    async stop() {
      await running;
    },
  };
}
