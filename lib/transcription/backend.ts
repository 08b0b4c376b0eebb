// The contract of a speech-to-text backend (any OpenAI-compatible server, or
// Amazon Transcribe), and what its answer becomes: the Transcript every summarizer
// reads, its segments the timed lines key points and citations link to.
import { buildTranscript } from '../youtube/captions/transcript';
import type { Transcript } from '../youtube/types';
import type { PlacedHeard } from './heard';

/**
 * One file to transcribe: the whole audio as downloaded, or a part of it (its init segment and
 * whole media segments: a file every decoder reads), never transcoded.
 */
export interface AudioFile {
  bytes: Uint8Array;
  /** As the player answer names it, e.g. `audio/webm; codecs="opus"`. */
  mimeType: string;
  videoId: string;
  /** Its length in ms when known (from the media's index): a backend's times must fit in it. */
  durationMs?: number;
  /** Which part of the video's audio it is (from 1), of how many; absent: the whole audio. */
  part?: { number: number; count: number };
}

/** A stretch of speech the backend heard: times in milliseconds from the start of its file. */
export interface HeardSegment {
  startMs: number;
  endMs: number;
  text: string;
}

/** How a backend's times were had. */
export type HeardTiming = 'segments' | 'estimated';

/** What a backend heard. */
export interface Heard {
  /** The spoken language as the backend names it ("en", "en-US", "english"), when it says. */
  language?: string;
  segments: HeardSegment[];
  /**
   * `segments`: the backend timed what it heard (the default); `estimated`: it gave text only
   * (e.g. gpt-4o-transcribe), laid over the file's length by sentence and character count.
   */
  timing?: HeardTiming;
}

/** One upload of an upload backend. */
export interface UploadCall {
  /** The run's deadline: aborting it ends the request at once. */
  signal: AbortSignal;
  /**
   * When the run must hand its work over (epoch ms): the answer is waited for until then, and
   * never cut off sooner by an HTTP client's own timeouts.
   */
  handOverAt: number;
  /** The video's language when known (its audio track's): no identification needed. */
  language?: string;
}

/**
 * A backend that transcribes one file per request (any OpenAI-compatible server): the
 * transcriber cuts long audio into parts it takes one at a time.
 */
export interface UploadBackend {
  kind: 'upload';
  /** For logs: `openai-compatible`. */
  name: string;
  /** The largest file it takes in one upload (TRANSCRIPTION_MAX_UPLOAD_MB). */
  uploadLimitBytes: number;
  /**
   * What is said in one file, times from its start. Sent once: never re-sent while the server
   * may still be working on it.
   * @throws HttpError: 422 transcription-rejected | transcription-too-large, 502
   *   transcription-error | transcription-misconfigured; the signal's reason when it aborts.
   */
  transcribeFile(file: AudioFile, call: UploadCall): Promise<Heard>;
}

export interface TranscribeCall extends UploadCall {
  /** A job an earlier run started (its name): picked up rather than started again. */
  resume?: string;
  /** Told the name of a job as it starts, so that a later run can pick it up. */
  started(jobName: string): Promise<void>;
}

/**
 * A backend that runs a job over the whole audio (Amazon Transcribe: up to 4 hours and 2 GB),
 * which may outlive a run and be handed over by its name.
 */
export interface JobBackend {
  kind: 'job';
  /** For logs: `amazon-transcribe`. */
  name: string;
  /**
   * What is said in the audio. `audio` is downloaded only when needed (a resumed job has it).
   * @throws HttpError: 422 transcription-rejected (the audio refused, with the backend's reason),
   *   502 transcription-error; TranscriptionPendingError when `handOverAt` comes first.
   */
  transcribe(audio: () => Promise<AudioFile>, call: TranscribeCall): Promise<Heard>;
}

export type TranscriptionBackend = UploadBackend | JobBackend;

/**
 * The file name a server sees: its extension names the container (OpenAI reads it); a part's
 * says which, e.g. `abc-part3of18.webm`.
 */
export function fileNameOf(audio: AudioFile): string {
  const part = audio.part ? `-part${audio.part.number}of${audio.part.count}` : '';
  return `${audio.videoId}${part}.${containerOf(audio.mimeType)}`;
}

/** The container of an audio MIME type: `webm`, `m4a` (MP4 audio), or what the type says. */
export function containerOf(mimeType: string): string {
  const subtype = /^audio\/([a-z0-9.+-]+)/i.exec(mimeType)?.[1]?.toLowerCase() ?? 'webm';
  return subtype === 'mp4' ? 'm4a' : subtype;
}

// Whisper names the language in English ("english", "portuguese"); other servers give a code.
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });
/** Whisper's languages (openai/whisper's tokenizer), to map its English names to codes. */
const WHISPER_CODES =
  'en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jv su yue'.split(
    ' ',
  );
let byName: Map<string, string> | undefined;

const plain = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * A language as a BCP 47 tag ("en", "en-US"), from a code or one of Whisper's English names;
 * undefined when it names none.
 */
export function languageTag(said: string | undefined): string | undefined {
  if (said === undefined) return undefined;
  const trimmed = said.trim();
  if (/^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/i.test(trimmed)) {
    const [primary = '', ...rest] = trimmed.split(/[-_]/);
    return [primary.toLowerCase(), ...rest.map((part) => part.toUpperCase())].join('-');
  }
  byName ??= new Map(WHISPER_CODES.map((code) => [plain(LANGUAGE_NAMES.of(code) ?? code), code]));
  // Whisper's own spellings where the English display name differs.
  const aliases: Record<string, string> = {
    myanmar: 'my',
    tagalog: 'tl',
    nynorsk: 'nn',
    castilian: 'es',
    valencian: 'ca',
    flemish: 'nl',
    haitian: 'ht',
    mandarin: 'zh',
  };
  const name = plain(trimmed);
  return byName.get(name) ?? aliases[name];
}

/** BCP 47's "undetermined": the transcript of a backend that did not name the language. */
export const UNDETERMINED = 'und';

/**
 * The transcript of what was heard (segments in the video's time): lines cleaned as
 * caption lines are (no "[Music]" cues, no control or invisible format characters),
 * machine-made like YouTube's automatic captions.
 */
export function transcriptOf(
  heard: Pick<PlacedHeard, 'language' | 'segments'>,
  fallbackLanguage?: string,
): Transcript {
  const language = languageTag(heard.language) ?? languageTag(fallbackLanguage) ?? UNDETERMINED;
  const captions = heard.segments.map((segment) => ({
    text: segment.text,
    offsetMs: Math.max(0, Math.round(segment.startMs)),
    durationMs: Math.max(0, Math.round(segment.endMs - segment.startMs)),
    ...(segment.estimated ? { estimated: true as const } : {}),
  }));
  return buildTranscript(captions, { language, autoGenerated: true });
}
