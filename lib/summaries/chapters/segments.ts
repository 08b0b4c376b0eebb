// Where a transcript changes topic, without a model: TextTiling (M. A. Hearst, "TextTiling:
// Segmenting Text into Multi-paragraph Subtopic Passages", Computational Linguistics 23(1), 1997).
// At each sentence boundary the vocabulary of the block of text before it is compared with the
// block after it (cosine of their term counts); the comparison is smoothed, and a boundary's
// depth is how far it lies below the nearest peaks on either side: a deep valley is a change of
// subject. Speech adds two signals TextTiling does not have: a pause before the sentence (the
// speaker stops, then starts a new part) and a transition phrase opening it ("moving on", "let's
// talk about"), as DevRico003/youtube_summarizer looks for topic shifts. The strongest boundaries
// are kept, as many as the video's length calls for, no two chapters too short.
// Hand-written: no maintained JavaScript package implements TextTiling (NLTK's is Python).
import type { Steps } from '../../util/cooperative';

/** A sentence of the transcript as the segmentation reads it. */
export interface TimedTerms {
  /** The sentence as the transcript says it (transition phrases are looked for at its start). */
  text: string;
  /** Start of the caption where it begins. */
  startMs: number;
  /** Its distinct content terms (stems). */
  terms: readonly string[];
  /** Its words (to size the blocks and estimate the speaking rate). */
  words: number;
}

// Hearst's blocks: k = 6 token-sequences of w = 20 tokens on each side of a gap, 120 tokens. Here
// sentences are the units (a boundary falls between two) and a block is the sentences that make
// at least this many words.
const BLOCK_WORDS = 120;
// Hearst smooths the gap scores with a moving average before taking depths.
const SMOOTHING = 1;
// What a pause and a transition phrase add to a boundary's depth (depths of real subject changes
// are 0.1-0.4 in lectures): each as much as a clear valley, so that either tips a close call.
const PAUSE_WEIGHT = 0.1;
const TRANSITION_WEIGHT = 0.1;
/** A pause this long (ms) counts fully; shorter ones in proportion. */
const FULL_PAUSE_MS = 3_000;
// Openings that announce a new part of a talk. Read on the sentence's lowercased first words.
const TRANSITION =
  /^(?:(?:ok(?:ay)?|so|alright|all right|right|and|now|well)[,\s]+)*(?:let'?s (?:talk|move|turn|look|start|begin|get|switch|go back|jump|dive)|moving on|next(?:,| up\b)|the next (?:thing|step|part|topic|question|point)|(?:in )?the (?:second|third|fourth|last|final) (?:part|section|step|thing|topic)|another (?:thing|topic|question|important)|now (?:we|i|let)|to (?:sum up|summari[sz]e|conclude|wrap up)|in (?:conclusion|summary)|that brings us|first(?:ly)?,? (?:of all|we|i|let)|finally)/;

/** Whether a sentence opens with a transition phrase ("So, let's talk about...", "Moving on"). */
export function opensTransition(sentence: string): boolean {
  return TRANSITION.test(sentence.slice(0, 80).toLowerCase().replace(/’/g, "'"));
}

/**
 * The cosine between the term counts of the block before each boundary and the block after it:
 * `gap[g]` for the boundary before sentence g (gap[0] is unused). The blocks slide, their counts
 * and the dot product kept as they do: linear in the number of terms.
 */
function* blockSimilarities(sentences: readonly TimedTerms[]): Steps<number[]> {
  const n = sentences.length;
  // Terms as numbers, counts in arrays: the blocks change at every boundary, and a Map update
  // per term and side cost more than the rest of the chapters together.
  const ids = new Map<string, number>();
  const termsOf = sentences.map((sentence) =>
    Int32Array.from(sentence.terms, (term) => {
      let id = ids.get(term);
      if (id === undefined) {
        id = ids.size;
        ids.set(term, id);
      }
      return id;
    }),
  );
  const left = new Int32Array(ids.size);
  const right = new Int32Array(ids.size);
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  const add = (side: 'left' | 'right', index: number, sign: 1 | -1) => {
    const own = side === 'left' ? left : right;
    const other = side === 'left' ? right : left;
    for (const term of termsOf[index] ?? []) {
      const count = own[term] ?? 0;
      // (c ± 1)² - c² = ±2c + 1
      const normChange = 2 * sign * count + 1;
      if (side === 'left') leftNorm += normChange;
      else rightNorm += normChange;
      dot += sign * (other[term] ?? 0);
      own[term] = count + sign;
    }
  };
  const gaps = new Array<number>(n).fill(0);
  let leftStart = 0;
  let leftWords = 0;
  let rightEnd = 0;
  let rightWords = 0;
  for (let g = 1; g < n; g++) {
    // The left block gains sentence g-1, then sheds its oldest sentences while it keeps enough.
    add('left', g - 1, 1);
    leftWords += sentences[g - 1]?.words ?? 0;
    while (leftStart < g - 1 && leftWords - (sentences[leftStart]?.words ?? 0) >= BLOCK_WORDS) {
      leftWords -= sentences[leftStart]?.words ?? 0;
      add('left', leftStart, -1);
      leftStart++;
    }
    // The right block loses sentence g-1 (now on the left) and grows to enough words.
    if (rightEnd > g - 1) {
      add('right', g - 1, -1);
      rightWords -= sentences[g - 1]?.words ?? 0;
    } else {
      rightEnd = g;
      rightWords = 0;
    }
    while (rightEnd < n && rightWords < BLOCK_WORDS) {
      add('right', rightEnd, 1);
      rightWords += sentences[rightEnd]?.words ?? 0;
      rightEnd++;
    }
    gaps[g] = leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
    if (g % 256 === 0) yield;
  }
  return gaps;
}

/** Each gap's score averaged with its neighbours' (SMOOTHING on each side). */
function smooth(gaps: readonly number[]): number[] {
  return gaps.map((_, g) => {
    if (g === 0) return 0;
    let sum = 0;
    let count = 0;
    for (let k = Math.max(1, g - SMOOTHING); k <= Math.min(gaps.length - 1, g + SMOOTHING); k++) {
      sum += gaps[k] ?? 0;
      count++;
    }
    return sum / count;
  });
}

/**
 * Hearst's depth score of each gap: how far it lies below the highest point reached climbing
 * from it to the left while the scores rise, plus the same to the right.
 */
function depths(scores: readonly number[]): number[] {
  const n = scores.length;
  // Climbing is linear overall: each gap's peak on a side is the next gap's peak when the scores
  // keep rising, so the peaks are found in one pass per side.
  const leftPeak = new Array<number>(n).fill(0);
  const rightPeak = new Array<number>(n).fill(0);
  for (let g = 1; g < n; g++) {
    const here = scores[g] ?? 0;
    const before = scores[g - 1] ?? 0;
    leftPeak[g] = g > 1 && before >= here ? Math.max(before, leftPeak[g - 1] ?? 0) : here;
  }
  for (let g = n - 1; g >= 1; g--) {
    const here = scores[g] ?? 0;
    const after = scores[g + 1];
    rightPeak[g] =
      after !== undefined && after >= here ? Math.max(after, rightPeak[g + 1] ?? 0) : here;
  }
  return scores.map((score, g) =>
    g === 0 ? 0 : (leftPeak[g] ?? score) - score + ((rightPeak[g] ?? score) - score),
  );
}

/** The silence before each sentence (ms): its start less where the one before should have ended
 * at the transcript's median speaking rate. */
function pausesBefore(sentences: readonly TimedTerms[]): number[] {
  const rates: number[] = [];
  for (let i = 1; i < sentences.length; i++) {
    const previous = sentences[i - 1] as TimedTerms;
    const span = (sentences[i]?.startMs ?? 0) - previous.startMs;
    if (previous.words > 0 && span > 0) rates.push(span / previous.words);
  }
  rates.sort((a, b) => a - b);
  const msPerWord = rates[Math.floor(rates.length / 2)] ?? 350;
  return sentences.map((sentence, i) => {
    const previous = sentences[i - 1];
    if (!previous) return 0;
    return Math.max(0, sentence.startMs - previous.startMs - previous.words * msPerWord);
  });
}

/** How boundaries are scored; the bench's TextTiling baseline turns the speech signals off. */
export interface SegmentOptions {
  /** Chapters wanted (boundaries are one fewer), and the fewest acceptable. */
  target: number;
  min: number;
  /** Where the video ends (ms). */
  endMs: number;
  /** Whether pauses and transition phrases count (default true). */
  speech?: boolean;
}

/**
 * The sentences chapters start at, after the first (indices in increasing order): the deepest
 * boundaries, `target - 1` of them where the text allows, each chapter at least half the average
 * length (relaxed when that leaves fewer than `min` chapters). Empty when the transcript is too
 * short to divide.
 */
export function* segmentBoundaries(
  sentences: readonly TimedTerms[],
  options: SegmentOptions,
): Steps<number[]> {
  const { target, min, endMs, speech = true } = options;
  if (target < 2 || sentences.length < 2) return [];
  const similarities = yield* blockSimilarities(sentences);
  const depth = depths(smooth(similarities));
  const pauses = speech ? pausesBefore(sentences) : [];
  const scored = sentences.map((sentence, g) => {
    let score = depth[g] ?? 0;
    if (speech) {
      score += PAUSE_WEIGHT * Math.min(1, (pauses[g] ?? 0) / FULL_PAUSE_MS);
      if (opensTransition(sentence.text)) score += TRANSITION_WEIGHT;
    }
    return { g, score };
  });
  yield;
  const candidates = scored.slice(1).sort((a, b) => b.score - a.score || a.g - b.g);
  let spacing = endMs / target / 2;
  let chosen: number[] = [];
  // Half the average chapter first; a quarter, then an eighth, if that leaves too few.
  for (let attempt = 0; attempt < 3; attempt++, spacing /= 2) {
    chosen = pick(candidates, sentences, target - 1, spacing, endMs);
    if (chosen.length + 1 >= min) break;
  }
  return chosen.sort((a, b) => a - b);
}

/** The best-scored boundaries, at most `wanted`, none within `spacing` ms of another or an end. */
function pick(
  candidates: readonly { g: number; score: number }[],
  sentences: readonly TimedTerms[],
  wanted: number,
  spacing: number,
  endMs: number,
): number[] {
  const starts = [0];
  const chosen: number[] = [];
  for (const { g } of candidates) {
    if (chosen.length >= wanted) break;
    const at = sentences[g]?.startMs ?? 0;
    if (at < spacing || endMs - at < spacing) continue;
    if (starts.some((start) => Math.abs(start - at) < spacing)) continue;
    starts.push(at);
    chosen.push(g);
  }
  return chosen;
}
