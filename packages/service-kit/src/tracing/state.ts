import type { Tracer } from '@opentelemetry/api';

/** The running SDK, when tracing is on in this process. */
export interface StartedTracing {
  serviceName: string;
  tracer: Tracer;
  /** Sends the spans still batched (before the process exits). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let current: StartedTracing | null = null;

/** Called once by the SDK's start; nothing else sets it. */
export function useTracing(started: StartedTracing) {
  current = started;
}

/** The running SDK, or null when tracing is off (then no OpenTelemetry module is loaded). */
export function runningTracing(): StartedTracing | null {
  return current;
}
