// The real decoder and recognizer behind the test speech-to-text server: ffmpeg decodes any
// audio file to 16 kHz mono 16-bit WAV, and pocketsphinx (Debian's 0.8+5prealpha) recognizes
// it with its en-us acoustic model, giving each word with its own start and end.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CMUDICT, GENERAL_LM, type LanguageModel } from './language-model';
import { POCKETSPHINX_MODEL_DIR, run } from './tools';
import { FILLER } from './wer';

/** What ffmpeg made of a file. */
export interface Decoded {
  /** ffmpeg's exit code (0: decoded); null when it was killed (`timedOut`). */
  exitCode: number | null;
  timedOut: boolean;
  /** What ffmpeg printed at its `error` log level, line by line: none for a clean decode. */
  errors: string[];
  /** The length of the decoded audio (0 when it failed). */
  durationMs: number;
  elapsedMs: number;
}

const RATE = 16_000;
/** Bytes of 16-bit mono audio at 16 kHz per ms. */
const BYTES_PER_MS = (RATE * 2) / 1000;

/**
 * Decodes the first audio stream of `input` to `output`: 16 kHz mono 16-bit PCM WAV with the
 * bare 44-byte header (`bitexact`, no metadata), which pocketsphinx skips as a fixed size.
 * Never rejects for a file ffmpeg refuses: the result says so.
 */
export async function decodeToWav(
  input: string,
  output: string,
  signal?: AbortSignal,
): Promise<Decoded> {
  // ffmpeg's own timestamps are shifted to start at 0, so the output starts where the file's
  // first sample is, whatever time the file says that is (a part of a longer stream).
  const ran = await run(
    'ffmpeg',
    [
      ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', input],
      ...['-map', '0:a:0', '-ac', '1', '-ar', String(RATE), '-c:a', 'pcm_s16le'],
      ...['-fflags', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1'],
      ...['-f', 'wav', '-y', output],
    ],
    { timeoutMs: 60_000, ...(signal ? { signal } : {}) },
  );
  const errors = ran.stderr.split('\n').filter((line) => line.trim() !== '');
  let durationMs = 0;
  if (ran.exitCode === 0) {
    const header = readFileSync(output).subarray(0, 44);
    if (header.toString('latin1', 36, 40) !== 'data') {
      throw new Error(`ffmpeg wrote a WAV header that is not 44 bytes: ${output}`);
    }
    durationMs = (statSync(output).size - 44) / BYTES_PER_MS;
  }
  return {
    exitCode: ran.exitCode,
    timedOut: ran.timedOut,
    errors,
    durationMs,
    elapsedMs: ran.elapsedMs,
  };
}

/**
 * pocketsphinx's settings beyond its defaults, and why.
 * - pocketsphinx_batch over the whole file as one utterance, without its voice activity
 *   detection (`-remove_silence no`): pocketsphinx_continuous cuts the audio at silences and
 *   estimates the cepstral mean from each stretch it heard, so a part beginning with the last
 *   breath of a word learned the mean of near silence and lost its whole first sentence (up to
 *   13 words); batch estimates the mean over the whole file, and a part loses only the words cut
 *   at its edges. Its word times are frames from the file's start (none removed).
 * - `-maxwpf 5 -maxhmmpf 3000`: caps on the search (word exits and active HMMs per frame) that
 *   changed no word of the lecture and bound a slow frame on a busy machine.
 * - Not `-ds 2` or `-topn 2` (the usual "fast" settings): with the script's model the defaults
 *   run at about 0.06x real time on these two cores already, and they cost 1-2 points of word
 *   error rate (`-fwdflat no` too, at the parts' cuts). The beams (`-beam`, `-wbeam`,
 *   `-pbeam`) and `-lw` are pocketsphinx's: narrower beams (1e-40, 1e-30, 1e-40) cost a point,
 *   wider ones (1e-60, 1e-40, 1e-60) or `-lw 9` changed less than one.
 */
export const POCKETSPHINX_SETTINGS: readonly string[] = [
  ...['-remove_silence', 'no'],
  ...['-maxwpf', '5', '-maxhmmpf', '3000'],
];

/** A word pocketsphinx heard, times in ms from the start of its file. */
export interface RecognizedWord {
  word: string;
  startMs: number;
  endMs: number;
}

export interface Recognition {
  words: RecognizedWord[];
  elapsedMs: number;
}

export interface RecognizeOptions {
  /** The dictionary and language model; default: pocketsphinx's general en-us ones. */
  model?: LanguageModel;
  /** Default: 30 s and twice the audio's length (it needs about a tenth). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * What pocketsphinx hears in `wavPath`, a 16 kHz mono 16-bit WAV with a 44-byte header (what
 * decodeToWav writes), named `*.wav`.
 * @throws Error when pocketsphinx fails or runs out of time, with the end of its log.
 */
export async function recognizeWav(
  wavPath: string,
  options: RecognizeOptions = {},
): Promise<Recognition> {
  if (!wavPath.endsWith('.wav')) throw new Error(`not a .wav path: ${wavPath}`);
  const audioMs = (statSync(wavPath).size - 44) / BYTES_PER_MS;
  const dir = mkdtempSync(join(tmpdir(), 'tubesum-sphinx-'));
  try {
    // The control file names the utterance without its extension (`-cepext` adds it back).
    writeFileSync(join(dir, 'ctl'), `${wavPath.slice(0, -'.wav'.length)}\n`);
    const ran = await run(
      'pocketsphinx_batch',
      [
        ...['-hmm', join(POCKETSPHINX_MODEL_DIR, 'en-us')],
        ...['-dict', options.model?.dictPath ?? CMUDICT],
        ...['-lm', options.model?.lmPath ?? GENERAL_LM],
        ...['-adcin', 'yes', '-adchdr', '44', '-cepext', '.wav', '-ctl', join(dir, 'ctl')],
        ...['-hypseg', join(dir, 'hypseg'), '-logfn', join(dir, 'log')],
        ...POCKETSPHINX_SETTINGS,
      ],
      {
        timeoutMs: options.timeoutMs ?? 30_000 + 2 * audioMs,
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    if (ran.exitCode !== 0) {
      const log = readText(join(dir, 'log')).split('\n').slice(-15).join('\n');
      const why = ran.timedOut ? 'ran out of time' : `failed (${ran.exitCode})`;
      throw new Error(`pocketsphinx_batch ${why} on ${wavPath}:\n${log}${ran.stderr}`);
    }
    return { words: parseHypseg(readText(join(dir, 'hypseg'))), elapsedMs: ran.elapsedMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What pocketsphinx hears in any audio file ffmpeg decodes (the whole WAV of the speech, as a
 * baseline): decodeToWav and recognizeWav, in a temp folder of its own.
 * @throws Error with ffmpeg's reason when it can't decode the file; as recognizeWav.
 */
export async function recognizeFile(
  input: string,
  options: RecognizeOptions = {},
): Promise<Recognition & { decoded: Decoded }> {
  const dir = mkdtempSync(join(tmpdir(), 'tubesum-decoded-'));
  try {
    const wav = join(dir, 'audio.wav');
    const decoded = await decodeToWav(input, wav);
    if (decoded.exitCode !== 0) {
      throw new Error(`ffmpeg could not decode ${input}: ${decoded.errors.join('; ')}`);
    }
    return { ...(await recognizeWav(wav, options)), decoded };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** pocketsphinx's frames per second (its default `-frate`). */
const FRAMES_PER_SECOND = 100;

/**
 * The words of a `-hypseg` line: `uttid S scale T total A acoustic L language` followed by
 * `startFrame acousticScore languageScore word` for each word and the end frame of the last.
 */
export function parseHypseg(text: string): RecognizedWord[] {
  const tokens = text.trim().split(/\s+/);
  const scores = tokens.indexOf('L');
  if (scores < 0) return [];
  const rest = tokens.slice(scores + 2);
  const entries: { frame: number; word: string }[] = [];
  for (let i = 0; i + 3 < rest.length; i += 4) {
    entries.push({ frame: Number(rest[i]), word: rest[i + 3] as string });
  }
  const endFrame = Number(rest.at(-1));
  const toMs = (frame: number) => (frame * 1000) / FRAMES_PER_SECOND;
  return entries.flatMap((entry, index) =>
    FILLER.test(entry.word)
      ? []
      : [
          {
            word: entry.word.replace(/\(\d+\)$/, ''),
            startMs: toMs(entry.frame),
            endMs: toMs(entries[index + 1]?.frame ?? endFrame),
          },
        ],
  );
}
