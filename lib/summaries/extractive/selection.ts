// The summary's choice of sentences: a budgeted, non-redundant subset (MMR) of the best-scored
// ones, joined in transcript order, the last cut short when nothing else fits.

import { withoutFillers } from '../../transcripts/fillers';
import { runToEnd, type Steps } from '../../util/cooperative';
import { trimEndOf } from '../../util/text';
import { countWords } from '../../util/words';
import { analyse } from './ranking';

// Redundancy penalty of the selection (MMR) and how strongly it prefers dense sentences: gain is
// (score - penalty * similarity) / words^COST_EXPONENT. Tuned by ROUGE against the labelled
// sentences of whole VT-SSum videos, where any penalty and exponent from 0 to 0.5 score alike
// (higher values lose 1-4 ROUGE-1); a mild penalty is kept for videos that repeat themselves,
// and the exponent keeps long rambling sentences from eating a small budget.
const REDUNDANCY_WEIGHT = 0.3;
const COST_EXPONENT = 0.5;
// The selection aims inside ±10% so that rounding and the final trim stay inside ±15%.
const BUDGET_SLACK = 0.1;

function overlap(a: string[], b: Set<string>): number {
  if (a.length === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / Math.sqrt(a.length * b.size);
}

// Keeps the first `words` words of a sentence (at least `least`), ending at a clause boundary
// when there is one in that range, and marks the cut.
function trimSentence(sentence: string, words: number, least: number): string {
  const list = sentence.split(/\s+/).filter(Boolean).slice(0, words);
  let cut = list.length;
  for (let i = list.length - 1; i >= Math.max(least, 1); i--) {
    if (/[,;:]$/.test(list[i - 1] ?? '')) {
      cut = i;
      break;
    }
  }
  const kept = trimEndOf(list.slice(0, cut).join(' '), ',;:.!?…');
  return `${kept}…`;
}

/**
 * Picks sentences for a summary of about `targetWords` words (±15% when the text is long
 * enough; never more words than the text) and joins them in their original order.
 */
export function summarizeSentences(sentences: string[], targetWords: number): string {
  return joinParts(runToEnd(select(sentences, targetWords)).parts);
}

/** The chosen sentences (some cut short), by index, with what they were chosen by. */
export interface Selection {
  parts: Map<number, string>;
  scores: number[];
  /** Whether a sentence says something: at least MIN_SAYING_WORDS words and a content word. */
  saying: boolean[];
  /** Each sentence's distinct content terms, and its words as shown. */
  terms: string[][];
  lengths: number[];
}

// Shorter sentences ("Brilliant!", "Yes, exactly.") are reactions, not content.
const MIN_SAYING_WORDS = 3;

export function joinParts(parts: Map<number, string>): string {
  return [...parts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, text]) => text)
    .join(' ');
}

export function* select(sentences: string[], targetWords: number): Steps<Selection> {
  // What the summary shows of each sentence: without its fillers. The ranking reads
  // the sentence as said, as its weights were trained (scoring stripped sentences did worse).
  const shown = sentences.map(withoutFillers);
  const lengths = shown.map((sentence) => countWords(sentence));
  const { terms, scores } = yield* analyse(sentences);
  const saying = sentences.map(
    (_, i) => (lengths[i] ?? 0) >= MIN_SAYING_WORDS && (terms[i]?.length ?? 0) > 0,
  );
  // A transcript of nothing but reactions still gets a summary of them.
  const eligible = saying.some(Boolean) ? saying : sentences.map(() => true);
  const available = lengths.reduce((sum, length, i) => sum + (eligible[i] ? length : 0), 0);
  if (available <= targetWords) {
    const all = shown.flatMap((sentence, i) => (eligible[i] ? [[i, sentence] as const] : []));
    return { parts: new Map(all), scores, saying, terms, lengths };
  }
  const top = scores.reduce((a, b) => Math.max(a, b), Number.MIN_VALUE);
  const upper = Math.floor(targetWords * (1 + BUDGET_SLACK));
  const lower = Math.ceil(targetWords * (1 - BUDGET_SLACK));
  const costs = lengths.map((length) => length ** COST_EXPONENT);
  const redundancy = new Float64Array(sentences.length);
  const chosen = new Uint8Array(sentences.length);
  const parts = new Map<number, string>();
  let total = 0;

  // Budgeted MMR: the best gain per word among the sentences that still fit. Once inside the
  // window, a sentence is only added if it brings the length closer to the target.
  while (total < targetWords) {
    let best = -1;
    let bestGain = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < sentences.length; i++) {
      const length = lengths[i] ?? 0;
      if (chosen[i] || !eligible[i] || length === 0 || total + length > upper) continue;
      if (total >= lower && length >= 2 * (targetWords - total)) continue;
      const relevance = (scores[i] ?? 0) / top;
      const gain = (relevance - REDUNDANCY_WEIGHT * (redundancy[i] ?? 0)) / (costs[i] ?? 1);
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    if (best < 0) break;
    chosen[best] = 1;
    parts.set(best, shown[best] ?? '');
    total += lengths[best] ?? 0;
    const picked = new Set(terms[best]);
    for (let i = 0; i < sentences.length; i++) {
      if (chosen[i]) continue;
      const similarity = overlap(terms[i] ?? [], picked);
      if (similarity > (redundancy[i] ?? 0)) redundancy[i] = similarity;
    }
    yield;
  }

  // Nothing left fits: fill the rest of the budget with the start of the best remaining
  // sentence rather than miss the target (every remaining one is longer than the room).
  if (total < lower) {
    const room = targetWords - total;
    let best = -1;
    for (let i = 0; i < sentences.length; i++) {
      if (chosen[i] || !eligible[i] || (lengths[i] ?? 0) === 0) continue;
      if (best < 0 || (scores[i] ?? 0) > (scores[best] ?? 0)) best = i;
    }
    if (best >= 0 && room > 0)
      parts.set(best, trimSentence(shown[best] ?? '', room, lower - total));
  }

  return { parts, scores, saying, terms, lengths };
}
