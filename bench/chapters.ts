// Chapters (issue 27), reproducible offline: `npx tsx bench/chapters.ts`.
// 1. Offline chapters of 3 hours of transcript (27,000 words of the real fixture): the chapter
//    step alone (segmentation, titles, summaries over the sentences the summary ranked anyway),
//    and the sentences' ranking it needs when a model made the summary.
// 2. Boundary F1 on the VT-SSum dev videos (VT_SSUM_DIR), with a tolerance window: the
//    segmentation as shipped (its own count by duration, on times at a steady speaking rate),
//    evenly spaced boundaries at that count, and plain TextTiling (no pauses or transition
//    phrases) given the true count, next to evenly spaced boundaries at the true count. VT-SSum's
//    segments follow slide changes, not topics: a sanity check, not a goal.
//    And the offline chapter titles of those videos: none a comma list, at most 6 words.
// 3. Model calls for a 3-hour talk, before chapters (the calls asked for none) and after (made
//    chapters, and the creator's 30 from the description), with the echo model of the tests
//    (test/support/echo-model.ts) behind each model's limits.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chapterCount } from '../lib/summaries/chapters/chapter';
import { offlineChapters } from '../lib/summaries/chapters/offline';
import { segmentBoundaries, type TimedTerms } from '../lib/summaries/chapters/segments';
import { analyse } from '../lib/summaries/extractive/ranking';
import { rankTranscript } from '../lib/summaries/extractive/summarizer';
import { createLlmSummarizer, type ModelLimits } from '../lib/summaries/llm/summarizer';
import { runToEnd } from '../lib/util/cooperative';
import { countWords } from '../lib/util/words';
import { echoAnswer } from '../test/support/echo-model';
import {
  buildLongTranscript,
  loadSharedMetadata,
  transcriptFromLines,
} from '../test/support/transcripts';
import { median, type Row, row, timeRuns } from './measure';
import { VT_SSUM_MISSING, vtSsumDir } from './quality';
import { loadVideos } from './tune-ranking';

const THREE_HOURS_WORDS = 27_000;
/** A predicted boundary within this many sentences of a true one counts as found. */
const TOLERANCE_SENTENCES = 1;

/** Precision, recall and F1 (percent) of predicted boundaries (sentence indices) against true
 * ones, each true boundary matched at most once within the tolerance. */
export function boundaryF1(predicted: readonly number[], truth: readonly number[]): number[] {
  const unmatched = new Set(truth);
  let hits = 0;
  for (const boundary of predicted) {
    let best: number | undefined;
    for (const candidate of unmatched) {
      const distance = Math.abs(candidate - boundary);
      if (
        distance <= TOLERANCE_SENTENCES &&
        (best === undefined || distance < Math.abs(best - boundary))
      ) {
        best = candidate;
      }
    }
    if (best !== undefined) {
      unmatched.delete(best);
      hits++;
    }
  }
  const precision = predicted.length === 0 ? 0 : hits / predicted.length;
  const recall = truth.length === 0 ? 0 : hits / truth.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return [100 * precision, 100 * recall, 100 * f1];
}

/** `count - 1` boundaries splitting `n` sentences evenly. */
const evenly = (n: number, count: number) =>
  Array.from({ length: Math.max(0, count - 1) }, (_, k) => Math.round(((k + 1) * n) / count));

interface Scores {
  shipped: number[][];
  evenShipped: number[][];
  textTiling: number[][];
  evenTrue: number[][];
}

/** The boundary scores of each method over the dev videos, macro-averaged. */
async function devBoundaries(
  dir: string,
): Promise<{ videos: number; methods: Record<string, number[]> }> {
  const videos = await loadVideos(dir);
  const scores: Scores = { shipped: [], evenShipped: [], textTiling: [], evenTrue: [] };
  for (const video of videos) {
    const raw = JSON.parse(readFileSync(`${dir}/${video.file}`, 'utf8'));
    const segments = raw.segmentation as string[][];
    const truth: number[] = [];
    let at = 0;
    for (const segment of segments.slice(0, -1)) {
      at += segment.length;
      truth.push(at);
    }
    const lines = segments.flat();
    if (lines.length < 10 || truth.length === 0) continue;
    // VT-SSum's sentences are the units; times at a steady speaking rate (it has none), so
    // that the shipped count follows the talk's length.
    const transcript = transcriptFromLines(lines);
    const { terms } = runToEnd(analyse(lines));
    const units: TimedTerms[] = lines.map((text, i) => ({
      text,
      startMs: transcript.segments[i]?.offsetMs ?? 0,
      terms: terms[i] ?? [],
      words: countWords(text),
    }));
    const last = transcript.segments.at(-1);
    const endMs = last ? last.offsetMs + last.durationMs : 0;
    const count = chapterCount(endMs);
    const shipped = runToEnd(segmentBoundaries(units, { ...count, endMs }));
    const trueCount = truth.length + 1;
    const tiling = runToEnd(
      segmentBoundaries(units, { target: trueCount, min: trueCount, endMs, speech: false }),
    );
    scores.shipped.push(boundaryF1(shipped, truth));
    scores.evenShipped.push(boundaryF1(evenly(lines.length, shipped.length + 1), truth));
    scores.textTiling.push(boundaryF1(tiling, truth));
    scores.evenTrue.push(boundaryF1(evenly(lines.length, trueCount), truth));
  }
  const mean = (rows: number[][]) =>
    [0, 1, 2].map((k) => rows.reduce((sum, r) => sum + (r[k] ?? 0), 0) / Math.max(1, rows.length));
  return {
    videos: scores.shipped.length,
    methods: {
      'segmentation as shipped (count by duration)': mean(scores.shipped),
      'evenly spaced, same count': mean(scores.evenShipped),
      'TextTiling, true count': mean(scores.textTiling),
      'evenly spaced, true count': mean(scores.evenTrue),
    },
  };
}

/** Issue 38: offline titles read as titles, never a comma list of keywords. */
const TITLE_MAX_WORDS = 6;

/** The offline chapter titles of the dev videos: how many are comma lists, and their words. */
async function devTitles(dir: string) {
  const titles: string[] = [];
  for (const video of await loadVideos(dir)) {
    const raw = JSON.parse(readFileSync(`${dir}/${video.file}`, 'utf8'));
    const transcript = transcriptFromLines((raw.segmentation as string[][]).flat());
    const last = transcript.segments.at(-1);
    const endMs = last ? last.offsetMs + last.durationMs : 0;
    const ranked = runToEnd(rankTranscript(transcript));
    titles.push(...runToEnd(offlineChapters(ranked, endMs)).list.map((chapter) => chapter.title));
  }
  const words = titles.map((title) => countWords(title));
  return {
    titles: titles.length,
    commaLists: titles.filter((title) => title.includes(',')).length,
    meanWords: words.reduce((sum, n) => sum + n, 0) / Math.max(1, words.length),
    maxWords: Math.max(0, ...words),
  };
}

/** Model limits to count a 3-hour talk's calls with: a small local model to a large one. */
const MODELS: ModelLimits[] = [
  {
    name: 'tiny (6k context)',
    contextTokens: 6_000,
    maxOutputTokens: 2_000,
    reasoningReserveTokens: 0,
  },
  { name: 'local 32k', contextTokens: 32_768, maxOutputTokens: 8_192, reasoningReserveTokens: 0 },
  {
    name: 'nova-micro (128k)',
    contextTokens: 128_000,
    maxOutputTokens: 5_000,
    reasoningReserveTokens: 0,
  },
];

/** A description dividing 3 hours into 30 chapters of 6 minutes, as a creator might. */
const CREATOR_DESCRIPTION = Array.from({ length: 30 }, (_, i) => {
  const minutes = i * 6;
  const time = `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:00`;
  return `${time} Part ${i + 1}: what the speaker covers in this stretch of the talk`;
}).join('\n');

/**
 * The calls a 300-word summary of a 3-hour talk makes with and without chapters (and with the
 * creator's, when `description` lists them: the parts then follow their boundaries).
 */
async function modelCalls(
  limits: ModelLimits,
  chapters: boolean,
  description?: string,
): Promise<number> {
  let calls = 0;
  const summarizer = createLlmSummarizer({
    limits,
    concurrency: 4,
    chat: {
      async complete(request) {
        calls++;
        return { text: echoAnswer({ system: request.system, userText: request.user }) };
      },
    },
  });
  await summarizer.summarize({
    transcript: buildLongTranscript(30_000),
    metadata: { ...loadSharedMetadata(), ...(description === undefined ? {} : { description }) },
    targetWords: 300,
    chapters,
    signal: new AbortController().signal,
  });
  return calls;
}

export async function chapterBenchmarks(log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  log(`offline chapters: ${THREE_HOURS_WORDS} words (3 hours) x 20`);
  const transcript = buildLongTranscript(THREE_HOURS_WORDS);
  const ranked = runToEnd(rankTranscript(transcript));
  const last = transcript.segments.at(-1);
  const endMs = last ? last.offsetMs + last.durationMs : 0;
  const step = await timeRuns(() => runToEnd(offlineChapters(ranked, endMs)), 20, 3);
  const made = runToEnd(offlineChapters(ranked, endMs)).list.length;
  rows.push(
    row('chapters', 'offline chapters, 3 hours p50', median(step), 'ms', { below: 100 }),
    row('chapters', 'offline chapters of 3 hours, count', made, ''),
  );
  const ranking = await timeRuns(() => runToEnd(rankTranscript(transcript)), 5, 1);
  rows.push(
    row(
      'chapters',
      'sentences and ranking for them, 3 hours p50 (model summaries)',
      median(ranking),
      'ms',
    ),
  );

  const dir = vtSsumDir();
  if (dir === undefined) {
    log(VT_SSUM_MISSING);
  } else {
    log('chapter boundaries on the VT-SSum dev videos');
    const { videos, methods } = await devBoundaries(dir);
    const titles = await devTitles(dir);
    rows.push(
      row(
        'chapters',
        `VT-SSum dev offline titles (${titles.titles}): comma lists`,
        titles.commaLists,
        '',
        {
          below: 1,
        },
      ),
      row('chapters', 'VT-SSum dev offline titles: mean words', titles.meanWords, ''),
      row('chapters', 'VT-SSum dev offline titles: most words', titles.maxWords, '', {
        below: TITLE_MAX_WORDS + 1,
      }),
    );
    for (const [name, [precision, recall, f1]] of Object.entries(methods)) {
      rows.push(
        row(
          'chapters',
          `VT-SSum dev (${videos}) boundary F1 ±${TOLERANCE_SENTENCES} sentences: ${name}`,
          f1 ?? 0,
          '%',
        ),
        row(
          'chapters',
          `  precision / recall: ${name}`,
          precision ?? 0,
          `% / ${(recall ?? 0).toFixed(1)}%`,
        ),
      );
    }
  }

  for (const limits of MODELS) {
    log(`model calls of a 3-hour talk: ${limits.name}`);
    const before = await modelCalls(limits, false);
    const after = await modelCalls(limits, true);
    const creator = await modelCalls(limits, true, CREATOR_DESCRIPTION);
    rows.push(
      row('chapters', `model calls, 3-hour talk, ${limits.name}: without chapters`, before, ''),
      row('chapters', `model calls, 3-hour talk, ${limits.name}: with chapters`, after, '', {
        below: before + 2,
      }),
      row(
        'chapters',
        `model calls, 3-hour talk, ${limits.name}: with the creator's 30 chapters`,
        creator,
        '',
        { below: before + 2 },
      ),
    );
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { formatTable } = await import('./measure');
  console.log(formatTable(await chapterBenchmarks((line) => console.error(line))));
}
