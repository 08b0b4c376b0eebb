// What each Lambda needs: its size and deadline, and every resource it touches. Keyed by the
// functions' names (the route table's and the worker), so a function without a profile does not
// compile; each group of functions has its own module.
import type { FunctionName } from '../lib/routes/route';
import { ACCOUNT_PROFILES } from './profiles/accounts';
import { OAUTH_PROFILES } from './profiles/oauth';
import type { FunctionProfile } from './profiles/profile';
import { QUESTION_PROFILES } from './profiles/questions';
import { SITE_PROFILES } from './profiles/site';
import { SUMMARY_PROFILES } from './profiles/summaries';

export type { FunctionProfile, TableAction } from './profiles/profile';
export { WORKER_TIMEOUT } from './profiles/summaries';

// Lambda gives CPU in proportion to memory: 1,769 MB is one full vCPU, 128 MB about 1/14.
// Work that is pure CPU costs about the same GB-seconds at any size up to one vCPU, so
// CPU-bound functions get a full vCPU (same bill, lower latency); waiting functions stay small.
// Route timeouts are all below API Gateway's 30 s integration limit, after which the client
// already has a 503 and any further work is paid for nothing; only the worker, which no client
// waits on, runs longer.
export const PROFILES: Readonly<Record<FunctionName, FunctionProfile>> = {
  ...SITE_PROFILES,
  ...ACCOUNT_PROFILES,
  ...OAUTH_PROFILES,
  ...SUMMARY_PROFILES,
  ...QUESTION_PROFILES,
};
