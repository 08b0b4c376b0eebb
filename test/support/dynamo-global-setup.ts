// Starts one real DynamoDB Local (in memory) for the whole test run and hands its endpoint
// to the test files through vitest's provide/inject.
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal({ dataDir: 'memory' });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}
