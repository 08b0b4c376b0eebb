// Every test file runs as Lambda's multi-concurrency runtime does (AWS_LAMBDA_MAX_CONCURRENCY is
// set in vitest.config.ts): with the invoke store in place, which Powertools then expects even
// when a test calls a handler directly, without the local host.
import { concurrentInvokeStore } from '../../infra/local/server';

await concurrentInvokeStore();
