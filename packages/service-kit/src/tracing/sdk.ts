import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { TracingConfig } from './config';
import { type StartedTracing, useTracing } from './state';

/** Requests that only probe the process: polled every few seconds, they would bury the traces of real ones. */
const PROBE_PATHS = new Set(['/alive', '/health', '/ready', '/metrics']);
const isProbe = (url: string | undefined) => PROBE_PATHS.has((url ?? '').split('?')[0]!);

/**
 * Starts the SDK: W3C trace context in and out of every HTTP call, spans batched to the OTLP endpoint
 * in the configured protocol, and the instrumentations hooked into the libraries before any of them is
 * loaded. Log lines written inside a span carry its `trace_id` and `span_id` (pino's mixin).
 */
export function startTracingSdk(config: TracingConfig): StartedTracing {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // Only the configured protocol's exporter is loaded.
  const { OTLPTraceExporter } =
    config.protocol === 'http/json'
      ? (require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http'))
      : (require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto'));
  const exporter = new OTLPTraceExporter();
  // OTEL_RESOURCE_ATTRIBUTES may add attributes; the process's name is the one configured.
  const resource = detectResources({ detectors: [envDetector] }).merge(
    resourceFromAttributes({ 'service.name': config.serviceName }),
  );
  const provider = new TracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor({ exporter, ...config.batch })],
  });
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => isProbe(req.url) }),
      new UndiciInstrumentation(),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => isProbe(route.url),
      }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new KafkaJsInstrumentation(),
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  const started: StartedTracing = {
    serviceName: config.serviceName,
    tracer: trace.getTracer('@lsp/service-kit'),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
  useTracing(started);
  return started;
}
