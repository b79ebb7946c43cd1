// One jest run for every workspace. Unit tests are pure and fast; integration tests talk to the
// embedded MongoDB and the machine's Redis, so they run one file at a time (see package.json).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
// e2e/ for the pure helpers of the browser tests (their unit tests); the specs themselves are Playwright's.
// tests/system/: the whole system started as npm start starts it.
const roots = [
  '<rootDir>/packages',
  '<rootDir>/services',
  '<rootDir>/frontends',
  '<rootDir>/scripts',
  '<rootDir>/e2e',
  '<rootDir>/tests',
];
const common = {
  transform: { '^.+\\.(t|j)sx?$': swc, '^.+\\.mjs$': swc },
  roots,
  testEnvironment: 'node',
  // The ES-module-only packages are compiled to CommonJS like our sources, also where npm nests them
  // (light-my-request's cookie 2 sits in node_modules/light-my-request/node_modules/cookie): a file is
  // left alone only when the package of its last node_modules/ segment is not one of them.
  transformIgnorePatterns: [
    '/node_modules/(?!(mingo|cookie|content-disposition|@platformatic|puppeteer-core|@puppeteer|chromium-bidi)/)(?!.*/node_modules/)',
  ],
  // Tests run the workspace packages from source, as tsconfig.base.json's `paths` do for tsc and tsx;
  // their package.json `exports` point plain `node` at the built dist/ instead.
  moduleNameMapper: {
    '^@lsp/(contracts|service-kit|embedded-mongo|frontend-kit)$': '<rootDir>/packages/$1/src/index.ts',
    '^@lsp/service-kit/tracing$': '<rootDir>/packages/service-kit/src/start-tracing.ts',
    '^@lsp/([a-z-]+)/processes$': '<rootDir>/services/$1/src/processes.ts',
  },
};

module.exports = {
  // A global option (jest ignores it per project): generous, because a loaded 2-core machine is slow.
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.unit.test.ts', '**/*.unit.test.tsx'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/*.int.test.ts'],
      // Real MongoDB, Redis and Kafka through testcontainers when a Docker engine answers; else embedded.
      globalSetup: '<rootDir>/packages/testing/src/jest/integration-global-setup.ts',
      globalTeardown: '<rootDir>/packages/testing/src/jest/integration-global-teardown.ts',
      // Every answer of a declared /api route is checked against its contract (a mismatch is a 500).
      setupFiles: ['<rootDir>/packages/testing/src/jest/response-conformance.ts'],
    },
  ],
};
