// What a backend heard of one file, made fit to keep: a backend is untrusted input (a server of
// anyone's choosing, answering anything), so its segments are placed in the file they were heard
// in or dropped: times finite, inside the file, in order. A part's segments then move to their
// place in the video (the part's start, from the media index) and join the other parts'.
import type { Heard, HeardSegment, HeardTiming } from './backend';

/**
 * How far past its file's end a segment may start or end and still be kept (then cut at the
 * end): servers round, and Whisper's last 30-second window may run over the audio by a little.
 */
export const OVERHANG_MS = 2_000;

/** A segment in the video's time, and whether its time was estimated rather than heard. */
export interface PlacedSegment extends HeardSegment {
  estimated?: true;
}

/** One file's transcript as kept (a part's checkpoint): its segments in the video's time. */
export interface PlacedHeard {
  language?: string;
  timing: HeardTiming;
  segments: PlacedSegment[];
}

/**
 * The segments of `heard` that fit a file of `durationMs` (unknown: any finite time from 0),
 * in order of their start, moved by `offsetMs` (where the file starts in the video). A segment
 * with a time that is not a finite number, that starts before the file or past its end, is
 * dropped; one that ends past the end is cut there, one that ends before it starts is a moment.
 */
export function placeHeard(heard: Heard, durationMs: number | undefined, offsetMs: number) {
  const limit = durationMs === undefined ? Number.POSITIVE_INFINITY : durationMs + OVERHANG_MS;
  const end = durationMs ?? Number.POSITIVE_INFINITY;
  const estimated = heard.timing === 'estimated';
  const kept: PlacedSegment[] = [];
  for (const segment of heard.segments) {
    const { startMs, endMs, text } = segment;
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs)) continue;
    if (startMs < 0 || startMs > limit || typeof text !== 'string') continue;
    const start = Math.min(startMs, end);
    const placed: PlacedSegment = {
      startMs: offsetMs + start,
      endMs: offsetMs + Math.max(start, Math.min(endMs, end)),
      text,
    };
    if (estimated) placed.estimated = true;
    kept.push(placed);
  }
  // A stable sort: segments a server gave out of order take their place by start.
  kept.sort((a, b) => a.startMs - b.startMs);
  const placed: PlacedHeard = { timing: heard.timing ?? 'segments', segments: kept };
  if (heard.language) placed.language = heard.language;
  return placed;
}

/**
 * The parts' transcripts as one, in order: their segments one after the other, the language
 * the most segments were heard in, times `estimated` when any part's were.
 */
export function joinHeard(parts: readonly PlacedHeard[]): PlacedHeard {
  const counts = new Map<string, number>();
  for (const part of parts) {
    if (part.language === undefined) continue;
    counts.set(part.language, (counts.get(part.language) ?? 0) + part.segments.length + 1);
  }
  const language = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const joined: PlacedHeard = {
    timing: parts.some((part) => part.timing === 'estimated') ? 'estimated' : 'segments',
    segments: parts.flatMap((part) => part.segments),
  };
  if (language !== undefined) joined.language = language;
  return joined;
}
