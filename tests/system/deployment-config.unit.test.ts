import { PLATFORM_PROCESSES, platformProcess } from '@lsp/contracts';
import { loadConfig } from '@lsp/service-kit';
// Checks the deployment descriptions against the code they run, without Docker or a cluster:
// docker-compose.yml and the Kubernetes manifests must give every process an environment its own
// config schema accepts at boot, health checks, and the dependencies and exposure the design asks for.
// The schemas are imported, not copied, so a variable added to a service fails here until the
// compose file, the manifests and .env.example carry it too.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import type { z } from 'zod';
import { dipConfigSchema } from '../../services/dip/src/config';
import { gatewayConfigSchema } from '../../services/gateway/src/config';
import { identityConfigSchema } from '../../services/identity/src/config';
import { notificationsConfigSchema } from '../../services/notifications/src/config';
import { repricingWorkerConfigSchema, searchConfigSchema } from '../../services/search/src/config';
import { sharingConfigSchema } from '../../services/sharing/src/config';

const ROOT = path.resolve(__dirname, '../..');
const K8S = path.join(ROOT, 'deploy/k8s');

type Env = Record<string, string>;
/** Parsed YAML: the tests navigate it and fail on any shape they do not expect. */
type Doc = Record<string, any>;

/** The config schema each Node process parses at boot; workers parse their service's schema. */
const SCHEMAS: Record<string, z.ZodType> = {
  gateway: gatewayConfigSchema,
  identity: identityConfigSchema,
  search: searchConfigSchema,
  dip: dipConfigSchema,
  'pdf-worker': dipConfigSchema,
  'repricing-worker': repricingWorkerConfigSchema,
  sharing: sharingConfigSchema,
  notifications: notificationsConfigSchema,
  'email-worker': notificationsConfigSchema,
};
const WORKERS = new Set(PLATFORM_PROCESSES.filter((p) => p.kind === 'worker').map((p) => p.name));
/** Variables the frontends' static servers read (frontends/static-server.ts). */
const FRONTEND_VARIABLES = new Set(['PORT', 'HOST', 'LOG_LEVEL']);
/** Read by the runtime or Chromium rather than our code, so no schema lists them. */
const PROCESS_VARIABLES = new Set(['NODE_ENV', 'HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME']);
const INFRA = ['mongo', 'redis', 'kafka', 'mailpit', 'kafka-ui'];
const PUBLISHING = new Set(['gateway', 'mailpit', 'kafka-ui']);

/** The processes `npm start` runs (the platform's process registry, less the database), the list deployments must match. */
function stackProcesses(): { name: string; entry: string }[] {
  return PLATFORM_PROCESSES.filter((proc) => proc.kind !== 'database');
}

/** What an operator's `.env` would hold for a variable compose requires (`${NAME:?message}`): one value each. */
const operatorSecret = (name: string) => `operator-chosen-${name.toLowerCase()}-of-at-least-32-characters`;

/**
 * Compose's variable interpolation with an empty shell environment: the defaults, and the
 * operator's secret for the required variables (without one, compose stops with their message).
 */
function interpolate(value: unknown): string {
  return String(value)
    .split('$$')
    .map((part) =>
      part.replace(
        /\$\{(\w+)(?:(:?-|:?\?)([^}]*))?\}/g,
        (_all, name: string, kind?: string, rest?: string) =>
          kind?.endsWith('?') ? operatorSecret(name) : (rest ?? ''),
      ),
    )
    .join('$');
}

function objectKeys(schema: z.ZodType): string[] {
  const s = schema as unknown as { shape?: Record<string, unknown>; def?: { in?: z.ZodType } };
  if (s.shape) return Object.keys(s.shape);
  if (s.def?.in) return objectKeys(s.def.in);
  throw new Error('config schema is neither an object nor a pipe from one');
}

function parseEnvFile(file: string): Env {
  const env: Env = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** Boots the process's config exactly as its entry point does; returns the problem, or null. */
function configProblem(name: string, env: Env): string | null {
  try {
    loadConfig(SCHEMAS[name]!, env);
    return null;
  } catch (err) {
    return `${name}: ${(err as Error).message}`;
  }
}

function unknownVariables(name: string, env: Env): string[] {
  const known = SCHEMAS[name] ? new Set(objectKeys(SCHEMAS[name]!)) : FRONTEND_VARIABLES;
  return Object.keys(env)
    .filter((key) => !known.has(key) && !PROCESS_VARIABLES.has(key))
    .map((key) => `${name}: ${key}`);
}

/** Compose service names a value points at, as host:port (URLs and broker lists). */
function hostsIn(value: string, services: string[]): string[] {
  return [...value.matchAll(/(?:^|[/@,])([a-z][a-z0-9-]*):\d+/g)]
    .map((m) => m[1]!)
    .filter((h) => services.includes(h));
}

// ------------------------------------------------------------------ docker-compose.yml

const compose = yaml.load(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as Doc;
const composeServices = Object.keys(compose.services as Doc);
const processes = stackProcesses();

/** Where the build (scripts/build-node.mjs) puts a source entry's JavaScript, the path images run. */
let compiledEntryOf: (sourceEntry: string) => string;
const BUILD_MODULE = '../../scripts/build-node.mjs';
beforeAll(async () => {
  ({ compiledEntryOf } = (await import(BUILD_MODULE)) as { compiledEntryOf: typeof compiledEntryOf });
});
const composeEnv = (name: string): Env =>
  Object.fromEntries(
    Object.entries((compose.services[name].environment ?? {}) as Doc).map(([k, v]) => [k, interpolate(v)]),
  );

/** The URLs each service is given to ask another that owns a fact (the registry's `asks`). */
const ASKED_ON_DEMAND: Record<string, string[]> = Object.fromEntries(
  PLATFORM_PROCESSES.map((proc) => [
    proc.name,
    (proc.asks ?? []).map((name) => platformProcess(name).urlVariable!),
  ]),
);

describe('docker-compose.yml', () => {
  it('runs every process npm start runs, plus the infrastructure', () => {
    expect(processes.length).toBeGreaterThan(10);
    expect(composeServices.sort()).toEqual([...processes.map((p) => p.name), ...INFRA].sort());
  });

  it('gives each service and worker an environment its config schema accepts at boot', () => {
    const problems = Object.keys(SCHEMAS).map((name) => configProblem(name, composeEnv(name)));
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('sets no variable a process does not read', () => {
    const frontends = processes.map((p) => p.name).filter((n) => !SCHEMAS[n]);
    expect(frontends.sort()).toEqual(['dashboard-mf', 'search-mf', 'shell']);
    const unknown = processes.flatMap((p) => unknownVariables(p.name, composeEnv(p.name)));
    expect(unknown).toEqual([]);
  });

  it('runs the domain services on Kafka and MongoDB as replica set rs0', () => {
    for (const name of Object.keys(SCHEMAS).filter((n) => n !== 'gateway')) {
      const env = composeEnv(name);
      expect({
        name,
        bus: env.EVENT_BUS,
        mongo: new URL(env.MONGO_URL!).searchParams.get('replicaSet'),
      }).toEqual({
        name,
        bus: 'kafka',
        mongo: 'rs0',
      });
      expect(env.KAFKA_BROKERS).toBe('kafka:9092');
    }
  });

  it('gives the gateway and every service the same internal secret, and the gateway and identity the same cookie secret', () => {
    const secrets = new Set(Object.keys(SCHEMAS).map((name) => composeEnv(name).INTERNAL_SECRET));
    expect(secrets.size).toBe(1);
    expect(composeEnv('identity').COOKIE_SECRET).toBe(composeEnv('gateway').COOKIE_SECRET);
  });

  it('starts each process from the compiled form of the entry npm start uses, workers from their service image', () => {
    for (const { name, entry } of processes) {
      const service = compose.services[name] as Doc;
      const compiled = compiledEntryOf(entry);
      if (WORKERS.has(name)) {
        // Plain node on the compiled worker: the image has neither tsx nor TypeScript sources.
        expect({ name, command: service.command }).toEqual({ name, command: ['node', compiled] });
      } else {
        expect({ name, entry: service.build.args.ENTRY }).toEqual({ name, entry: compiled });
        expect(service.command).toBeUndefined();
      }
      expect(service.build.dockerfile).toBe('deploy/Dockerfile');
      // The source the build compiles each entry from is there.
      expect({ name, exists: existsSync(path.join(ROOT, entry)) }).toEqual({ name, exists: true });
      expect(service.build.args.WORKSPACE).toBe(entry.split('/').slice(0, 2).join('/'));
    }
  });

  it('builds the PDF worker on its own target with Chromium, and no other image with a browser', () => {
    const pdfWorker = compose.services['pdf-worker'] as Doc;
    expect(pdfWorker.build.target).toBe('pdf-worker');
    expect(pdfWorker.image).toMatch(/^lsp\/pdf-worker:/);
    expect(pdfWorker.build.args).toEqual({
      WORKSPACE: 'services/dip',
      ENTRY: compiledEntryOf(platformProcess('pdf-worker').entry),
    });
    for (const { name } of processes.filter((p) => p.name !== 'pdf-worker')) {
      const build = compose.services[name].build as Doc;
      expect({ name, target: build.target }).toEqual({ name, target: undefined });
      expect({ name, args: JSON.stringify(build.args) }).not.toEqual({
        name,
        args: expect.stringMatching(/chromium/i),
      });
      expect({ name, image: compose.services[name].image }).not.toEqual({
        name,
        image: expect.stringMatching(/^lsp\/pdf-worker:/),
      });
    }
  });

  it('runs the Kafka release the tests run', () => {
    const testedVersion = /KAFKA_VERSION \?\? '([\d.]+)'/.exec(
      readFileSync(path.join(ROOT, 'scripts/kafka-broker.mjs'), 'utf8'),
    )?.[1];
    expect(testedVersion).toBeDefined();
    expect(compose.services.kafka.image).toBe(`apache/kafka:${testedVersion}`);
  });

  it('says in its header what production refuses, as loadConfig does', () => {
    const header = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8').split('\nname:')[0]!;
    expect(header).toContain('NODE_ENV=production');
    expect(header).toContain('mail catcher');
    expect(header).toContain('development-only secret');
  });

  it('health-checks every process: /health for services and workers, /alive for static servers', () => {
    for (const { name } of processes) {
      const test = (compose.services[name].healthcheck?.test ?? []) as string[];
      expect({ name, path: test.at(-1) }).toEqual({ name, path: SCHEMAS[name] ? '/health' : '/alive' });
    }
    for (const name of ['mongo', 'redis', 'kafka', 'mailpit'])
      expect(compose.services[name].healthcheck?.test).toBeDefined();
  });

  it('starts a process only after everything its environment points at is healthy', () => {
    for (const { name } of processes) {
      // OPS_TARGETS lists what the operations console watches, not what the process needs to run (the
      // gateway itself depends on notifications): a process that is down shows as down on the grid.
      // The owners a service asks on demand (read your own writes across services) are not start
      // dependencies: while one is down the call answers 503 'try again', and dip and search or
      // sharing ask each other, which depends_on could not express.
      const askedOnDemand = ASKED_ON_DEMAND[name] ?? [];
      const needs = new Set(
        Object.entries(composeEnv(name))
          .filter(([key]) => key !== 'OPS_TARGETS' && !askedOnDemand.includes(key))
          .flatMap(([, value]) => hostsIn(value, composeServices)),
      );
      const dependsOn = (compose.services[name].depends_on ?? {}) as Doc;
      for (const host of needs)
        expect({ name, host, condition: dependsOn[host]?.condition }).toEqual({
          name,
          host,
          condition: 'service_healthy',
        });
      for (const [target, rule] of Object.entries(dependsOn)) {
        expect({ name, target, condition: rule.condition }).toEqual({
          name,
          target,
          condition: 'service_healthy',
        });
        expect(compose.services[target].healthcheck).toBeDefined();
      }
    }
    // The platform processes each one waits for are the registry's `dependsOn`, no more and no fewer.
    const platform = new Set(processes.map((p) => p.name));
    for (const proc of PLATFORM_PROCESSES.filter((p) => p.kind !== 'database')) {
      const waitsFor = Object.keys((compose.services[proc.name].depends_on ?? {}) as Doc).filter((name) =>
        platform.has(name),
      );
      expect({ name: proc.name, dependsOn: waitsFor.sort() }).toEqual({
        name: proc.name,
        dependsOn: [...proc.dependsOn].filter((name) => platform.has(name)).sort(),
      });
    }
  });

  it('publishes only the gateway on 8080 and the infrastructure UIs', () => {
    const publishing = composeServices.filter((name) => (compose.services[name].ports ?? []).length > 0);
    expect(publishing.sort()).toEqual([...PUBLISHING].sort());
    expect(compose.services.gateway.ports).toEqual(['8080:8080']);
    // The mail catcher shows every verification link: never beyond this machine.
    expect(compose.services.mailpit.ports).toEqual(['127.0.0.1:8025:8025']);
    expect(compose.services['kafka-ui'].ports).toEqual(['127.0.0.1:8081:8080']);
    expect(compose.services['kafka-ui'].profiles).toEqual(['ops']);
  });

  it('has no default secrets: each is required from the operator, and none is a known value', () => {
    const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    expect(text).not.toMatch(/dev-only/i);
    const secretReferences = [...text.matchAll(/\$\{(\w*(?:SECRET|TOKEN)\w*)([^}]*)\}/g)];
    expect(new Set(secretReferences.map((m) => m[1]))).toEqual(
      new Set(['INTERNAL_SECRET', 'METRICS_TOKEN', 'COOKIE_SECRET', 'SHARE_LINK_SECRET']),
    );
    for (const [reference, , rest] of secretReferences)
      expect([reference, rest]).toEqual([reference, expect.stringMatching(/^:\?/)]);
  });

  it('runs MongoDB as an initiated replica set, Redis with AOF and noeviction, Kafka in KRaft mode', () => {
    const mongo = compose.services.mongo as Doc;
    expect(mongo.image).toMatch(/^mongo:7/);
    expect(mongo.command.join(' ')).toContain('--replSet rs0');
    expect(mongo.healthcheck.test.join(' ')).toContain("rs.initiate({ _id: 'rs0'");
    const redis = compose.services.redis.command.join(' ') as string;
    expect(compose.services.redis.image).toMatch(/^redis:7/);
    expect(redis).toContain('--appendonly yes');
    expect(redis).toContain('--maxmemory-policy noeviction');
    const kafka = compose.services.kafka.environment as Doc;
    expect(kafka.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.KAFKA_ADVERTISED_LISTENERS).toBe('PLAINTEXT://kafka:9092');
  });
});

describe('metrics, read with their own credential', () => {
  /** Every process that serves /metrics: the services and the workers. */
  const scraped = PLATFORM_PROCESSES.filter((p) => p.kind === 'service' || p.kind === 'worker');

  it('gives every process the metrics token compose requires, one value for all, never the internal secret', () => {
    for (const { name } of scraped) {
      const env = composeEnv(name);
      expect({ name, token: env.METRICS_TOKEN }).toEqual({ name, token: operatorSecret('METRICS_TOKEN') });
      expect(env.METRICS_TOKEN).not.toBe(env.INTERNAL_SECRET);
    }
  });

  it('ships a Prometheus scrape config for compose that scrapes every process with the token', () => {
    const prometheus = yaml.load(
      readFileSync(path.join(ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8'),
    ) as Doc;
    const [job] = prometheus.scrape_configs as Doc[];
    expect(job!.metrics_path).toBe('/metrics');
    expect(job!.authorization).toEqual({ type: 'Bearer', credentials_file: '/etc/prometheus/metrics-token' });
    const targets = (job!.static_configs as Doc[]).flatMap((config) => config.targets as string[]);
    expect(new Set(targets)).toEqual(new Set(scraped.map((p) => `${p.name}:${p.port}`)));
    for (const { name, port } of scraped) {
      expect({ name, port: composeEnv(name).PORT }).toEqual({ name, port: String(port) });
    }
    // The token file beside it is never committed.
    expect(readFileSync(path.join(ROOT, '.gitignore'), 'utf8')).toMatch(
      /^deploy\/prometheus\/metrics-token$/m,
    );
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'deploy/Dockerfile'), 'utf8');
  /** A stage's text, from its FROM line to the next. */
  const stageOf = (name: string) => {
    const start = dockerfile.indexOf(` AS ${name}\n`);
    if (start < 0) throw new Error(`deploy/Dockerfile has no stage ${name}`);
    const next = dockerfile.indexOf('\nFROM ', start);
    return dockerfile.slice(start, next < 0 ? undefined : next);
  };
  /** What every process image runs; the default target and the PDF worker's add to it. */
  const runtimeStage = stageOf('app');

  it('declares every build argument docker-compose.yml passes', () => {
    const declared = new Set([...dockerfile.matchAll(/^ARG (\w+)/gm)].map((m) => m[1]));
    const passed = new Set(
      processes.flatMap(({ name }) => Object.keys((compose.services[name].build?.args ?? {}) as Doc)),
    );
    expect([...passed].filter((arg) => !declared.has(arg))).toEqual([]);
  });

  it("builds and runs every stage on one Node image whose major is the one package.json's engines name", () => {
    const engines = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node as string;
    const supportedMajor = /^>=\s*(\d+)$/.exec(engines)?.[1];
    expect(supportedMajor).toBeDefined();
    const images = [...dockerfile.matchAll(/^ARG NODE_IMAGE=(\S+)$/gm)].map((m) => m[1]!);
    expect(images).toHaveLength(1);
    expect(/^node:(\d+)[-.]/.exec(images[0]!)?.[1]).toBe(supportedMajor);
    // Every stage starts from that image or from another stage of the file.
    const stages = new Set([...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]));
    for (const [, base] of dockerfile.matchAll(/^FROM (\S+)/gm)) {
      expect(base === '${NODE_IMAGE}' || stages.has(base!)).toBe(true);
    }
    // No image of compose swaps the base image for another Node.
    const overridden = processes.filter(({ name }) => compose.services[name].build?.args?.NODE_IMAGE);
    expect(overridden).toEqual([]);
  });

  it('runs the final image as a non-root user with production dependencies only', () => {
    expect(runtimeStage).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('npm ci --omit=dev --workspace="$WORKSPACE"');
    expect(runtimeStage).toContain('COPY --from=prod-deps /app/ ./');
    expect(runtimeStage).not.toContain('COPY --from=build /app/node_modules');
  });

  it('adds Chromium only in the pdf-worker target, and the default target is the app alone', () => {
    expect(dockerfile).toMatch(/^FROM app AS pdf-worker$/m);
    expect(stageOf('pdf-worker')).toMatch(
      /apt-get install -y --no-install-recommends chromium fonts-liberation/,
    );
    expect(stageOf('pdf-worker')).toMatch(/^USER node$/m);
    expect(dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))).toMatch(/^\nFROM app AS runtime\n/);
    expect(stageOf('runtime')).not.toMatch(/^(RUN|COPY|USER)/m);
    for (const stage of ['manifests', 'build', 'prod-deps', 'app', 'runtime']) {
      expect({ stage, chromium: /chromium/i.test(stageOf(stage).replace(/^#.*$/gm, '')) }).toEqual({
        stage,
        chromium: false,
      });
    }
  });

  it('compiles in the build stage and runs compiled JavaScript with plain node, without tsx or sources', () => {
    expect(stageOf('build')).toContain('node scripts/build-node.mjs packages "$WORKSPACE"');
    expect(stageOf('build')).toContain('node scripts/build-node.mjs frontends');
    expect(stageOf('prod-deps')).not.toMatch(/tsx/);
    // Neither tsx nor any TypeScript reaches the runtime image: only the build stage's output is copied.
    expect(runtimeStage).not.toMatch(/tsx|\.ts\b|tsconfig/);
    expect(runtimeStage).toContain('COPY --from=build /out/ ./');
    expect(runtimeStage.match(/^COPY .*$/gm)).toEqual([
      'COPY --from=prod-deps /app/ ./',
      'COPY --from=build /out/ ./',
      'COPY deploy/healthcheck.mjs ./deploy/healthcheck.mjs',
    ]);
    expect(runtimeStage).toMatch(/case "\$ENTRY" in \*\.js\)/);
    expect(runtimeStage).toContain('CMD ["/bin/sh", "-c", "exec node \\"$ENTRY\\""]');
    // Every entry compose builds is JavaScript the build emits.
    for (const { name, entry } of processes.filter((p) => !WORKERS.has(p.name))) {
      expect(compose.services[name].build.args.ENTRY).toMatch(/\/dist\/.+\.js$/);
      expect(compose.services[name].build.args.ENTRY).toBe(compiledEntryOf(entry));
    }
  });
});

// ------------------------------------------------------------------ Kubernetes manifests

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(full);
    return entry.name.endsWith('.yaml') ? [full] : [];
  });
}

const manifests = yamlFilesUnder(path.join(K8S, 'base')).flatMap((file) =>
  yaml
    .loadAll(readFileSync(file, 'utf8'))
    .map((doc) => ({ file: path.relative(K8S, file), doc: doc as Doc })),
);
const ofKind = (kind: string) => manifests.filter((m) => m.doc.kind === kind);
/** The processes with a headless `<name>-pods` Service: every one the operations health grid scrapes. */
const HEADLESS = new Set(
  PLATFORM_PROCESSES.filter((p) => p.kind === 'service' || p.kind === 'worker').map((p) => p.name),
);
const configMaps = new Map<string, Env>(
  ofKind('ConfigMap').map((m) => [m.doc.metadata.name as string, m.doc.data as Env]),
);

/** platform-config as the production overlay builds it: base literals merged with platform.env. */
const commonKustomization = yaml.load(
  readFileSync(path.join(K8S, 'base/common/kustomization.yaml'), 'utf8'),
) as Doc;
const platformConfig: Env = {
  ...Object.fromEntries(
    (commonKustomization.configMapGenerator[0].literals as string[]).map((l) => [
      l.slice(0, l.indexOf('=')),
      l.slice(l.indexOf('=') + 1),
    ]),
  ),
  ...parseEnvFile(path.join(K8S, 'overlays/production/platform.env.example')),
};
const platformSecrets = parseEnvFile(path.join(K8S, 'overlays/production/secrets.env.example'));

function deploymentOf(name: string): Doc {
  const found = ofKind('Deployment').find((m) => m.doc.metadata.name === name);
  if (!found) throw new Error(`no Deployment named ${name} under deploy/k8s/base`);
  return found.doc;
}

/** The environment a pod of the Deployment gets, resolving ConfigMap and Secret references. */
function podEnv(deployment: Doc): Env {
  const container = deployment.spec.template.spec.containers[0] as Doc;
  const env: Env = {};
  for (const from of (container.envFrom ?? []) as Doc[]) {
    const data = configMaps.get(from.configMapRef?.name);
    if (!data) throw new Error(`${deployment.metadata.name}: envFrom names a ConfigMap not in the base`);
    Object.assign(env, data);
  }
  for (const item of (container.env ?? []) as Doc[]) {
    const configRef = item.valueFrom?.configMapKeyRef;
    const secretRef = item.valueFrom?.secretKeyRef;
    const value = configRef
      ? configRef.name === 'platform-config'
        ? platformConfig[configRef.key]
        : configMaps.get(configRef.name)?.[configRef.key]
      : secretRef
        ? secretRef.name === 'platform-secrets'
          ? platformSecrets[secretRef.key]
          : undefined
        : item.value;
    if (value === undefined)
      throw new Error(`${deployment.metadata.name}: ${item.name} refers to a key nothing provides`);
    env[item.name] = String(value);
  }
  return env;
}

/** The development mail catcher's packages: an SMTP server and a MIME parser no production process needs. */
const MAIL_CATCHER_PACKAGES = ['smtp-server', 'postal-mime'];

describe("the development mail catcher's packages", () => {
  const lockfile = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; dependencies?: Record<string, string> }>;
  };

  it('are development dependencies only, so `npm ci --omit=dev` leaves them out of every image', () => {
    for (const name of MAIL_CATCHER_PACKAGES) {
      expect({ name, dev: lockfile.packages[`node_modules/${name}`]?.dev }).toEqual({ name, dev: true });
      for (const [location, entry] of Object.entries(lockfile.packages)) {
        if (location.startsWith('node_modules/')) continue;
        expect({ location, production: Object.keys(entry.dependencies ?? {}) }).not.toEqual({
          location,
          production: expect.arrayContaining([name]),
        });
      }
    }
  });

  it('are loaded only when the catcher runs, never by a static import of production code', () => {
    const sources = ['services', 'packages/service-kit', 'packages/contracts'].flatMap((dir) =>
      sourceFilesUnder(path.join(ROOT, dir)),
    );
    const staticImports = sources.filter((file) =>
      MAIL_CATCHER_PACKAGES.some((name) =>
        new RegExp(`^import (?!type )[^;]*from '${name}'`, 'm').test(readFileSync(file, 'utf8')),
      ),
    );
    expect(staticImports.map((file) => path.relative(ROOT, file))).toEqual([]);
  });
});

function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'test', 'bench'].includes(entry.name) ? [] : sourceFilesUnder(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('Kubernetes manifests', () => {
  it('have a Deployment, a Service and a ConfigMap for every process', () => {
    for (const { name } of processes) {
      const files = manifests.filter((m) => m.file.startsWith(`base/${name}/`)).map((m) => m.doc.kind);
      // Every process the health grid scrapes also has its headless `<name>-pods` Service.
      const services = HEADLESS.has(name) ? ['Service', 'Service'] : ['Service'];
      expect({ name, kinds: files.sort() }).toEqual({
        name,
        kinds: ['ConfigMap', 'Deployment', 'Kustomization', ...services],
      });
    }
    expect(ofKind('Deployment')).toHaveLength(processes.length);
  });

  it('give each service and worker a pod environment its config schema accepts, with no unknown variable', () => {
    const problems = Object.keys(SCHEMAS).map((name) => configProblem(name, podEnv(deploymentOf(name))));
    expect(problems.filter(Boolean)).toEqual([]);
    const unknown = processes.flatMap((p) => unknownVariables(p.name, podEnv(deploymentOf(p.name))));
    expect(unknown).toEqual([]);
  });

  it('set the same variables for each process as docker-compose.yml', () => {
    const relevant = (env: Env) =>
      Object.keys(env)
        .filter((k) => !PROCESS_VARIABLES.has(k))
        .sort();
    for (const { name } of processes) {
      expect({ name, keys: relevant(podEnv(deploymentOf(name))) }).toEqual({
        name,
        keys: relevant(composeEnv(name)),
      });
    }
  });

  it('probe readiness on /health (/alive for static servers) and liveness on /alive, with resources set', () => {
    for (const { name } of processes) {
      const container = deploymentOf(name).spec.template.spec.containers[0] as Doc;
      expect({
        name,
        readiness: container.readinessProbe?.httpGet?.path,
        liveness: container.livenessProbe?.httpGet?.path,
        probePort: container.readinessProbe?.httpGet?.port,
        portName: container.ports?.[0]?.name,
      }).toEqual({
        name,
        readiness: SCHEMAS[name] ? '/health' : '/alive',
        liveness: '/alive',
        probePort: 'http',
        portName: 'http',
      });
      expect(container.resources.requests.cpu).toMatch(/^\d+m$/);
      expect(container.resources.requests.memory).toMatch(/^\d+(Mi|Gi)$/);
      expect(container.resources.limits.memory).toMatch(/^\d+(Mi|Gi)$/);
    }
  });

  it('run every pod as a non-root user with a read-only root filesystem', () => {
    for (const { name } of processes) {
      const spec = deploymentOf(name).spec.template.spec as Doc;
      expect({
        name,
        nonRoot: spec.securityContext.runAsNonRoot,
        readOnly: spec.containers[0].securityContext.readOnlyRootFilesystem,
      }).toEqual({
        name,
        nonRoot: true,
        readOnly: true,
      });
    }
  });

  it('listen where the Service sends traffic and where the gateway looks for each upstream', () => {
    const servicePorts = new Map<string, number>();
    for (const { doc } of ofKind('Service')) {
      const deployment = deploymentOf(String(doc.metadata.name).replace(/-pods$/, ''));
      expect(doc.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(deployment.spec.template.metadata.labels).toMatchObject(doc.spec.selector);
      expect(doc.spec.ports[0].port).toBe(deployment.spec.template.spec.containers[0].ports[0].containerPort);
      expect(String(doc.spec.ports[0].port)).toBe(podEnv(deployment).PORT);
      servicePorts.set(doc.metadata.name, doc.spec.ports[0].port);
    }
    const gateway = podEnv(deploymentOf('gateway'));
    for (const key of Object.keys(gateway).filter(
      (k) => k.endsWith('_URL') && k !== 'PUBLIC_URL' && k !== 'REDIS_URL',
    )) {
      const url = new URL(gateway[key]!);
      expect({ key, port: servicePorts.get(url.hostname) }).toEqual({ key, port: Number(url.port) });
    }
  });

  it("point the health grid at a headless Service of every process, on the process's port", () => {
    const targets = String(configMaps.get('notifications-config')?.OPS_TARGETS ?? '')
      .split(',')
      .map((part) => part.split('='));
    expect(targets.map(([name]) => name).sort()).toEqual([...HEADLESS].sort());
    for (const [name, url] of targets) {
      const { hostname, port } = new URL(url!);
      const service = ofKind('Service').find((m) => m.doc.metadata.name === hostname)?.doc;
      expect({ name, hostname, clusterIP: service?.spec.clusterIP }).toEqual({
        name,
        hostname: `${name}-pods`,
        clusterIP: 'None',
      });
      expect(String(service!.spec.ports[0].port)).toBe(port);
    }
  });

  it('start each worker with plain node on the compiled form of the entry npm start uses', () => {
    for (const { name, entry } of processes.filter((p) => WORKERS.has(p.name))) {
      expect({ name, args: deploymentOf(name).spec.template.spec.containers[0].args }).toEqual({
        name,
        args: ['node', compiledEntryOf(entry)],
      });
    }
  });

  it('run each process on the image compose builds for it, each image tagged by the production overlay', () => {
    const overlay = yaml.load(
      readFileSync(path.join(K8S, 'overlays/production/kustomization.yaml'), 'utf8'),
    ) as Doc;
    const tagged = new Set((overlay.images as Doc[]).map((image) => image.name as string));
    for (const { name } of processes) {
      const image = deploymentOf(name).spec.template.spec.containers[0].image as string;
      expect({ name, image }).toEqual({
        name,
        image: (compose.services[name].image as string).split(':')[0],
      });
      expect({ name, tagged: tagged.has(image) }).toEqual({ name, tagged: true });
    }
  });

  it('give every service and worker the metrics token from platform-secrets, and a ServiceMonitor that sends it', () => {
    const scraped = PLATFORM_PROCESSES.filter((p) => p.kind === 'service' || p.kind === 'worker');
    for (const { name } of scraped) {
      const container = deploymentOf(name).spec.template.spec.containers[0] as Doc;
      const token = (container.env as Doc[]).find((item) => item.name === 'METRICS_TOKEN');
      expect({ name, from: token?.valueFrom?.secretKeyRef }).toEqual({
        name,
        from: { name: 'platform-secrets', key: 'METRICS_TOKEN' },
      });
    }
    expect(platformSecrets.METRICS_TOKEN).toBeDefined();
    expect(platformSecrets.METRICS_TOKEN).not.toBe(platformSecrets.INTERNAL_SECRET);

    const monitoring = path.join(K8S, 'monitoring');
    const kustomization = yaml.load(readFileSync(path.join(monitoring, 'kustomization.yaml'), 'utf8')) as Doc;
    const docs = (kustomization.resources as string[]).flatMap((file) =>
      yaml.loadAll(readFileSync(path.join(monitoring, file), 'utf8')).map((doc) => doc as Doc),
    );
    const monitor = docs.find((doc) => doc.kind === 'ServiceMonitor')!;
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.spec.endpoints).toEqual([
      {
        port: 'http',
        path: '/metrics',
        interval: expect.any(String),
        authorization: { type: 'Bearer', credentials: { name: 'platform-secrets', key: 'METRICS_TOKEN' } },
      },
    ]);
    // It selects exactly the headless Service of every service and worker: each pod once.
    const selector = monitor.spec.selector.matchLabels as Env;
    const selected = ofKind('Service')
      .filter((m) => Object.entries(selector).every(([k, v]) => m.doc.metadata.labels?.[k] === v))
      .map((m) => m.doc.metadata.name as string);
    expect(selected.sort()).toEqual(scraped.map((p) => `${p.name}-pods`).sort());
    for (const m of ofKind('Service').filter((m) => selected.includes(m.doc.metadata.name))) {
      expect((m.doc.spec.ports as Doc[]).map((p) => p.name)).toContain('http');
    }
    // And Prometheus may reach those pods on that port.
    const policy = docs.find((doc) => doc.kind === 'NetworkPolicy')!;
    expect(policy.spec.podSelector.matchExpressions).toEqual([
      { key: 'app.kubernetes.io/component', operator: 'In', values: ['service', 'worker'] },
    ]);
    expect(policy.spec.ingress[0].ports).toEqual([{ port: 'http' }]);
  });

  it('group every process into exactly one domain kustomization, all of which the overlay deploys', () => {
    const domains = readdirSync(path.join(K8S, 'domains'));
    const included = domains.flatMap((domain) => {
      const k = yaml.load(
        readFileSync(path.join(K8S, 'domains', domain, 'kustomization.yaml'), 'utf8'),
      ) as Doc;
      return (k.resources as string[]).map((r) => path.basename(r));
    });
    expect(included.sort()).toEqual(processes.map((p) => p.name).sort());
    const overlay = yaml.load(
      readFileSync(path.join(K8S, 'overlays/production/kustomization.yaml'), 'utf8'),
    ) as Doc;
    const resources = overlay.resources as string[];
    for (const domain of domains) expect(resources).toContain(`../../domains/${domain}`);
    for (const resource of resources)
      expect(existsSync(path.join(K8S, 'overlays/production', resource))).toBe(true);
    for (const name of processes.map((p) => p.name)) {
      const k = yaml.load(readFileSync(path.join(K8S, 'base', name, 'kustomization.yaml'), 'utf8')) as Doc;
      for (const resource of k.resources as string[])
        expect(existsSync(path.join(K8S, 'base', name, resource))).toBe(true);
    }
  });

  it('let only the gateway (and notifications, for the health grid) open connections to the other pods', () => {
    const policies = yaml
      .loadAll(readFileSync(path.join(K8S, 'overlays/production/network-policies.yaml'), 'utf8'))
      .map((doc) => doc as Doc);
    const overlay = yaml.load(
      readFileSync(path.join(K8S, 'overlays/production/kustomization.yaml'), 'utf8'),
    ) as Doc;
    expect(overlay.resources).toContain('network-policies.yaml');
    expect(policies.every((p) => p.kind === 'NetworkPolicy')).toBe(true);

    /** Kubernetes' label-selector semantics for matchLabels and In/NotIn expressions. */
    const selects = (selector: Doc, labels: Env) =>
      Object.entries((selector.matchLabels ?? {}) as Env).every(([k, v]) => labels[k] === v) &&
      ((selector.matchExpressions ?? []) as Doc[]).every((e) =>
        e.operator === 'In'
          ? (e.values as string[]).includes(labels[e.key])
          : e.operator === 'NotIn'
            ? !(e.values as string[]).includes(labels[e.key])
            : false,
      );
    const podLabels = (name: string) => deploymentOf(name).spec.template.metadata.labels as Env;
    /** Whether a pod of `from` (in this namespace) may open a connection to the http port of `to`. */
    const mayConnect = (from: string | null, to: string) => {
      const applying = policies.filter(
        (p) =>
          (p.spec.policyTypes as string[]).includes('Ingress') && selects(p.spec.podSelector, podLabels(to)),
      );
      if (applying.length === 0) return true;
      return applying.some((p) =>
        ((p.spec.ingress ?? []) as Doc[]).some(
          (rule) =>
            ((rule.ports ?? [{ port: 'http' }]) as Doc[]).some((port) => port.port === 'http') &&
            (rule.from === undefined ||
              (from !== null &&
                (rule.from as Doc[]).some(
                  (peer) => peer.podSelector && selects(peer.podSelector, podLabels(from)),
                ))),
        ),
      );
    };
    const names = processes.map((p) => p.name);
    /** Whether `from` asks `to` directly, by one of the URLs it is given for that. */
    const asks = (from: string, to: string) =>
      (ASKED_ON_DEMAND[from] ?? []).some((key) => key === `${to.toUpperCase()}_URL`);
    for (const to of names) {
      // A pod outside the platform (an attacker's, or the ingress controller's).
      expect([to, mayConnect(null, to)]).toEqual([to, to === 'gateway']);
      for (const from of names) {
        const allowed = to === 'gateway' || from === 'gateway' || from === 'notifications' || asks(from, to);
        expect([from, to, mayConnect(from, to)]).toEqual([from, to, allowed]);
      }
    }
  });
});

// ------------------------------------------------------------------ .env.example

describe('.env.example', () => {
  it('documents every variable of every service schema', () => {
    const documented = new Set(
      readFileSync(path.join(ROOT, '.env.example'), 'utf8')
        .split('\n')
        .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
        .filter(Boolean),
    );
    const missing = [...new Set(Object.values(SCHEMAS).flatMap(objectKeys))].filter(
      (key) => !documented.has(key),
    );
    expect(missing).toEqual([]);
  });
});
