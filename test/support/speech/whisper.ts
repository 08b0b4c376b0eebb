// What a Whisper-style server answers for what pocketsphinx heard: the words grouped into timed
// segments as Whisper's are, and the body of a `verbose_json` answer.
import type { RecognizedWord } from './pocketsphinx';
import type { TimedText } from './wer';

/** Words in one segment at most; a pause longer than SPLIT_MS also starts a new one. */
const SEGMENT_WORDS = 12;
const SPLIT_MS = 300;

/**
 * Recognized words grouped into segments as Whisper's run: a new one after a pause longer than
 * SPLIT_MS, or after SEGMENT_WORDS words.
 */
export function segmentsOf(words: readonly RecognizedWord[]): TimedText[] {
  const groups: RecognizedWord[][] = [];
  for (const word of words) {
    const current = groups.at(-1);
    const previous = current?.at(-1);
    if (
      current &&
      previous &&
      current.length < SEGMENT_WORDS &&
      word.startMs - previous.endMs <= SPLIT_MS
    ) {
      current.push(word);
    } else {
      groups.push([word]);
    }
  }
  return groups.map((group) => ({
    startMs: (group[0] as RecognizedWord).startMs,
    endMs: (group.at(-1) as RecognizedWord).endMs,
    text: group.map((word) => word.word).join(' '),
  }));
}

/**
 * Whisper's `verbose_json`: the language by its English name, the duration and the segments
 * (seconds from the start of the file); `words` too when given (`timestamp_granularities[]`
 * asked for `word`).
 */
export function verboseJson(
  segments: readonly TimedText[],
  durationMs: number,
  words?: readonly RecognizedWord[],
) {
  return {
    task: 'transcribe',
    language: 'english',
    duration: durationMs / 1000,
    text: segments.map((segment) => segment.text).join(' '),
    segments: segments.map((segment, id) => ({
      id,
      // Whisper's seek: the start of the 30 s window the segment came from, in 10 ms frames.
      seek: Math.floor(segment.startMs / 30_000) * 3000,
      start: segment.startMs / 1000,
      end: segment.endMs / 1000,
      text: ` ${segment.text}`,
      tokens: [],
      temperature: 0,
      avg_logprob: -0.3,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    })),
    ...(words
      ? {
          words: words.map((word) => ({
            word: word.word,
            start: word.startMs / 1000,
            end: word.endMs / 1000,
          })),
        }
      : {}),
  };
}
