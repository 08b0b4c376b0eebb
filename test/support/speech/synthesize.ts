// Speech for the tests: espeak-ng speaks each sentence, the sentences are joined with short
// silences into one WAV (16-bit mono at espeak-ng's own 22 050 Hz: encoders resample), and each
// sentence's start and end come from the sample counts, so they are exact. The result is kept
// in the system's temp folder under a hash of the sentences, settings and espeak-ng's version,
// so the test files of a run (and later runs) make it once.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LECTURE } from './script';
import { run } from './tools';
import type { PlacedSentence } from './wer';

/** How espeak-ng speaks, and the silences around the sentences. */
export interface SpeechSettings {
  /**
   * An espeak-ng voice. `en-us+f5` (American English, variant f5) is among the two that
   * pocketsphinx's en-us acoustic model heard best of those tried (en-us alone, m1-m7, f1-f5,
   * klatt*): with the lecture's model 6% of words wrong (f2 5%, klatt2 9%, m1 34%, plain en-us
   * 40%), and the best with pocketsphinx_continuous too. mbrola voices need the mbrola
   * program and its voices, which CI doesn't install.
   */
  voice: string;
  /** espeak-ng's `-s`: 150 speaks the lecture in just over two minutes with its pauses. */
  wordsPerMinute: number;
  /** Silence before the first sentence and after the last. */
  edgeMs: number;
  /** Silences between sentences, used in turn (a little uneven, as a speaker pauses). */
  pausesMs: readonly number[];
}

export const DEFAULT_SPEECH: SpeechSettings = {
  voice: 'en-us+f5',
  wordsPerMinute: 150,
  edgeMs: 500,
  pausesMs: [800, 650, 950, 700, 1000, 750],
};

/** The spoken sentences: a WAV file and where each sentence is in it. */
export interface Speech {
  /** A 16-bit mono PCM WAV file (44-byte header), in the cache: read it, never change it. */
  wavPath: string;
  sampleRate: number;
  durationMs: number;
  /** Each sentence, its start and end (ms from the start of the WAV) where its sound is. */
  sentences: PlacedSentence[];
  settings: SpeechSettings;
}

/** Samples quieter than this (of 32 767) at a sentence's ends are espeak-ng's own silence. */
const QUIET = 32;
const CACHE_DIR = join(tmpdir(), 'tubesum-speech');

/**
 * `sentences` spoken (by default the lecture), from the cache when made before.
 * @throws Error when espeak-ng fails or is missing.
 */
export async function synthesizeSpeech(
  sentences: readonly string[] = LECTURE,
  settings: SpeechSettings = DEFAULT_SPEECH,
): Promise<Speech> {
  const version = (await run('espeak-ng', ['--version'], { timeoutMs: 10_000 })).stdout;
  const key = createHash('sha256')
    .update(JSON.stringify({ sentences, settings, version: version.toString('utf8') }))
    .digest('hex')
    .slice(0, 16);
  const dir = join(CACHE_DIR, key);
  const wavPath = join(dir, 'speech.wav');
  const jsonPath = join(dir, 'speech.json');
  try {
    if (existsSync(wavPath)) return JSON.parse(readFileSync(jsonPath, 'utf8')) as Speech;
  } catch {
    // Not made yet (or half made by a run that stopped): make it.
  }
  const clips: Int16Array[] = [];
  let sampleRate = 0;
  for (const sentence of sentences) {
    const clip = await speak(sentence, settings);
    if (sampleRate !== 0 && clip.sampleRate !== sampleRate) {
      throw new Error(`espeak-ng changed its sample rate (${sampleRate}, ${clip.sampleRate})`);
    }
    sampleRate = clip.sampleRate;
    clips.push(clip.samples);
  }
  const { pcm, placed } = concatenate(clips, sentences, sampleRate, settings);
  const speech: Speech = {
    wavPath,
    sampleRate,
    durationMs: (pcm.length / sampleRate) * 1000,
    sentences: placed,
    settings,
  };
  // Written under names of this process's own, then renamed: a test file running beside this
  // one reads either nothing or the whole.
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${wavPath}.${process.pid}`, wavFile(pcm, sampleRate));
  renameSync(`${wavPath}.${process.pid}`, wavPath);
  writeFileSync(`${jsonPath}.${process.pid}`, JSON.stringify(speech));
  renameSync(`${jsonPath}.${process.pid}`, jsonPath);
  return speech;
}

/** One sentence from espeak-ng, its leading and trailing silence cut off. */
async function speak(sentence: string, settings: SpeechSettings) {
  const args = ['-v', settings.voice, '-s', String(settings.wordsPerMinute), '--stdout', sentence];
  const ran = await run('espeak-ng', args, { timeoutMs: 30_000 });
  if (ran.exitCode !== 0) {
    throw new Error(`espeak-ng ${args.join(' ')} failed (${ran.exitCode}): ${ran.stderr}`);
  }
  const { sampleRate, samples } = readWav(ran.stdout);
  let first = 0;
  while (first < samples.length && Math.abs(samples[first] as number) <= QUIET) first++;
  let last = samples.length;
  while (last > first && Math.abs(samples[last - 1] as number) <= QUIET) last--;
  if (first === last) throw new Error(`espeak-ng said nothing for "${sentence}"`);
  return { sampleRate, samples: samples.subarray(first, last) };
}

function concatenate(
  clips: readonly Int16Array[],
  sentences: readonly string[],
  sampleRate: number,
  settings: SpeechSettings,
) {
  const samplesOf = (ms: number) => Math.round((ms * sampleRate) / 1000);
  const pauses = clips.map((_, index) =>
    index === clips.length - 1
      ? samplesOf(settings.edgeMs)
      : samplesOf(settings.pausesMs[index % settings.pausesMs.length] as number),
  );
  const total =
    samplesOf(settings.edgeMs) +
    clips.reduce((sum, clip, index) => sum + clip.length + (pauses[index] as number), 0);
  const pcm = new Int16Array(total);
  const placed: PlacedSentence[] = [];
  let at = samplesOf(settings.edgeMs);
  clips.forEach((clip, index) => {
    pcm.set(clip, at);
    placed.push({
      text: sentences[index] as string,
      startMs: (at / sampleRate) * 1000,
      endMs: ((at + clip.length) / sampleRate) * 1000,
    });
    at += clip.length + (pauses[index] as number);
  });
  return { pcm, placed };
}

/**
 * The samples of a 16-bit mono PCM WAV. espeak-ng's `--stdout` leaves the sizes in its header
 * unset (it streams), so the data is taken to the end of the bytes.
 */
export function readWav(bytes: Buffer): { sampleRate: number; samples: Int16Array } {
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      const format = bytes.readUInt16LE(offset + 8);
      const channels = bytes.readUInt16LE(offset + 10);
      const bits = bytes.readUInt16LE(offset + 22);
      if (format !== 1 || channels !== 1 || bits !== 16) {
        throw new Error(`not 16-bit mono PCM (format ${format}, ${channels} ch, ${bits} bits)`);
      }
      sampleRate = bytes.readUInt32LE(offset + 12);
    } else if (id === 'data') {
      const end = Math.min(bytes.length, offset + 8 + size);
      const data = bytes.subarray(offset + 8, end - ((end - offset - 8) % 2));
      const samples = new Int16Array(data.length / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
      if (sampleRate === 0) throw new Error('WAV data before its format');
      return { sampleRate, samples };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV file without data');
}

/** A 16-bit mono PCM WAV file with the canonical 44-byte header. */
export function wavFile(samples: Int16Array, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.length * 2, 40);
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(samples[i] as number, i * 2);
  return Buffer.concat([header, data]);
}
