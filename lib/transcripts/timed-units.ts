// The transcript as a model reads it: caption lines with [m:ss] marks, the times a key point or
// a chapter of the answer refers to.
import type { Transcript } from '../youtube/types';
import { formatTimestamp } from './timed-line';

/** A transcript mark at most this often (ms): often enough to place a key point, cheap in tokens. */
const STAMP_EVERY_MS = 30_000;

/** A unit of the transcript as a model reads it: its text (maybe marked) and when it starts. */
export interface TimedUnit {
  text: string;
  startMs: number;
}

/**
 * The transcript as text units (caption lines) with a `[m:ss]` mark before the first line and
 * then before the first line at least 30 s after the previous mark, each with its start. The
 * marks are what a model cites as a key point's or a chapter's time.
 */
export function timedUnits(transcript: Transcript): TimedUnit[] {
  const units: TimedUnit[] = [];
  let lastStamp = Number.NEGATIVE_INFINITY;
  for (const segment of transcript.segments) {
    const text = segment.text.trim();
    if (text === '') continue;
    const startMs = segment.offsetMs;
    if (startMs - lastStamp >= STAMP_EVERY_MS) {
      lastStamp = startMs;
      units.push({ text: `[${formatTimestamp(startMs)}] ${text}`, startMs });
    } else {
      units.push({ text, startMs });
    }
  }
  if (units.length > 0) return units;
  const text = transcript.text.trim();
  return text === '' ? [] : [{ text, startMs: 0 }];
}

/** The texts of timedUnits. */
export function stampedUnits(transcript: Transcript): string[] {
  return timedUnits(transcript).map((unit) => unit.text);
}
