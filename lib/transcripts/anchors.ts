// Claimed moments checked against a transcript: a model gives a sentence and the time it comes
// from (a key point, a citation in an answer), and the claim is moved to the start of the
// caption that says it, or dropped, so that no link opens a moment that does not exist.
import type { Transcript, TranscriptSegment } from '../youtube/types';
import { keysOf } from './terms';

/** A key point at the start of the caption where it is said. */
export interface KeyPoint {
  text: string;
  startMs: number;
}

/** A key point as a model wrote it: its time is a claim until checked. */
export interface ClaimedKeyPoint {
  text: string;
  atMs: number;
}

/** `https://www.youtube.com/watch?v=ID&t=123s`: the video at that second. */
export function keyPointUrl(videoId: string, startMs: number): string {
  return `https://www.youtube.com/watch?v=${videoId}&t=${Math.floor(startMs / 1000)}s`;
}

/** How far from the time a model gave a point may be found: its mark is the passage's start. */
const LOOK_BEFORE_MS = 30_000;
const LOOK_AFTER_MS = 90_000;
/** Captions read together when matching (a sentence often spans two or three). */
const SPAN = 3;

/** Index of the first segment starting at or after `ms` (segments are in time order). */
export function firstAtOrAfter(segments: readonly TranscriptSegment[], ms: number): number {
  let low = 0;
  let high = segments.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((segments[middle]?.offsetMs ?? 0) < ms) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A checker of claimed moments in one transcript: for a claim (a sentence and the time a model
 * gave it), the index of the caption near that time that starts saying it, or undefined when
 * no caption near it does. What key points and the citations of answers (ask/) are held to.
 */
export function createAnchor(
  transcript: Transcript,
): (claim: ClaimedKeyPoint) => number | undefined {
  const segments = transcript.segments;
  const segmentKeys = new Map<number, Set<string>>();
  const keysAt = (index: number) => {
    let keys = segmentKeys.get(index);
    if (!keys) {
      const text = segments
        .slice(index, index + SPAN)
        .map((segment) => segment.text)
        .join(' ');
      keys = keysOf(text);
      segmentKeys.set(index, keys);
    }
    return keys;
  };
  return (claim) => {
    const wanted = keysOf(claim.text);
    // Short claims need one shared word; longer ones two, so a stray word does not anchor them.
    const needed = wanted.size >= 3 ? 2 : 1;
    if (wanted.size === 0) return undefined;
    let best = -1;
    let bestScore = 0;
    const from = firstAtOrAfter(segments, claim.atMs - LOOK_BEFORE_MS);
    for (let i = from; i < segments.length; i++) {
      const segment = segments[i] as TranscriptSegment;
      if (segment.offsetMs > claim.atMs + LOOK_AFTER_MS) break;
      let shared = 0;
      for (const key of keysAt(i)) if (wanted.has(key)) shared++;
      // Ties go to the caption nearest the claimed time.
      const score = shared - Math.abs(segment.offsetMs - claim.atMs) / 1e9;
      if (shared >= needed && score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    if (best < 0) return undefined;
    // The caption of the span that starts saying it.
    let start = best;
    while (
      start < best + SPAN - 1 &&
      ![...keysOf(segments[start]?.text ?? '')].some((key) => wanted.has(key))
    ) {
      start++;
    }
    return segments[start] ? start : undefined;
  };
}

/**
 * The claimed key points that the transcript bears out, each moved to the start of the caption
 * that says it best near the claimed time; the others are dropped. One point per caption, in
 * video order.
 */
export function anchorKeyPoints(
  claimed: readonly ClaimedKeyPoint[],
  transcript: Transcript,
): KeyPoint[] {
  const anchor = createAnchor(transcript);
  const anchored = new Map<number, KeyPoint>();
  for (const point of claimed) {
    const start = anchor(point);
    const segment = start === undefined ? undefined : transcript.segments[start];
    if (start !== undefined && segment && !anchored.has(start)) {
      anchored.set(start, { text: point.text, startMs: segment.offsetMs });
    }
  }
  return [...anchored.values()].sort((a, b) => a.startMs - b.startMs);
}
