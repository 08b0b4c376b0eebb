// Quality of the offline summarizer, reproducible offline: `npx tsx bench/quality.ts`.
// 1. VT-SSum dev clips: Top-3 precision/recall/F1 of rankSentences against the slide-derived
//    sentence labels, next to lead-3 and a seeded random-3 (the VT-SSum paper's metric; its
//    BERT fine-tuned on CNN/DM scores Top3-F1 40.92 on the test split).
//    VT-SSum is not in the repository (its authors publish it without a licence): point
//    VT_SSUM_DIR at a folder of its JSON files (e.g. `dev/` of a clone of
//    https://github.com/Dod-o/VT-SSum); without one, this part is skipped and says so.
// 2. The real transcript in test/fixtures: ROUGE-1/2/L of the 300-word extractive summary
//    against its reference summary, next to the transcript's first words at the same length.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import model from 'wink-eng-lite-web-model';
import { rankSentences, splitTranscript, summarizeSentences } from '../lib/summaries/extractive';
import { countWords } from '../lib/words';
import { loadSharedReferenceSummary, loadSharedTranscript } from '../test/support/transcripts';

/** The team's machines keep the 40 dev videos beside the repository, in ../shared. */
const TEAM_VT_SSUM_DIR = fileURLToPath(
  new URL('../../shared/fixtures/vt-ssum-dev', import.meta.url),
);

/** Where the VT-SSum videos are, or undefined when this machine has none. */
export function vtSsumDir(): string | undefined {
  const dir = process.env.VT_SSUM_DIR ?? TEAM_VT_SSUM_DIR;
  return existsSync(dir) ? dir : undefined;
}

export const VT_SSUM_MISSING =
  'VT-SSum videos not found: set VT_SSUM_DIR to a folder of VT-SSum JSON files ' +
  '(e.g. dev/ of a clone of https://github.com/Dod-o/VT-SSum) to score the sentence ranking';
const SHARED_VIDEO_ID = 'py5byOOHZM8';
const TOP_K = 3;
const SUMMARY_WORDS = 300;
const RANDOM_SEED = 20_240_601;

interface LabelledClip {
  sentences: string[];
  labels: boolean[];
}

/** Percentages (0-100). */
export interface PrecisionRecallF1 {
  precision: number;
  recall: number;
  f1: number;
}

export interface Top3Scores {
  /** Precision and recall averaged over clips, F1 of those averages (the paper's table). */
  macro: PrecisionRecallF1;
  /** Hits, picks and positives pooled over all clips. */
  micro: PrecisionRecallF1;
}

export interface RougeScores {
  /** F1 percentages. */
  rouge1: number;
  rouge2: number;
  rougeL: number;
  words: number;
}

export interface QualityResult {
  /** Undefined when no VT-SSum videos are on this machine (see vtSsumDir). */
  vtSsum:
    | {
        dir: string;
        videos: number;
        clips: number;
        sentences: number;
        methods: { extractive: Top3Scores; lead3: Top3Scores; random3: Top3Scores };
      }
    | undefined;
  rouge: { extractive: RougeScores; lead: RougeScores };
}

async function loadClips(dir: string): Promise<{ videos: number; clips: LabelledClip[] }> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const clips: LabelledClip[] = [];
  for (const file of files) {
    const video = JSON.parse(await readFile(`${dir}/${file}`, 'utf8')) as {
      summarization: Record<
        string,
        {
          is_summarization_sample: boolean;
          summarization_data: { sent: string; label: number }[];
        }
      >;
    };
    for (const clip of Object.values(video.summarization)) {
      if (!clip.is_summarization_sample) continue;
      clips.push({
        sentences: clip.summarization_data.map((item) => item.sent),
        labels: clip.summarization_data.map((item) => item.label === 1),
      });
    }
  }
  return { videos: files.length, clips };
}

// Indices of the k highest scores; ties go to the earlier sentence so results are stable.
function topK(scores: number[], k: number): number[] {
  return scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, k)
    .map((item) => item.index);
}

// mulberry32: a tiny seeded PRNG so the random baseline is the same on every run.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomPick(count: number, k: number, random: () => number): number[] {
  const indices = Array.from({ length: count }, (_, i) => i);
  for (let i = indices.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indices[i], indices[j]] = [indices[j] as number, indices[i] as number];
  }
  return indices.slice(0, k);
}

function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

function percentages(precision: number, recall: number): PrecisionRecallF1 {
  return { precision: 100 * precision, recall: 100 * recall, f1: 100 * f1(precision, recall) };
}

function scoreTop3(clips: LabelledClip[], pick: (clip: LabelledClip) => number[]): Top3Scores {
  let precisionSum = 0;
  let recallSum = 0;
  let hits = 0;
  let picks = 0;
  let positives = 0;
  for (const clip of clips) {
    const picked = pick(clip);
    const clipHits = picked.filter((index) => clip.labels[index]).length;
    const clipPositives = clip.labels.filter(Boolean).length;
    precisionSum += clipHits / picked.length;
    recallSum += clipPositives === 0 ? 0 : clipHits / clipPositives;
    hits += clipHits;
    picks += picked.length;
    positives += clipPositives;
  }
  return {
    macro: percentages(precisionSum / clips.length, recallSum / clips.length),
    micro: percentages(hits / picks, hits / positives),
  };
}

// A small ROUGE (no ROUGE package is installed and adding one is out of scope): tokens as in
// Google's rouge-score (lowercase, alphanumeric runs, Porter stemming), F1 of clipped n-gram
// overlap, and ROUGE-L over the whole text as one sequence (rouge-score's `rougeL`).
const porter2 = model.addons.stem as (word: string) => string;

function rougeTokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map((token) =>
    token.length > 3 ? porter2(token) : token,
  );
}

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n).join(' ');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function rougeN(candidate: string[], reference: string[], n: number): number {
  const c = ngramCounts(candidate, n);
  const r = ngramCounts(reference, n);
  let overlap = 0;
  for (const [gram, count] of c) overlap += Math.min(count, r.get(gram) ?? 0);
  const candidateTotal = Math.max(candidate.length - n + 1, 0);
  const referenceTotal = Math.max(reference.length - n + 1, 0);
  if (candidateTotal === 0 || referenceTotal === 0) return 0;
  return f1(overlap / candidateTotal, overlap / referenceTotal);
}

function rougeL(candidate: string[], reference: string[]): number {
  let previous = new Array<number>(reference.length + 1).fill(0);
  for (const token of candidate) {
    const row = new Array<number>(reference.length + 1).fill(0);
    for (let j = 1; j <= reference.length; j++) {
      row[j] =
        token === reference[j - 1]
          ? (previous[j - 1] as number) + 1
          : Math.max(previous[j] as number, row[j - 1] as number);
    }
    previous = row;
  }
  const lcs = previous[reference.length] as number;
  if (candidate.length === 0 || reference.length === 0) return 0;
  return f1(lcs / candidate.length, lcs / reference.length);
}

/** ROUGE-1/2/L F1 (percent) of a candidate summary against one reference. */
export function rouge(candidate: string, reference: string): RougeScores {
  const c = rougeTokens(candidate);
  const r = rougeTokens(reference);
  return {
    rouge1: 100 * rougeN(c, r, 1),
    rouge2: 100 * rougeN(c, r, 2),
    rougeL: 100 * rougeL(c, r),
    words: countWords(candidate),
  };
}

/** VT-SSum Top-3 scores of the videos in `dir`; deterministic (the random baseline is seeded). */
async function scoreVtSsum(dir: string): Promise<NonNullable<QualityResult['vtSsum']>> {
  const { videos, clips } = await loadClips(dir);
  const random = seededRandom(RANDOM_SEED);
  const methods = {
    extractive: scoreTop3(clips, (clip) => topK(rankSentences(clip.sentences), TOP_K)),
    lead3: scoreTop3(clips, (clip) => [0, 1, 2].slice(0, Math.min(TOP_K, clip.sentences.length))),
    random3: scoreTop3(clips, (clip) => randomPick(clip.sentences.length, TOP_K, random)),
  };
  return {
    dir,
    videos,
    clips: clips.length,
    sentences: clips.reduce((n, clip) => n + clip.sentences.length, 0),
    methods,
  };
}

/** Runs both benchmarks (VT-SSum only when its videos are on this machine). */
export async function runQualityBenchmark(): Promise<QualityResult> {
  const dir = vtSsumDir();
  const transcript = loadSharedTranscript();
  const reference = loadSharedReferenceSummary();
  const sentences = splitTranscript(transcript);
  const summary = summarizeSentences(sentences, SUMMARY_WORDS);
  // Lead-N: the transcript's first words (cues removed, as for the summary) at the same length.
  const lead = sentences.join(' ').split(/\s+/).slice(0, countWords(summary)).join(' ');
  return {
    vtSsum: dir === undefined ? undefined : await scoreVtSsum(dir),
    rouge: { extractive: rouge(summary, reference), lead: rouge(lead, reference) },
  };
}

const fixed = (value: number) => value.toFixed(2).padStart(6);

function printVtSsum(vtSsum: NonNullable<QualityResult['vtSsum']>): void {
  console.log(
    `VT-SSum (${vtSsum.dir}): ${vtSsum.videos} videos, ${vtSsum.clips} summarization clips, ` +
      `${vtSsum.sentences} sentences; Top-3 (percent)`,
  );
  console.log('method        macro P  macro R  macro F1 | micro P  micro R  micro F1');
  for (const [name, scores] of Object.entries(vtSsum.methods)) {
    const { macro, micro } = scores;
    console.log(
      `${name.padEnd(12)} ${fixed(macro.precision)}   ${fixed(macro.recall)}   ${fixed(macro.f1)}  ` +
        `| ${fixed(micro.precision)}   ${fixed(micro.recall)}   ${fixed(micro.f1)}`,
    );
  }
  console.log(
    '(macro F1 is the F1 of the clip-averaged P and R, as in the VT-SSum paper; published',
  );
  console.log(' BERT fine-tuned on CNN/DM: Top3-F1 40.92 on the test split)');
}

function printResult(result: QualityResult): void {
  const { vtSsum, rouge: r } = result;
  if (vtSsum === undefined) console.log(VT_SSUM_MISSING);
  else printVtSsum(vtSsum);
  console.log('');
  console.log(`ROUGE F1 (percent) vs the reference summary of ${SHARED_VIDEO_ID}`);
  console.log('summary                 words  ROUGE-1  ROUGE-2  ROUGE-L');
  for (const [name, scores] of [
    [`extractive ${SUMMARY_WORDS}`, r.extractive],
    ['lead (same length)', r.lead],
  ] as const) {
    console.log(
      `${name.padEnd(22)} ${String(scores.words).padStart(6)}   ${fixed(scores.rouge1)}   ` +
        `${fixed(scores.rouge2)}   ${fixed(scores.rougeL)}`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printResult(await runQualityBenchmark());
}
