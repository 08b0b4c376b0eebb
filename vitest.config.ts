import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One DynamoDB Local per project run; each test file's host uses a table of its own.
    globalSetup: ['test/support/dynamo-global-setup.ts'],
    setupFiles: ['test/support/invoke-store.ts'],
    // Handlers log JSON lines to stdout; tests that read logs run the host in a child process.
    env: {
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // As infra/local/local.env does for `npm start`: the hosts the tests start keep each
      // invocation's log keys apart.
      AWS_LAMBDA_MAX_CONCURRENCY: '1000',
      // The Bedrock stub checks that requests are signed; any key signs. Nothing reaches AWS.
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    },
    // Two cores: bcrypt and DynamoDB Local compete with the workers for CPU.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Type-level tests (`*.test-d.ts` beside the tests of their module) are type-checked,
          // never run: each expectTypeOf, or @ts-expect-error with no error under it, passes or
          // fails its own test. tsc checks them and what they import, not the whole project
          // (`npm test`'s own tsc does that).
          typecheck: {
            enabled: true,
            include: ['test/**/*.test-d.ts'],
            tsconfig: 'test/tsconfig.test-d.json',
          },
        },
      },
      {
        // Debian's chromium driven by playwright-core against the local host (/docs).
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // A cold chromium on two cores, Swagger UI's 1.7 MB bundle and a bcrypt login.
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
