// A question's deadline: the operator's ASK_DEADLINE_MS, cut to the Lambda's remaining time less
// the margin kept to send the answer, never negative.
import { describe, expect, it } from 'vitest';
import { askDeadline } from '../../../lib/ask/deadline';
import { ASK_MARGIN_MS } from '../../../lib/config/summaries';

const lambda = (remainingMs: number) => ({ getRemainingTimeInMillis: () => remainingMs });

describe('askDeadline', () => {
  it('keeps the operator’s deadline when the Lambda has time to spare', () => {
    const before = Date.now();
    const { deadlineAt, signal } = askDeadline(5_000, lambda(60_000));

    expect(deadlineAt - before).toBeGreaterThanOrEqual(5_000);
    expect(deadlineAt - Date.now()).toBeLessThanOrEqual(5_000);
    expect(signal.aborted).toBe(false);
  });

  it('ends before the Lambda does, leaving the margin to send the answer', () => {
    const before = Date.now();
    const { deadlineAt } = askDeadline(25_000, lambda(10_000));

    expect(deadlineAt - before).toBeGreaterThanOrEqual(10_000 - ASK_MARGIN_MS);
    expect(deadlineAt - Date.now()).toBeLessThanOrEqual(10_000 - ASK_MARGIN_MS);
  });

  it('is already over when less than the margin is left', async () => {
    const before = Date.now();
    const { deadlineAt, signal } = askDeadline(25_000, lambda(ASK_MARGIN_MS - 500));

    expect(deadlineAt).toBeLessThanOrEqual(Date.now());
    expect(deadlineAt).toBeGreaterThanOrEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signal.aborted).toBe(true);
  });
});
