// Real audio through the whole service, with a real decoder and a real recognizer: a lecture
// spoken by espeak-ng (about two and a half minutes), encoded by ffmpeg as YouTube serves it
// (WebM/Opus with its Cues ahead of the clusters, fragmented MP4/AAC with a sidx), served by the
// fake googlevideo a range at a time; the service cuts it into parts of at most a minute (no
// transcoding) and uploads each to an OpenAI-compatible test server that decodes it with ffmpeg
// and recognizes it with pocketsphinx (test/support/speech/), answering verbose_json with the
// recognizer's own times. Every part must decode; the joined transcript's word error rate must
// stay within 5 points of pocketsphinx run on the whole WAV; and each sentence must land within
// 3 s of where the script put it, in the last part too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAudioFile } from '../../support/fake-media';
import { FAKE_VIDEO_IDS } from '../../support/fake-youtube';
import { callMcpTool } from '../../support/mcp-tool';
import { type EncodedAudio, encodeMp4, encodeWebm, probe } from '../../support/media/ffmpeg';
import { writeLanguageModel } from '../../support/speech/language-model';
import { recognizeFile } from '../../support/speech/pocketsphinx';
import {
  type RecognizerServer,
  startRecognizerServer,
} from '../../support/speech/recognizer-server';
import { LECTURE } from '../../support/speech/script';
import { type Speech, synthesizeSpeech } from '../../support/speech/synthesize';
import { requireSpeechTools, skipWithoutSpeechTools } from '../../support/speech/tools';
import { landSentences, type TimedText, wordErrorRate } from '../../support/speech/wer';
import {
  jobIdOf,
  pollJob,
  type SummarizeEnv,
  startSummarizeEnv,
} from '../../support/summarize-env';

const SKIPPED = skipWithoutSpeechTools('the real-audio transcription tests');
const SCRIPT = LECTURE.join(' ');
/** Recognition takes a tenth of real time on two idle cores; this allows a busy machine. */
const SLOW = 240_000;

let speech: Speech;
let work: string;
let server: RecognizerServer;
let env: SummarizeEnv;
/** pocketsphinx on the whole WAV, as the word error rate to stay near. */
let baseline: number;

beforeAll(async () => {
  if (SKIPPED) return;
  requireSpeechTools();
  work = mkdtempSync(join(tmpdir(), 'tubesum-real-audio-'));
  speech = await synthesizeSpeech();
  const whole = await recognizeFile(speech.wavPath, { model: writeLanguageModel(LECTURE, work) });
  baseline = wordErrorRate(SCRIPT, whole.words.map((word) => word.word).join(' ')).rate;
  server = await startRecognizerServer({ sentences: LECTURE });
  env = await startSummarizeEnv({
    TRANSCRIPTION_BASE_URL: server.baseUrl,
    TRANSCRIPTION_MODEL: 'pocketsphinx-en-us',
    // Parts of at most a minute: the lecture's ~140 s in three.
    TRANSCRIPTION_PART_MINUTES: '1',
    TRANSCRIPTION_DAILY_MINUTES: '0',
  });
}, SLOW);

afterAll(async () => {
  await env?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The transcript the service kept, as get_transcript gives it: lines with their times. */
async function transcriptOf(video: string): Promise<TimedText[]> {
  const page = (await callMcpTool(env.host, env.token, 'get_transcript', {
    video_url: video,
  })) as {
    structuredContent: { segments: { start_seconds: number; text: string }[]; truncated: boolean };
  };
  const lines = page.structuredContent.segments;
  expect(page.structuredContent.truncated).toBe(false);
  // A line lasts until the next begins (the last: until the audio ends).
  return lines.map((line, i) => ({
    startMs: line.start_seconds * 1000,
    endMs: (lines[i + 1]?.start_seconds ?? speech.durationMs / 1000) * 1000,
    text: line.text,
  }));
}

describe.skipIf(SKIPPED).each([
  {
    format: 'WebM/Opus (itag 249)',
    scenario: 'speech-webm',
    itag: 249,
    // YouTube's WebM clusters last about 5 s; its MP4 fragments about 10 s.
    encode: (input: string) => encodeWebm(work, 0, 5_000, input),
  },
  {
    format: 'MP4/AAC (itag 139)',
    scenario: 'speech-mp4',
    itag: 139,
    encode: (input: string) => encodeMp4(work, 0, 10_000, input),
  },
] as const)('spoken audio as $format', ({ scenario, itag, encode }) => {
  const video = FAKE_VIDEO_IDS[scenario];
  let encoded: EncodedAudio;
  beforeAll(async () => {
    encoded = await encode(speech.wavPath);
    const { durationMs } = await probe(encoded.path, false);
    serveAudioFile(video, itag, { ...encoded, durationMs });
  }, SLOW);
  afterAll(() => serveAudioFile(video, itag, undefined));

  it('is cut into parts that each decode, transcribed within 5 points of the whole file’s word error rate, each sentence within 3 s of its place', {
    timeout: SLOW,
  }, async () => {
    server.requests.length = 0;
    const submitted = await env.host.request('POST', '/summarize', {
      json: { video_url: video, summary_length: 80 },
      token: env.token,
      headers: { prefer: 'respond-async' },
    });
    const { last } = await pollJob(env.host, env.token, jobIdOf(submitted), {
      timeoutMs: SLOW - 20_000,
      everyMs: 200,
    });

    expect(last.body.status, last.text).toBe('done');
    // Parts of at most a minute, each its own file that ffmpeg decodes without a word.
    const parts = server.requests;
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.fileName).toMatch(new RegExp(`^${video}-part\\d+of${parts.length}\\.`));
      expect(part.decoded?.exitCode, part.decoded?.errors.join('\n')).toBe(0);
      expect(part.decoded?.errors).toEqual([]);
      expect(part.decoded?.durationMs).toBeLessThanOrEqual(61_000);
    }
    const decoded = parts.reduce((sum, part) => sum + (part.decoded?.durationMs ?? 0), 0);
    expect(Math.abs(decoded - speech.durationMs)).toBeLessThan(1_000);
    // The joined transcript reads as well as the whole file did.
    const transcript = await transcriptOf(video);
    const errors = wordErrorRate(SCRIPT, transcript.map((line) => line.text).join(' '));
    console.info(
      `${scenario}: ${parts.length} parts, word error rate ${(errors.rate * 100).toFixed(1)}% (whole WAV ${(baseline * 100).toFixed(1)}%)`,
    );
    expect(errors.rate).toBeLessThanOrEqual(baseline + 0.05);
    // Every sentence where the script put it, the last part's too.
    const landings = landSentences(speech.sentences, transcript);
    const worst = Math.max(...landings.map((landing) => Math.abs(landing.offsetMs ?? Infinity)));
    console.info(`${scenario}: sentences within ${(worst / 1000).toFixed(2)} s of the script`);
    for (const landing of landings) {
      expect(Math.abs(landing.offsetMs ?? Infinity), landing.text).toBeLessThanOrEqual(3_000);
    }
    expect(speech.sentences.at(-1)?.startMs).toBeGreaterThan(2 * 60_000);
  });
});
