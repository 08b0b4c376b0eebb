// The functions that touch nothing stored: liveness, and the page, docs and unrouted requests.
import { Duration } from 'aws-cdk-lib';
import type { FunctionName } from '../../lib/routes/route';
import type { FunctionProfile } from './profile';

export const SITE_PROFILES = {
  health: {
    description: 'GET /health: liveness, touches nothing',
    // Returns a constant; the smallest size is plenty and the bundle is a few KB.
    memorySize: 128,
    // Nothing to wait for: a health check that takes longer than 3 s is a failed one.
    timeout: Duration.seconds(3),
    table: [],
  },
  site: {
    description:
      'GET /, /app/{file}, /docs, /docs/{file}, /openapi.json and $default: the page, the docs and the 404/405 of unrouted requests',
    // Builds the OpenAPI document and gzips the 1.7 MB Swagger UI bundle once per cold start:
    // 512 MB (~0.3 vCPU) makes that a few hundred ms instead of over a second at 128 MB.
    memorySize: 512,
    // Only the first request of a cold start does real work (read + gzip), well under 10 s.
    timeout: Duration.seconds(10),
    table: [],
  },
} satisfies Partial<Record<FunctionName, FunctionProfile>>;
