// Quality of the offline summarizer, reproducible offline: `npx tsx bench/quality.ts`.
// 1. VT-SSum train videos: 5-fold cross-validation of the sentence ranking's training
//    (bench/tune-ranking.ts): weights and the word table of the 'cues' feature trained on the
//    clips of 4/5 of the videos, Top-3 precision/recall/F1 of rankSentences's model scored on the
//    clips of the other fifth; mean and spread over the folds, next to lead-3 and a seeded random-3.
// 2. VT-SSum dev videos: Top-3 of rankSentences as shipped (weights trained on all the train
//    videos, never on these), next to lead-3 and random-3. Top-3 against the slide-derived
//    sentence labels is the VT-SSum paper's metric; on its test split, BERT fine-tuned on
//    CNN/DM scores Top3-F1 40.92 and BERT fine-tuned on VT-SSum 48.90.
//    VT-SSum is not in the repository (its authors publish it without a licence): point
//    VT_SSUM_TRAIN_DIR and VT_SSUM_DIR at folders of its JSON files (`train/` and `dev/` of a
//    clone of https://github.com/Dod-o/VT-SSum); a part without its folder is skipped and says so.
// 3. The real transcript in test/fixtures: ROUGE-1/2/L of the 300-word extractive summary
//    against its reference summary, next to the transcript's first words at the same length.
import { pathToFileURL } from 'node:url';
import model from 'wink-eng-lite-web-model';
import { rankSentences, scoreFeatures } from '../lib/summaries/extractive/ranking';
import { summarizeSentences } from '../lib/summaries/extractive/selection';
import { splitTranscript } from '../lib/summaries/extractive/sentences';
import { countWords } from '../lib/util/words';
import { loadSharedReferenceSummary, loadSharedTranscript } from '../test/support/transcripts';
import {
  buildCueWords,
  crossFitted,
  type LabelledClip,
  type LabelledVideo,
  loadVideos,
  trainingClips,
  trainWeights,
  VT_SSUM_TRAIN_MISSING,
  vtSsumFolder,
  vtSsumTrainDir,
  withCueWords,
} from './tune-ranking';

/** Where the 40 VT-SSum dev videos are, or undefined. */
export const vtSsumDir = () => vtSsumFolder('VT_SSUM_DIR', 'dev');

export const VT_SSUM_MISSING =
  'VT-SSum dev videos not found: set VT_SSUM_DIR to a folder of VT-SSum JSON files ' +
  '(e.g. dev/ of a clone of https://github.com/Dod-o/VT-SSum) to score the sentence ranking';
export { VT_SSUM_TRAIN_MISSING };

const SHARED_VIDEO_ID = 'py5byOOHZM8';
const TOP_K = 3;
const FOLDS = 5;
const SUMMARY_WORDS = 300;
const RANDOM_SEED = 20_240_601;

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

interface VideoSet {
  dir: string;
  videos: number;
  clips: number;
  sentences: number;
}

/** Mean, standard deviation, lowest and highest of a figure over the folds. */
export interface Spread {
  mean: number;
  sd: number;
  min: number;
  max: number;
}

export interface QualityResult {
  /** Undefined when no VT-SSum training videos are on this machine (see vtSsumTrainDir). */
  train:
    | (VideoSet & {
        /** Macro Top-3 of each held-out fold, and their spread. */
        folds: PrecisionRecallF1[];
        crossValidated: Record<keyof PrecisionRecallF1, Spread>;
        baselines: { lead3: Top3Scores; random3: Top3Scores };
      })
    | undefined;
  /** Undefined when no VT-SSum dev videos are on this machine (see vtSsumDir). */
  dev:
    | (VideoSet & { methods: { extractive: Top3Scores; lead3: Top3Scores; random3: Top3Scores } })
    | undefined;
  rouge: { extractive: RougeScores; lead: RougeScores };
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

function scoreTop3(
  clips: LabelledClip[],
  pick: (clip: LabelledClip, index: number) => number[],
): Top3Scores {
  let precisionSum = 0;
  let recallSum = 0;
  let hits = 0;
  let picks = 0;
  let positives = 0;
  clips.forEach((clip, index) => {
    const picked = pick(clip, index);
    const clipHits = picked.filter((i) => clip.labels[i]).length;
    const clipPositives = clip.labels.filter(Boolean).length;
    precisionSum += clipHits / picked.length;
    recallSum += clipPositives === 0 ? 0 : clipHits / clipPositives;
    hits += clipHits;
    picks += picked.length;
    positives += clipPositives;
  });
  return {
    macro: percentages(precisionSum / clips.length, recallSum / clips.length),
    micro: percentages(hits / picks, hits / positives),
  };
}

function baselines(clips: LabelledClip[]): { lead3: Top3Scores; random3: Top3Scores } {
  const random = seededRandom(RANDOM_SEED);
  return {
    lead3: scoreTop3(clips, (clip) => [0, 1, 2].slice(0, Math.min(TOP_K, clip.sentences.length))),
    random3: scoreTop3(clips, (clip) => randomPick(clip.sentences.length, TOP_K, random)),
  };
}

function describe(dir: string, videos: LabelledVideo[]): VideoSet {
  const clips = videos.flatMap((video) => video.clips);
  return {
    dir,
    videos: videos.length,
    clips: clips.length,
    sentences: clips.reduce((n, clip) => n + clip.sentences.length, 0),
  };
}

function spread(values: number[]): Spread {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
  return { mean, sd: Math.sqrt(variance), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * k-fold cross-validation over the train videos (video i in fold i mod k, so a video's clips
 * never train the weights they are scored with), then baselines over all their clips. The word
 * table of the 'cues' feature is rebuilt from each fold's training videos, as tune-ranking.ts
 * builds it from all of them (cross-fitted within them for the weights), never from the held-out.
 */
async function crossValidate(dir: string): Promise<NonNullable<QualityResult['train']>> {
  const videos = await loadVideos(dir);
  const folds: PrecisionRecallF1[] = [];
  const prepared = videos.map((video, i) => ({
    fold: i % FOLDS,
    clips: video.clips,
    training: trainingClips(video.clips),
  }));
  for (let fold = 0; fold < FOLDS; fold++) {
    const trainingVideos = prepared.filter((v) => v.fold !== fold).map((v) => v.training);
    const weights = trainWeights(crossFitted(trainingVideos));
    const cues = buildCueWords(trainingVideos);
    const heldOut = prepared.filter((v) => v.fold === fold);
    const clips = heldOut.flatMap((v) => v.clips);
    const features = heldOut.flatMap((v) =>
      withCueWords(v.training, cues).map((clip) => clip.features),
    );
    const scores = scoreTop3(clips, (_, k) =>
      topK(scoreFeatures(features[k] ?? [], weights), TOP_K),
    );
    folds.push(scores.macro);
  }
  return {
    ...describe(dir, videos),
    folds,
    crossValidated: {
      precision: spread(folds.map((fold) => fold.precision)),
      recall: spread(folds.map((fold) => fold.recall)),
      f1: spread(folds.map((fold) => fold.f1)),
    },
    baselines: baselines(videos.flatMap((video) => video.clips)),
  };
}

/** VT-SSum Top-3 scores of the dev videos in `dir`; deterministic (random-3 is seeded). */
async function scoreDev(dir: string): Promise<NonNullable<QualityResult['dev']>> {
  const videos = await loadVideos(dir);
  const clips = videos.flatMap((video) => video.clips);
  return {
    ...describe(dir, videos),
    methods: {
      extractive: scoreTop3(clips, (clip) => topK(rankSentences(clip.sentences), TOP_K)),
      ...baselines(clips),
    },
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

/** Runs every part (the VT-SSum ones only when their videos are on this machine). */
export async function runQualityBenchmark(): Promise<QualityResult> {
  const trainDir = vtSsumTrainDir();
  const devDir = vtSsumDir();
  const transcript = loadSharedTranscript();
  const reference = loadSharedReferenceSummary();
  const sentences = splitTranscript(transcript);
  const summary = summarizeSentences(sentences, SUMMARY_WORDS);
  // Lead-N: the transcript's first words (cues removed, as for the summary) at the same length.
  const lead = sentences.join(' ').split(/\s+/).slice(0, countWords(summary)).join(' ');
  return {
    train: trainDir === undefined ? undefined : await crossValidate(trainDir),
    dev: devDir === undefined ? undefined : await scoreDev(devDir),
    rouge: { extractive: rouge(summary, reference), lead: rouge(lead, reference) },
  };
}

const fixed = (value: number) => value.toFixed(2).padStart(6);

function printSet(name: string, set: VideoSet): void {
  console.log(
    `VT-SSum ${name} (${set.dir}): ${set.videos} videos, ${set.clips} summarization clips, ` +
      `${set.sentences} sentences; Top-3 (percent)`,
  );
}

function printMethods(methods: Record<string, Top3Scores>): void {
  console.log('method        macro P  macro R  macro F1 | micro P  micro R  micro F1');
  for (const [name, { macro, micro }] of Object.entries(methods)) {
    console.log(
      `${name.padEnd(12)} ${fixed(macro.precision)}   ${fixed(macro.recall)}   ${fixed(macro.f1)}  ` +
        `| ${fixed(micro.precision)}   ${fixed(micro.recall)}   ${fixed(micro.f1)}`,
    );
  }
}

function printTrain(train: NonNullable<QualityResult['train']>): void {
  printSet('train', train);
  console.log(`rankSentences, ${FOLDS}-fold cross-validation over videos (held-out folds, macro):`);
  for (const [name, s] of Object.entries(train.crossValidated)) {
    console.log(
      `  ${name.padEnd(9)} mean ${fixed(s.mean)}  sd ${s.sd.toFixed(2)}  ` +
        `min ${fixed(s.min)}  max ${fixed(s.max)}`,
    );
  }
  console.log('baselines over all the train clips:');
  printMethods(train.baselines);
}

function printDev(dev: NonNullable<QualityResult['dev']>): void {
  printSet('dev', dev);
  printMethods(dev.methods);
  console.log('(extractive: the weights trained on all the train videos, as shipped)');
}

function printResult(result: QualityResult): void {
  const { train, dev, rouge: r } = result;
  if (train === undefined) console.log(VT_SSUM_TRAIN_MISSING);
  else printTrain(train);
  console.log('');
  if (dev === undefined) console.log(VT_SSUM_MISSING);
  else printDev(dev);
  console.log(
    '(macro F1 is the F1 of the clip-averaged P and R, as in the VT-SSum paper; published on',
  );
  console.log(' its test split: BERT fine-tuned on CNN/DM Top3-F1 40.92, on VT-SSum 48.90)');
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
