// Timeouts for tests whose work is CPU-bound, derived from how fast this machine does that work
// right now: a shared machine under load can be several times slower than an idle one, so a
// fixed guess either fails under load or lets a real hang run for minutes.
import bcrypt from 'bcryptjs';
import { inject } from 'vitest';

/** Milliseconds one bcrypt hash at `cost` takes here now (the slowest of three). */
export async function bcryptMs(cost: number): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await bcrypt.hash('calibration', cost);
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

/**
 * A test timeout for `hashes` bcrypt hashes at `cost` (the local host runs them one after
 * another on its one thread), three times over, plus `otherMs` for everything else.
 */
export async function bcryptBudget(hashes: number, cost = 10, otherMs = 15_000): Promise<number> {
  return Math.round(otherMs + 3 * hashes * (await bcryptMs(cost)));
}

/**
 * How long to wait for a local host process to be ready: starting DynamoDB Local is most of
 * it, and the run's global setup measured that on this machine (see dynamo-global-setup.ts).
 */
export function readinessBudget(): number {
  return Math.round(15_000 + 5 * inject('dynamoStartMs'));
}
