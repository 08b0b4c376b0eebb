import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser test has its own command (npm run test:e2e), run by CI after npm test.
    exclude: ['test/e2e/**', 'node_modules/**'],
    // One DynamoDB Local for the whole run; each integration file uses its own table.
    globalSetup: ['test/support/dynamo-global-setup.ts'],
    // Handlers log JSON lines to stdout; tests that read logs run the host in a child process.
    env: {
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: bcrypt and DynamoDB Local compete with the workers for CPU.
    maxWorkers: 2,
  },
});
