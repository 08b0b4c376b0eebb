// How long a failed job message waits for its next delivery (the deployed worker tells SQS, the
// local queue waits it itself): a doubling backoff, capped, and never within the run's lease.
import { describe, expect, it } from 'vitest';
import {
  MAX_RECEIVES,
  REDELIVERY_MAX_SECONDS,
  redeliverySeconds,
} from '../../../../lib/summaries/jobs/delivery';

const DEFAULT_LEASE = 30;

describe('redeliverySeconds', () => {
  it('doubles from 30 s with each delivery, the first past the default 30 s lease', () => {
    const waits = [1, 2, 3, 4, 5].map((receives) => redeliverySeconds(receives, DEFAULT_LEASE));

    expect(waits).toEqual([35, 60, 120, 240, 480]);
  });

  it('brings a message that keeps failing to the dead-letter queue within 20 minutes, not hours', () => {
    const receives = Array.from({ length: MAX_RECEIVES }, (_, i) => i + 1);
    const total = receives.reduce((sum, n) => sum + redeliverySeconds(n, DEFAULT_LEASE), 0);

    expect(total).toBeLessThan(20 * 60);
  });

  it('never waits longer than REDELIVERY_MAX_SECONDS (15 minutes) between deliveries', () => {
    expect(REDELIVERY_MAX_SECONDS).toBe(900);
    expect(redeliverySeconds(6, DEFAULT_LEASE)).toBe(900);
    expect(redeliverySeconds(1_000, DEFAULT_LEASE)).toBe(900);
  });

  it('waits out a longer lease, which a run that stopped for a passing reason still holds', () => {
    expect(redeliverySeconds(1, 120)).toBe(125);
    expect(redeliverySeconds(3, 120)).toBe(125);
    expect(redeliverySeconds(4, 120)).toBe(240);
    // JOB_LEASE_SECONDS' largest value is kept even above the cap.
    expect(redeliverySeconds(10, 900)).toBe(905);
  });

  it('reads a missing or malformed receive count as a first delivery', () => {
    for (const receives of [0, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(redeliverySeconds(receives, DEFAULT_LEASE), String(receives)).toBe(35);
    }
  });
});
