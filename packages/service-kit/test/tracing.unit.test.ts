import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { TracingConfigError, tracingConfigFromEnv } from '../src/tracing/config';

const ROOT = path.resolve(__dirname, '../../..');

describe('tracing configuration (the standard OTEL_ variables only)', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', SERVICE_NAME: 'dip' };

  it('is off when no OTLP endpoint is named, or when OTEL_SDK_DISABLED=true', () => {
    expect(tracingConfigFromEnv({ SERVICE_NAME: 'dip' })).toBeNull();
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeNull();
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toBeNull();
  });

  it('is on with an endpoint: http/protobuf by default, http/json when asked, the signal variable first', () => {
    expect(tracingConfigFromEnv(endpoint)).toEqual({
      serviceName: 'dip',
      protocol: 'http/protobuf',
      batch: {},
    });
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })?.protocol).toBe(
      'http/json',
    );
    expect(
      tracingConfigFromEnv({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      })?.protocol,
    ).toBe('http/protobuf');
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_SDK_DISABLED: 'false' })).not.toBeNull();
  });

  it('names the process OTEL_SERVICE_NAME, else the SERVICE_NAME its launcher set from the registry', () => {
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_SERVICE_NAME: 'pdf-worker' })?.serviceName).toBe(
      'pdf-worker',
    );
    expect(tracingConfigFromEnv(endpoint)?.serviceName).toBe('dip');
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318' })?.serviceName).toBe(
      'unknown_service:node',
    );
  });

  it('refuses a protocol it cannot send and a batch setting that is not a positive whole number, by name', () => {
    expect(() => tracingConfigFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      new TracingConfigError('OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "grpc"'),
    );
    expect(() => tracingConfigFromEnv({ ...endpoint, OTEL_BSP_SCHEDULE_DELAY: '0.5' })).toThrow(
      'OTEL_BSP_SCHEDULE_DELAY must be a whole number above 0, got "0.5"',
    );
    expect(
      tracingConfigFromEnv({ ...endpoint, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BSP_MAX_QUEUE_SIZE: '4096' })
        ?.batch,
    ).toEqual({ scheduledDelayMillis: 100, maxQueueSize: 4096 });
  });
});

describe('tracing off', () => {
  /**
   * Loads the entry's first import and service-kit in a fresh Node, and counts the OpenTelemetry
   * modules loaded but the API's (prom-client loads the API itself; without an SDK it does nothing).
   */
  function openTelemetryModulesLoaded(env: Record<string, string>) {
    const script = [
      "require('./packages/service-kit/src/start-tracing.ts');",
      "require('./packages/service-kit/src/index.ts');",
      'process.stdout.write(String(Object.keys(require.cache).filter((m) => /[\\/]@opentelemetry[\\/](?!api[\\/])/.test(m)).length));',
    ].join('');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(run.stderr);
    return Number(run.stdout);
  }

  it('loads no OpenTelemetry SDK module without an endpoint or with OTEL_SDK_DISABLED, and the SDK with one', () => {
    expect(openTelemetryModulesLoaded({})).toBe(0);
    expect(
      openTelemetryModulesLoaded({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toBe(0);
    expect(openTelemetryModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toBeGreaterThan(
      10,
    );
  });

  it('refuses to start a process whose tracing protocol it cannot send, naming the variable', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "require('./packages/service-kit/src/start-tracing.ts')"],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        },
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json');
  });
});
