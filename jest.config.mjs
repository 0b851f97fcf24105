/**
 * One jest run for the whole workspace, in native ESM (NestJS 12 ships ESM only, and jest
 * can require() ESM only on Node ≥ 24.9). Workspace packages map to their sources so tests
 * need no build; tests that spawn the server or the CLI use the build (`pnpm test` builds).
 */
const workspace = {
  domain: 'packages/domain',
  'json-reader': 'packages/json-reader',
  'adapters-http': 'packages/adapters-http',
  'adapters-persistence': 'packages/adapters-persistence',
  'adapters-messaging': 'packages/adapters-messaging',
  'adapters-redis': 'packages/adapters-redis',
  client: 'packages/client',
};

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/scripts'],
  testMatch: ['**/test/**/*.test.ts', '**/test/**/*.e2e-spec.ts'],
  moduleNameMapper: {
    ...Object.fromEntries(
      Object.entries(workspace).map(([name, dir]) => [`^@plantstore/${name}$`, `<rootDir>/${dir}/src/index.ts`]),
    ),
    '^@plantstore/domain/testing$': '<rootDir>/packages/domain/src/testing/index.ts',
    // Loaded only by a server that relays (a subpath, so the package's index never loads NATS).
    '^@plantstore/adapters-messaging/jetstream$': '<rootDir>/packages/adapters-messaging/src/jetstream-publisher.ts',
    // Each adapter's Nest module is a subpath of its own, so an app without Nest never loads it.
    ...Object.fromEntries(
      ['adapters-persistence', 'adapters-messaging', 'adapters-redis'].map((name) => [
        `^@plantstore/${name}/nest$`,
        `<rootDir>/${workspace[name]}/src/nest/index.ts`,
      ]),
    ),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  // Several suites drive child processes (server, CLI) on a 2-core machine shared by two workers.
  testTimeout: 60_000,
  // After jest's summary, one list of what this machine left out and how to enable it.
  globalSetup: '<rootDir>/test-support/skipped-setup.mjs',
  globalTeardown: '<rootDir>/test-support/skipped-teardown.mjs',
  maxWorkers: 2,
};
