// Real audio, encoded as YouTube serves it, by the ffmpeg on the machine (Debian's ffmpeg 5.1:
// libopus and the native AAC encoder), and ffmpeg and ffprobe to check what the service cuts:
// decode a file to 16 kHz mono samples, list its packets. Without ffmpeg the tests that need it
// skip, saying so (a developer's machine may lack it); with CI=true they run and fail instead.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GeneratedAudio } from './containers';
import { mp4Ranges, webmRanges } from './layout';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe';
const ENOUGH = 512 * 1024 * 1024;

/**
 * Whether the tests of `what` that run ffmpeg are skipped: only without it and outside CI, and
 * then they say so and how to run them.
 */
export function skipWithoutFfmpeg(what: string): boolean {
  const skipped = !(existsSync(FFMPEG) && existsSync(FFPROBE)) && process.env.CI !== 'true';
  if (skipped) {
    console.warn(
      `${what} SKIPPED: no ffmpeg/ffprobe at ${FFMPEG}, ${FFPROBE}. To run them, install ` +
        "Debian's ffmpeg (sudo apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH. " +
        'With CI=true a missing ffmpeg fails the run instead.',
    );
  }
  return skipped;
}

/**
 * A test signal whose loudness and pitch change every second (a sine, its amplitude and
 * frequency drawn from the second's number): a part misplaced by a second sounds different.
 */
export function steppedTone(seconds: number, sampleRate: number): string[] {
  const amplitude = '(0.15+0.8*mod(floor(t)*0.618,1))';
  const frequency = '(220+110*mod(floor(t),5))';
  const expression = `${amplitude}*sin(2*PI*${frequency}*t)`;
  // Quoted: the filter graph would take the commas between the arguments for filter breaks.
  return ['-f', 'lavfi', '-i', `aevalsrc=exprs='${expression}':s=${sampleRate}:d=${seconds}`];
}

/**
 * What an encode reads: the file at `input` (e.g. speech), resampled to `sampleRate` as YouTube's
 * encoders do, or without one a stepped tone of `seconds`.
 */
function sourceOf(input: string | undefined, seconds: number, sampleRate: number): string[] {
  return input ? ['-i', input, '-ar', String(sampleRate)] : steppedTone(seconds, sampleRate);
}

/** An encoded file: its bytes, where it is, and what a player answer would say of it. */
export type EncodedAudio = Omit<GeneratedAudio, 'durationMs'> & { path: string };

/** Output options: no tags from the input, no encoder version (the same bytes every run). */
const QUIET = ['-map_metadata', '-1', '-fflags', '+bitexact'];

/**
 * WebM/Opus as YouTube's itag 250: Cues ahead of the clusters (`-cues_to_front`), clusters of
 * `clusterMs`, no CRC-32 elements; of `input` when given (then `seconds` only names the file).
 * @throws Error when ffmpeg fails or the Cues do not come before the first cluster.
 */
export async function encodeWebm(
  dir: string,
  seconds: number,
  clusterMs: number,
  input?: string,
): Promise<EncodedAudio> {
  const path = join(dir, `${input ? 'input' : 'tone'}-${seconds}s-${clusterMs}ms.webm`);
  await run(FFMPEG, [
    ...['-v', 'error', '-y', ...sourceOf(input, seconds, 48_000), ...QUIET],
    ...['-c:a', 'libopus', '-b:a', '64k', '-dash', '1', '-write_crc32', '0'],
    ...['-cues_to_front', '1', '-cluster_time_limit', String(clusterMs), path],
  ]);
  const bytes = await readFile(path);
  return { path, bytes, mimeType: 'audio/webm; codecs="opus"', ...webmRanges(bytes) };
}

/**
 * Fragmented MP4/AAC as YouTube's itag 140: a sidx right after the moov (`global_sidx`),
 * fragments of `fragmentMs`, no mfra at the end; of `input` when given (as for encodeWebm).
 * @throws Error when ffmpeg fails or the sidx does not follow the moov.
 */
export async function encodeMp4(
  dir: string,
  seconds: number,
  fragmentMs: number,
  input?: string,
): Promise<EncodedAudio> {
  const path = join(dir, `${input ? 'input' : 'tone'}-${seconds}s-${fragmentMs}ms.mp4`);
  await run(FFMPEG, [
    ...['-v', 'error', '-y', ...sourceOf(input, seconds, 44_100), ...QUIET],
    ...['-c:a', 'aac', '-b:a', '128k', '-movflags', '+dash+global_sidx+skip_trailer'],
    ...['-frag_duration', String(fragmentMs * 1000), path],
  ]);
  const bytes = await readFile(path);
  return { path, bytes, mimeType: 'audio/mp4; codecs="mp4a.40.2"', ...mp4Ranges(bytes) };
}

/** A file decoded to 16 kHz mono, and what ffmpeg said while decoding it (`-v error`). */
export interface Decoded {
  samples: Int16Array;
  durationMs: number;
  errors: string;
}

export const DECODED_RATE = 16_000;

/**
 * Decodes the file at `path` as a speech-to-text server would: to 16 kHz mono PCM.
 * @throws Error when ffmpeg exits with an error.
 */
export async function decode(path: string): Promise<Decoded> {
  const { stdout, stderr } = await run(
    FFMPEG,
    ['-v', 'error', '-i', path, '-f', 's16le', '-ac', '1', '-ar', String(DECODED_RATE), '-'],
    { encoding: 'buffer', maxBuffer: ENOUGH },
  );
  const samples = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length >> 1);
  return { samples, durationMs: (samples.length * 1000) / DECODED_RATE, errors: stderr.toString() };
}

/** One packet as ffprobe lists it (times in ms; `pos` its byte offset in the file). */
export interface Packet {
  ptsMs: number;
  durationMs: number;
  pos: number;
}

/** What ffprobe says of a file without decoding it: its length, start, packets and errors. */
export interface Probe {
  durationMs: number;
  startMs: number;
  packets: Packet[];
  errors: string;
}

/**
 * ffprobe's format and (unless `packets` is false) packets of the file at `path` (read, never
 * decoded).
 * @throws Error when ffprobe exits with an error.
 */
export async function probe(path: string, packets = true): Promise<Probe> {
  const { stdout, stderr } = await run(
    FFPROBE,
    ['-v', 'error', '-show_format', ...(packets ? ['-show_packets'] : []), '-of', 'json', path],
    { maxBuffer: ENOUGH },
  );
  const json = JSON.parse(stdout) as {
    format: { duration?: string; start_time?: string };
    packets?: { pts_time?: string; duration_time?: string; pos?: string }[];
  };
  return {
    durationMs: Number(json.format.duration) * 1000,
    startMs: Number(json.format.start_time) * 1000,
    packets: (json.packets ?? []).map((packet) => ({
      ptsMs: Number(packet.pts_time) * 1000,
      durationMs: Number(packet.duration_time) * 1000,
      pos: Number(packet.pos),
    })),
    errors: stderr,
  };
}
