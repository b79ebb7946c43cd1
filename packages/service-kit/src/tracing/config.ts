/**
 * Tracing is configured with OpenTelemetry's standard variables only, and is off unless an OTLP
 * endpoint is named: then not one module of the SDK is loaded.
 *
 * - `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): where spans go; unset, tracing is off
 * - `OTEL_EXPORTER_OTLP_PROTOCOL` (or `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`): `http/protobuf` (the default) or `http/json`
 * - `OTEL_SERVICE_NAME`: the process's name; unset, the `SERVICE_NAME` its launcher set from the process registry
 * - `OTEL_SDK_DISABLED=true`: off whatever else is set
 *
 * - `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`,
 *   `OTEL_BSP_EXPORT_TIMEOUT`: the batch span processor's (milliseconds and counts; unset, the SDK's defaults)
 *
 * The exporters read the endpoint, headers and timeouts themselves.
 */
export const TRACE_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type TraceProtocol = (typeof TRACE_PROTOCOLS)[number];

export interface TracingConfig {
  serviceName: string;
  protocol: TraceProtocol;
  batch: {
    scheduledDelayMillis?: number;
    maxQueueSize?: number;
    maxExportBatchSize?: number;
    exportTimeoutMillis?: number;
  };
}

const BATCH_VARIABLES = {
  scheduledDelayMillis: 'OTEL_BSP_SCHEDULE_DELAY',
  maxQueueSize: 'OTEL_BSP_MAX_QUEUE_SIZE',
  maxExportBatchSize: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
  exportTimeoutMillis: 'OTEL_BSP_EXPORT_TIMEOUT',
} as const;

function batchFromEnv(env: NodeJS.ProcessEnv): TracingConfig['batch'] {
  const batch: TracingConfig['batch'] = {};
  for (const [option, variable] of Object.entries(BATCH_VARIABLES)) {
    const text = env[variable]?.trim();
    if (!text) continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0)
      throw new TracingConfigError(`${variable} must be a whole number above 0, got "${text}"`);
    batch[option as keyof TracingConfig['batch']] = value;
  }
  return batch;
}

export class TracingConfigError extends Error {}

/** What tracing runs with, or null when it is off; a protocol it cannot send is refused by name. */
export function tracingConfigFromEnv(env: NodeJS.ProcessEnv): TracingConfig | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return null;
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() ||
    'http/protobuf'
  ).toLowerCase();
  if (!(TRACE_PROTOCOLS as readonly string[]).includes(protocol))
    throw new TracingConfigError(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be ${TRACE_PROTOCOLS.join(' or ')}, got "${protocol}"`,
    );
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || env.SERVICE_NAME?.trim() || 'unknown_service:node';
  return { serviceName, protocol: protocol as TraceProtocol, batch: batchFromEnv(env) };
}
