// Starts one real DynamoDB Local (in memory) for the whole test run and hands its endpoint to
// the test files through vitest's provide/inject, with how long it took to be ready (tests
// that start a host process derive their wait from it, see budget.ts).
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** The Java process of that DynamoDB Local. */
    dynamoPid: number;
    dynamoStartMs: number;
  }
}

export default async function setup(project: TestProject) {
  const started = performance.now();
  // Java starts in seconds on an idle machine; beside other suites and CPU hogs it once took
  // more than the 30 s `npm start` allows. This bound only ends a start that hangs.
  const dynamo = await startDynamoDbLocal({ dataDir: 'memory', readyTimeoutMs: 180_000 });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('dynamoPid', dynamo.pid);
  project.provide('dynamoStartMs', performance.now() - started);
  return async () => {
    await dynamo.stop();
  };
}
