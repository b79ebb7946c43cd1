import type { ServiceMetrics } from '@lsp/service-kit';
import { Gauge } from 'prom-client';

export interface UpstreamProbeOptions {
  metrics: ServiceMetrics;
  upstreams: Record<string, string>;
  intervalMs: number;
  timeoutMs?: number;
}

/**
 * Upstream state for operations, kept out of the gateway's own readiness: a load balancer that took
 * the gateway out of rotation because one service is down would take the whole site down with it.
 * Each upstream's `/alive` is probed in the background and published as `gateway_upstream_up`
 * (1 answering, 0 not) with the last probe's duration, so dashboards and alerts see which one is down.
 */
export function startUpstreamProbes({
  metrics,
  upstreams,
  intervalMs,
  timeoutMs = 1500,
}: UpstreamProbeOptions) {
  const up = new Gauge({
    name: 'gateway_upstream_up',
    help: 'Whether the upstream service answered its last /alive probe (1) or not (0)',
    labelNames: ['upstream'],
    registers: [metrics.registry],
  });
  const probeSeconds = new Gauge({
    name: 'gateway_upstream_probe_seconds',
    help: 'Duration of the last /alive probe of the upstream service',
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
  const probeAll = () => {
    running = Promise.all(Object.entries(upstreams).map(([name, base]) => probe(name, base)));
    return running;
  };
  void probeAll();
  const timer = setInterval(() => void probeAll(), intervalMs);
  timer.unref();

  return {
    /** Probes every upstream now (also what the timer does); resolves when the gauges are set. */
    probeAll,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
