// The combine step (reduce): part summaries are combined into the summary, in groups that fit
// the model's context, recursively until one call holds them all.

import { estimateTokens } from '../../../models/tokens';
import type { KeyPoint } from '../../../transcripts/anchors';
import { formatTimestamp } from '../../../transcripts/timed-line';
import type { Step } from '../prompt';
import { type Answer, call, type Run, tooLongFor } from './call';
import { mapBounded } from './map-bounded';

/** Reduce levels before we give up (each level divides the text by several times). */
const MAX_REDUCE_LEVELS = 6;

/** Packs labelled summaries into consecutive groups of at most `budget` estimated tokens. */
function groupConsecutive(
  items: readonly string[],
  budget: number,
): { first: number; last: number; items: string[] }[] {
  const groups: { first: number; last: number; items: string[] }[] = [];
  let current: string[] = [];
  let size = 0;
  let first = 1;
  items.forEach((item, index) => {
    const cost = estimateTokens(item) + 1;
    if (current.length > 0 && size + cost > budget) {
      groups.push({ first, last: index, items: current });
      current = [];
      size = 0;
      first = index + 1;
    }
    current.push(item);
    size += cost;
  });
  if (current.length > 0) groups.push({ first, last: items.length, items: current });
  return groups;
}

/** A part's answer as the combine step reads it: its summary, then its checked key points. */
export function renderPart(summary: string, keyPoints: readonly KeyPoint[]): string {
  if (keyPoints.length === 0) return summary;
  const lines = keyPoints.map((point) => `[${formatTimestamp(point.startMs)}] ${point.text}`);
  return [summary, 'Key points:', ...lines].join('\n');
}

export async function reduce(run: Run, parts: readonly string[], level: number): Promise<Answer> {
  const { context, targetWords } = run;
  const { planner, concurrency } = run.model;
  const total = parts.length;
  const labelled = parts.map((part, index) => `[Part ${index + 1}]\n${part}`);
  const final: Step = {
    kind: 'combine',
    words: targetWords,
    first: 1,
    last: total,
    total,
    final: true,
  };
  const body = labelled.join('\n\n');
  if (estimateTokens(body) <= planner.dataBudget(final, context)) return call(run, final, body);
  const probe: Step = { ...final, words: planner.partWordsMax, final: false };
  const groups = groupConsecutive(labelled, planner.dataBudget(probe, context));
  if (groups.length >= total || level >= MAX_REDUCE_LEVELS) {
    // The part summaries came out longer than planned: a shorter summary asks for less.
    throw tooLongFor(
      run,
      estimateTokens(body),
      'its part summaries do not fit the model’s context',
    );
  }
  const words = planner.clampWords(Math.ceil((1.5 * targetWords) / groups.length));
  const next = await mapBounded(groups, concurrency, run.signal, async (group, _index, inner) => {
    const step: Step = {
      kind: 'combine',
      words,
      first: group.first,
      last: group.last,
      total,
      final: false,
    };
    const result = await call(run, step, group.items.join('\n\n'), inner);
    return renderPart(result.summary, result.keyPoints);
  });
  return reduce(run, next, level + 1);
}
