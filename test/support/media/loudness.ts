// Loudness over time, to tell whether two decodes hold the same sound at the same place: the RMS
// of each 100 ms window of 16 kHz samples, and how far one decode's windows are from another's.

const WINDOW = 1_600;

/** The RMS of each whole 100 ms window of `samples`, from sample `from`. */
export function loudness(samples: Int16Array, from = 0): number[] {
  const windows: number[] = [];
  for (let start = from; start + WINDOW <= samples.length; start += WINDOW) {
    let sum = 0;
    for (let i = start; i < start + WINDOW; i++) sum += (samples[i] ?? 0) ** 2;
    windows.push(Math.sqrt(sum / WINDOW));
  }
  return windows;
}

/**
 * How far a part's loudness is from the whole's at `offsetMs`: the share of its windows (all but
 * its first and last, where decoders start cold and stop short) whose RMS differs by more than
 * 10 % of the whole's.
 */
export function mismatch(part: Int16Array, whole: Int16Array, offsetMs: number): number {
  const ours = loudness(part).slice(1, -1);
  const theirs = loudness(whole, Math.round(offsetMs * 16) + WINDOW);
  let off = 0;
  for (const [i, rms] of ours.entries()) {
    const reference = theirs[i] ?? 0;
    if (Math.abs(rms - reference) > 0.1 * Math.max(reference, 1)) off++;
  }
  return ours.length === 0 ? 1 : off / ours.length;
}
