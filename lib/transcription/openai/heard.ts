// What a server's answer says was heard, times in milliseconds from the start of the file sent:
// `verbose_json` segments (seconds, as OpenAI, whisper.cpp, Speaches, vLLM and LocalAI from
// v4.2 give them), times in another unit rescaled only when that unit explains them exactly
// (LocalAI up to v4.1 wrote Go durations: nanoseconds), or text alone (`json`, as
// gpt-4o-transcribe answers) laid over the file's length by sentence and character count.
import { runToEnd, type Steps } from '../../util/cooperative';
import { type AudioFile, type Heard, type HeardSegment, languageTag } from '../backend';
import { transcriptionError, transcriptionMisconfigured } from '../errors';

/** What was asked of the server. */
export interface Asked {
  format: 'verbose_json' | 'json';
  /** The `language` field sent, if any (`auto` to whisper.cpp). */
  language?: string;
}

/** Segments read between two points where the work may pause. */
const SEGMENTS_PER_STEP = 512;
/**
 * More lines than this per second of audio is not speech (whisper.cpp's `-ml 1 -sow`, a line per
 * word, gives 2 to 5): such an answer would only make every later step work for nothing.
 */
const MOST_LINES_PER_SECOND = 20;
const mostLines = (durationMs: number) =>
  Math.max(200, (durationMs / 1000) * MOST_LINES_PER_SECOND);
/** Times past the file's end by less than this still fit (a decoder's rounding, padding). */
const toleranceMs = (durationMs: number) => 2_000 + durationMs * 0.02;
/** Units a server's times may be in instead of seconds, smallest first: ms, µs, ns. */
const UNITS = [1e3, 1e6, 1e9];

interface RawSegment {
  start?: unknown;
  end?: unknown;
  text?: unknown;
}

const notATranscription = (why: string) =>
  transcriptionError(
    `the transcription service answered something that is not a transcription (${why})`,
  );

/**
 * What the answer says was heard, times from the start of `file`.
 * @throws 502 transcription-error for an answer that is not a transcription or times no unit
 *   explains; 502 transcription-misconfigured for whisper.cpp transcribing as English a file
 *   it heard in another language.
 */
export function* heardOf(answer: unknown, file: AudioFile, asked: Asked): Steps<Heard> {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw notATranscription('not a JSON object');
  }
  const { text, segments, language } = answer as Record<string, unknown>;
  if (text != null && typeof text !== 'string') throw notATranscription('its text is no string');
  if (segments != null && !Array.isArray(segments)) throw notATranscription('no list of segments');
  if (typeof text !== 'string' && !Array.isArray(segments)) throw notATranscription('no text');
  checkLanguage(answer as Record<string, unknown>, asked);
  const tooMany = (lines: number) =>
    file.durationMs !== undefined && lines > mostLines(file.durationMs)
      ? notATranscription(
          `${lines} lines in ${Math.round(file.durationMs / 1000)} seconds of audio`,
        )
      : undefined;
  const listed = Array.isArray(segments) ? tooMany(segments.length) : undefined;
  if (listed) throw listed;

  const timed = Array.isArray(segments) ? yield* timedSegments(segments as unknown[]) : undefined;
  const heard: Heard =
    timed && timed.length > 0
      ? { segments: yield* fitted(timed, file.durationMs), timing: 'segments' }
      : {
          segments: yield* estimated(typeof text === 'string' ? text : '', file.durationMs),
          timing: 'estimated',
        };
  const laid = tooMany(heard.segments.length);
  if (laid) throw laid;
  if (typeof language === 'string' && language.trim()) heard.language = language.trim();
  return heard;
}

/**
 * The segments with times, as the server wrote them (unit unknown yet); undefined when none has
 * times (whisper.cpp with `-nt`): the answer's text is then all there is.
 */
function* timedSegments(list: unknown[]): Steps<HeardSegment[] | undefined> {
  const out: HeardSegment[] = [];
  let untimed = 0;
  for (let i = 0; i < list.length; i++) {
    if (i % SEGMENTS_PER_STEP === SEGMENTS_PER_STEP - 1) yield;
    const segment = list[i] as RawSegment | null;
    if (typeof segment !== 'object' || segment === null || typeof segment.text !== 'string') {
      throw notATranscription(`segment ${i} has no text`);
    }
    if (segment.start === undefined && segment.end === undefined) {
      untimed++;
      continue;
    }
    const { start, end } = segment;
    // Numbers, or the answer is not a transcription; a time before the file's start is one
    // segment's fault, and that segment is dropped where every backend's segments are placed.
    if (typeof start !== 'number' || typeof end !== 'number') {
      throw notATranscription(`segment ${i} has no times`);
    }
    // Raw values here; fitted() turns them into milliseconds.
    out.push({ startMs: start, endMs: Math.max(start, end), text: segment.text });
  }
  if (untimed > 0 && out.length > 0) throw notATranscription('some segments have no times');
  return untimed > 0 ? undefined : out;
}

/**
 * The segments in milliseconds: seconds when they fit the file (or its length is unknown), else
 * the one unit (ms, µs, ns) in which every time is a whole number and every segment fits. Seconds
 * still, when most segments end inside the file in seconds: the few that do not are a server's
 * stray lines, dropped or cut where segments are placed, for every backend alike.
 * @throws 502 transcription-error when no unit explains them.
 */
function* fitted(raw: HeardSegment[], durationMs: number | undefined): Steps<HeardSegment[]> {
  let latest = 0;
  let whole = true;
  let inside = 0;
  const limit = durationMs === undefined ? 0 : durationMs + toleranceMs(durationMs);
  for (const segment of raw) {
    latest = Math.max(latest, segment.endMs);
    whole &&= Number.isInteger(segment.startMs) && Number.isInteger(segment.endMs);
    if (segment.endMs * 1000 <= limit) inside++;
  }
  const fits = (per: number) => durationMs === undefined || (latest * 1000) / per <= limit;
  const mostlySeconds = inside * 2 > raw.length;
  const per = fits(1)
    ? 1
    : (UNITS.find((unit) => whole && fits(unit)) ?? (mostlySeconds ? 1 : undefined));
  if (per === undefined) {
    throw transcriptionError(
      `the transcription service answered segment times up to ${latest.toPrecision(2)} s in a ${Math.round((durationMs ?? 0) / 1000)}-second file, in no unit that fits it`,
    );
  }
  const segments: HeardSegment[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (i % SEGMENTS_PER_STEP === SEGMENTS_PER_STEP - 1) yield;
    const segment = raw[i] as HeardSegment;
    segments.push({
      startMs: (segment.startMs * 1000) / per,
      endMs: (segment.endMs * 1000) / per,
      text: segment.text,
    });
  }
  return segments;
}

/**
 * Text without times laid over the file: each sentence's share of its length is its share of
 * the characters; one line at 0 when the length is unknown.
 */
function* estimated(text: string, durationMs: number | undefined): Steps<HeardSegment[]> {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (durationMs === undefined) return [{ startMs: 0, endMs: 0, text: trimmed }];
  const sentences = yield* sentencesOf(trimmed);
  const total = sentences.reduce((sum, sentence) => sum + sentence.length, 0);
  const segments: HeardSegment[] = [];
  let before = 0;
  for (const sentence of sentences) {
    segments.push({
      startMs: Math.round((durationMs * before) / total),
      endMs: Math.round((durationMs * (before + sentence.length)) / total),
      text: sentence,
    });
    before += sentence.length;
  }
  return segments;
}

const STOPS = new Set(['.', '!', '?', '…', '。', '！', '？']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '»', '」', '』']);
const FULL_WIDTH_STOPS = new Set(['。', '！', '？']);

/** Sentences of a text: cut after a stop (and its closing quotes) followed by a space. */
export function* sentencesOf(text: string): Steps<string[]> {
  const sentences: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (i % 65_536 === 65_535) yield;
    const char = text[i] as string;
    if (!STOPS.has(char)) continue;
    let end = i + 1;
    while (end < text.length && CLOSERS.has(text[end] as string)) end++;
    // Languages written without spaces end a sentence at a full-width stop itself.
    if (end < text.length && !FULL_WIDTH_STOPS.has(char) && !/\s/.test(text[end] as string)) {
      continue;
    }
    const sentence = text.slice(from, end).trim();
    if (sentence) sentences.push(sentence);
    from = end;
    i = end - 1;
  }
  const rest = text.slice(from).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** sentencesOf without pausing (short texts, tests). */
export const sentencesIn = (text: string) => runToEnd(sentencesOf(text));

/**
 * whisper.cpp's server transcribes in the language it was started with (`-l`, English unless
 * `-l auto`) whatever the speech, and says what it detected beside it (`detected_language`,
 * examples/server/server.cpp): a file heard as another language, sure enough, but transcribed
 * as English when we named no language is a server to restart with `-l auto`.
 * @throws 502 transcription-misconfigured then.
 */
function checkLanguage(answer: Record<string, unknown>, asked: Asked): void {
  const { language, detected_language: detected } = answer;
  const probability = answer.detected_language_probability;
  if (asked.language !== undefined || typeof language !== 'string') return;
  if (typeof detected !== 'string') return;
  if (typeof probability === 'number' && probability < 0.5) return;
  const said = languageTag(language);
  const heard = languageTag(detected);
  if (said && heard && said !== heard) {
    throw transcriptionMisconfigured(
      `whisper.cpp's server transcribed speech it detected as ${detected} as ${language}: start it with \`-l auto\` (and \`--convert\`), or post to its /inference path (TRANSCRIPTION_BASE_URL ending in /inference), where the service asks for language=auto.`,
      new Error(`the server answered language "${language}", detected_language "${detected}"`),
    );
  }
}
