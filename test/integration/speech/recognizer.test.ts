// The pieces of the speech tests, on their own: the lecture spoken by espeak-ng, and the test
// speech-to-text server (ffmpeg + pocketsphinx behind the OpenAI wire protocol) hearing it
// through the real `openai` client, whole and cut into Opus and AAC pieces in mid-sentence, as
// the service's parts may be. What they measure is printed, for the record.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unknownWords, writeLanguageModel } from '../../support/speech/language-model';
import { recognizeFile } from '../../support/speech/pocketsphinx';
import {
  type RecognizerServer,
  startRecognizerServer,
} from '../../support/speech/recognizer-server';
import { LECTURE } from '../../support/speech/script';
import { type Speech, synthesizeSpeech } from '../../support/speech/synthesize';
import { requireSpeechTools, run, skipWithoutSpeechTools } from '../../support/speech/tools';
import {
  landSentences,
  type SentenceLanding,
  type TimedText,
  type WordErrors,
  wordErrorRate,
} from '../../support/speech/wer';

const SKIPPED = skipWithoutSpeechTools('the recognizer server');
/** Recognition takes about a tenth of real time on two idle cores; this allows a busy machine. */
const RECOGNITION_TIMEOUT = 180_000;
const SCRIPT = LECTURE.join(' ');

let speech: Speech;
let server: RecognizerServer;
let client: OpenAI;
let work: string;

beforeAll(async () => {
  if (SKIPPED) return;
  requireSpeechTools();
  work = mkdtempSync(join(tmpdir(), 'tubesum-speech-test-'));
  speech = await synthesizeSpeech();
  server = await startRecognizerServer({ sentences: LECTURE });
  client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test-key', maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The file at `path` through the `openai` client, as the service uploads a part. */
async function transcribe(path: string, name: string, type: string) {
  const answer = await client.audio.transcriptions.create({
    file: await toFile(readFileSync(path), name, { type }),
    model: 'pocketsphinx-en-us',
    response_format: 'verbose_json',
    timestamp_granularities: ['segment'],
  });
  const segments: TimedText[] = (answer.segments ?? []).map((segment) => ({
    startMs: segment.start * 1000,
    endMs: segment.end * 1000,
    text: segment.text,
  }));
  return { answer, segments };
}

/** Computed once, by the first test that needs it. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

const whole = once(async () => {
  const { answer, segments } = await transcribe(speech.wavPath, 'lecture.wav', 'audio/wav');
  const request = server.requests.find((recorded) => recorded.fileName === 'lecture.wav');
  return { answer, segments, request, errors: wordErrorRate(SCRIPT, answer.text) };
});

/** Roughly as YouTube serves audio: WebM/Opus (itag 251) and MP4/AAC (itag 140). */
const ENCODINGS = {
  webm: {
    name: 'WebM/Opus',
    type: 'audio/webm',
    codec: ['-c:a', 'libopus', '-b:a', '96k', '-ar', '48000'],
    cutInSentences: [5, 11, 17],
  },
  m4a: {
    name: 'MP4/AAC',
    type: 'audio/mp4',
    codec: ['-c:a', 'aac', '-b:a', '128k', '-ar', '44100'],
    cutInSentences: [3, 9, 15],
  },
} as const;
type Encoding = keyof typeof ENCODINGS;

/**
 * The lecture encoded once and cut by stream copy in the middle of three sentences, each cut
 * splitting a word as a media segment's end may; the pieces uploaded all at once, and what was
 * heard joined by each piece's start.
 */
async function cutAndHear(encoding: Encoding) {
  const { type, codec, cutInSentences } = ENCODINGS[encoding];
  const encoded = join(work, `lecture.${encoding}`);
  await ffmpeg(['-i', speech.wavPath, ...codec, encoded]);
  const cuts = cutInSentences.map((index) => {
    const sentence = speech.sentences[index] as { startMs: number; endMs: number };
    return ((sentence.startMs + sentence.endMs) / 2 / 1000).toFixed(3);
  });
  const list = join(work, `${encoding}-pieces.csv`);
  await ffmpeg(
    ['-i', encoded, '-c', 'copy', '-f', 'segment', '-segment_times', cuts.join(',')]
      .concat(['-segment_list', list, '-segment_list_type', 'csv', '-reset_timestamps', '1'])
      .concat([join(work, `piece%d.${encoding}`)]),
  );
  // Each line: the piece's name, and its start and end in the whole (seconds).
  const pieces = readFileSync(list, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(','))
    .map(([name = '', start = '0']) => ({ name, offsetMs: Number(start) * 1000 }));
  const heard = await Promise.all(
    pieces.map((piece) => transcribe(join(work, piece.name), piece.name, type)),
  );
  const joined = heard.flatMap(({ segments }, index) =>
    segments.map((segment) => ({
      ...segment,
      startMs: segment.startMs + (pieces[index]?.offsetMs ?? 0),
      endMs: segment.endMs + (pieces[index]?.offsetMs ?? 0),
    })),
  );
  const recorded = pieces.map(({ name }) => server.requests.find((r) => r.fileName === name));
  return { pieces, cuts, joined, recorded };
}
const cutAndHeard = { webm: once(() => cutAndHear('webm')), m4a: once(() => cutAndHear('m4a')) };

/** The worst distance of a sentence from where the script put it (ms), and any not found. */
function worstLanding(landings: readonly SentenceLanding[]) {
  const lost = landings.filter((landing) => landing.offsetMs === undefined);
  const worstMs = Math.max(...landings.map((landing) => Math.abs(landing.offsetMs ?? 0)));
  return { lost, worstMs };
}

const percent = (errors: WordErrors) =>
  `${(errors.rate * 100).toFixed(1)}% (${errors.substitutions} substituted, ` +
  `${errors.deletions} deleted, ${errors.insertions} inserted of ${errors.referenceWords})`;

describe.skipIf(SKIPPED)('the test speech recognizer', () => {
  it('speaks each sentence of the lecture where the script says it is', async () => {
    const ran = await run(
      'ffmpeg',
      [
        '-nostdin',
        '-hide_banner',
        '-i',
        speech.wavPath,
        '-af',
        'silencedetect=noise=-55dB:d=0.5',
      ].concat(['-f', 'null', '-']),
      { timeoutMs: 60_000 },
    );

    expect(ran.exitCode).toBe(0);
    // Where each silence ends, but the one the file ends in.
    const soundStarts = [...ran.stderr.matchAll(/silence_end: ([\d.]+)/g)]
      .map((match) => Number(match[1]) * 1000)
      .filter((ms) => ms < speech.durationMs - 10);
    expect(soundStarts).toHaveLength(LECTURE.length);
    soundStarts.forEach((startMs, index) => {
      expect(Math.abs(startMs - (speech.sentences[index]?.startMs ?? 0))).toBeLessThan(30);
    });
    expect(speech.durationMs).toBeGreaterThan(100_000);
    expect(speech.durationMs).toBeLessThan(170_000);
    console.info(
      `speech: ${LECTURE.length} sentences, ${(speech.durationMs / 1000).toFixed(1)} s ` +
        `(espeak-ng -v ${speech.settings.voice} -s ${speech.settings.wordsPerMinute})`,
    );
  });

  it('has every word of the lecture in the en-us dictionary', () => {
    expect(unknownWords(LECTURE)).toEqual([]);
  });

  it(
    'hears the whole lecture through the openai client in less than real time',
    async () => {
      const { answer, request, errors } = await whole();

      expect(answer.language).toBe('english');
      expect(answer.duration * 1000).toBeCloseTo(speech.durationMs, -2);
      expect(request?.decoded).toMatchObject({ exitCode: 0, errors: [] });
      expect(errors.rate).toBeLessThan(0.15);
      const speed = (request?.recognizeMs ?? Number.NaN) / speech.durationMs;
      expect(speed).toBeLessThan(1);
      console.info(
        `whole WAV: word error rate ${percent(errors)}; pocketsphinx took ` +
          `${((request?.recognizeMs ?? 0) / 1000).toFixed(1)} s, ${speed.toFixed(3)}x real time`,
      );
    },
    RECOGNITION_TIMEOUT,
  );

  it(
    'puts every sentence of the whole lecture within 3 s of where the script did',
    async () => {
      const { segments } = await whole();

      const landings = landSentences(speech.sentences, segments);

      const { lost, worstMs } = worstLanding(landings);
      expect(lost).toEqual([]);
      expect(worstMs).toBeLessThanOrEqual(3000);
      expect(segments.at(-1)?.endMs ?? 0).toBeLessThanOrEqual(speech.durationMs + 100);
      console.info(`whole WAV: sentences at most ${(worstMs / 1000).toFixed(2)} s off`);
    },
    RECOGNITION_TIMEOUT,
  );

  it.each(
    (Object.keys(ENCODINGS) as Encoding[]).map(
      (encoding) => [ENCODINGS[encoding].name, encoding] as const,
    ),
  )(
    'hears %s pieces cut mid-sentence within 5 points of the whole, sentences within 3 s',
    async (_name, encoding) => {
      const baseline = await whole();

      const { pieces, cuts, joined, recorded } = await cutAndHeard[encoding]();

      expect(pieces).toHaveLength(4);
      for (const request of recorded) {
        expect(request?.decoded).toMatchObject({ exitCode: 0, errors: [] });
      }
      const errors = wordErrorRate(SCRIPT, joined.map((segment) => segment.text).join(' '));
      expect(Math.abs(errors.rate - baseline.errors.rate) * 100).toBeLessThanOrEqual(5);
      const landings = landSentences(speech.sentences, joined);
      const { lost, worstMs } = worstLanding(landings);
      expect(lost).toEqual([]);
      expect(worstMs).toBeLessThanOrEqual(3000);
      const recognizeMs = recorded.reduce((sum, request) => sum + (request?.recognizeMs ?? 0), 0);
      console.info(
        `${pieces.length} ${ENCODINGS[encoding].name} pieces cut at ${cuts.join(', ')} s: word ` +
          `error rate ${percent(errors)} against ${(baseline.errors.rate * 100).toFixed(1)}% ` +
          `whole; sentences at most ${(worstMs / 1000).toFixed(2)} s off; pocketsphinx took ` +
          `${(recognizeMs / 1000).toFixed(1)} s, ${(recognizeMs / speech.durationMs).toFixed(3)}x ` +
          'real time',
      );
    },
    RECOGNITION_TIMEOUT,
  );

  it(
    'hears the same words directly as through the server',
    async () => {
      const { request } = await whole();

      const direct = await recognizeFile(speech.wavPath, {
        model: writeLanguageModel(LECTURE, work),
      });

      expect(direct.decoded).toMatchObject({ exitCode: 0, errors: [] });
      expect(direct.words).toEqual(request?.words);
    },
    RECOGNITION_TIMEOUT,
  );

  it(
    'recognizes one upload at a time and queues the others',
    async () => {
      const { recorded } = await cutAndHeard.webm();

      const pieces = recorded.sort((a, b) => (a?.startedAt ?? 0) - (b?.startedAt ?? 0));

      expect(pieces.length).toBeGreaterThan(1);
      pieces.slice(1).forEach((request, index) => {
        expect(request?.startedAt).toBeGreaterThanOrEqual(pieces[index]?.finishedAt ?? Infinity);
      });
      const waitedMs = (pieces.at(-1)?.startedAt ?? 0) - (pieces.at(-1)?.receivedAt ?? 0);
      expect(waitedMs).toBeGreaterThan(0);
    },
    RECOGNITION_TIMEOUT,
  );

  it("answers 400 with ffmpeg's reason for a file that is not audio", async () => {
    const bytes = Buffer.from('this is not a media file, whatever its name says'.repeat(50));

    const failure = await client.audio.transcriptions
      .create({
        file: await toFile(bytes, 'noise.webm', { type: 'audio/webm' }),
        model: 'pocketsphinx-en-us',
        response_format: 'verbose_json',
      })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toMatch(/could not decode the audio: .*Invalid data/);
    const recorded = server.requests.find((request) => request.fileName === 'noise.webm');
    expect(recorded?.decoded?.exitCode).not.toBe(0);
    expect(recorded?.status).toBe(400);
  });
});

async function ffmpeg(args: string[]) {
  const ran = await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args], {
    timeoutMs: 60_000,
  });
  if (ran.exitCode !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${ran.stderr}`);
}
