// Trains the sentence ranking's weights (WEIGHTS in lib/summaries/ranking.ts) on VT-SSum's
// training videos, never on its dev videos, which bench/quality.ts scores the result on:
//   VT_SSUM_TRAIN_DIR=../shared/fixtures/vt-ssum-train npx tsx bench/tune-ranking.ts
// prints the weights to paste into ranking.ts (it reproduces the ones there), then how well the
// summarizer's selection does with the ranking as it is (see SHARPNESS there). The model is a
// conditional logit: within each summarization clip, the probability that a sentence is one of
// the labelled ones is the softmax of weights · features over the clip's sentences, so only a
// sentence's standing within its own clip counts, as in the Top-3 metric. Fitted by Newton's
// method with a small L2 penalty; the likelihood is concave, so there is one answer.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runToEnd } from '../lib/cooperative';
import { summarizeSentences } from '../lib/summaries/extractive';
import { FEATURES, type Feature, sentenceFeatures, type Weights } from '../lib/summaries/ranking';
import { countWords } from '../lib/words';

/** The team's machines keep the 400 training videos beside the repository, in ../shared. */
const TEAM_TRAIN_DIR = fileURLToPath(
  new URL('../../shared/fixtures/vt-ssum-train', import.meta.url),
);

/** Where the VT-SSum training videos are, or undefined when this machine has none. */
export function vtSsumTrainDir(): string | undefined {
  const dir = process.env.VT_SSUM_TRAIN_DIR ?? TEAM_TRAIN_DIR;
  return existsSync(dir) ? dir : undefined;
}

export const VT_SSUM_TRAIN_MISSING =
  'VT-SSum training videos not found: set VT_SSUM_TRAIN_DIR to a folder of VT-SSum JSON ' +
  'files (e.g. train/ of a clone of https://github.com/Dod-o/VT-SSum)';

/** The sentences of one summarization clip and which of them the slides make summary ones. */
export interface LabelledClip {
  sentences: string[];
  labels: boolean[];
}

export interface LabelledVideo {
  /** The video's JSON file. */
  file: string;
  /** The whole transcript, sentence by sentence. */
  sentences: string[];
  clips: LabelledClip[];
}

/** Every VT-SSum video (one JSON file each) in `dir`, with its summarization clips. */
export async function loadVideos(dir: string): Promise<LabelledVideo[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const videos: LabelledVideo[] = [];
  for (const file of files) {
    const video = JSON.parse(await readFile(`${dir}/${file}`, 'utf8')) as {
      segmentation: string[][];
      summarization: Record<
        string,
        {
          is_summarization_sample: boolean;
          summarization_data: { sent: string; label: number }[];
        }
      >;
    };
    const clips = Object.values(video.summarization)
      .filter((clip) => clip.is_summarization_sample)
      .map((clip) => ({
        sentences: clip.summarization_data.map((item) => item.sent),
        labels: clip.summarization_data.map((item) => item.label === 1),
      }));
    videos.push({ file, sentences: video.segmentation.flat(), clips });
  }
  return videos;
}

/** A clip as the model sees it: the features of its sentences (ranking.ts) and their labels. */
export interface TrainingClip {
  features: number[][];
  labels: boolean[];
}

export function trainingClips(clips: LabelledClip[]): TrainingClip[] {
  return clips.map((clip) => ({
    features: runToEnd(sentenceFeatures(clip.sentences)).features,
    labels: clip.labels,
  }));
}

// Weight of the L2 penalty on the standardised weights (a prior of variance 1 per weight): with
// 50,000 training sentences it only keeps collinear features from drifting apart.
const L2 = 1;
const MAX_ITERATIONS = 50;
const CONVERGED = 1e-9;

interface Example {
  /** Standardised feature vectors of a clip's sentences. */
  rows: number[][];
  labels: boolean[];
  positives: number;
}

function meanAndSpread(vectors: number[][]): { mean: number[]; spread: number[] } {
  const d = FEATURES.length;
  const mean = new Array<number>(d).fill(0);
  const spread = new Array<number>(d).fill(0);
  for (const vector of vectors)
    for (let j = 0; j < d; j++) mean[j] = (mean[j] ?? 0) + (vector[j] ?? 0) / vectors.length;
  for (const vector of vectors) {
    for (let j = 0; j < d; j++)
      spread[j] = (spread[j] ?? 0) + ((vector[j] ?? 0) - (mean[j] ?? 0)) ** 2 / vectors.length;
  }
  // A constant feature (spread 0) keeps weight 0 under the penalty; dividing by 1 keeps it finite.
  return { mean, spread: spread.map((variance) => Math.sqrt(variance) || 1) };
}

// Solves A x = b by Gaussian elimination with partial pivoting (A is small and positive definite).
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const rows = matrix.map((row, i) => [...row, vector[i] as number]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(rows[r]?.[col] ?? 0) > Math.abs(rows[pivot]?.[col] ?? 0)) pivot = r;
    }
    [rows[col], rows[pivot]] = [rows[pivot] as number[], rows[col] as number[]];
    const top = rows[col] as number[];
    for (let r = 0; r < n; r++) {
      const row = rows[r] as number[];
      if (r === col) continue;
      const factor = (row[col] as number) / (top[col] as number);
      for (let c = col; c <= n; c++) row[c] = (row[c] as number) - factor * (top[c] as number);
    }
  }
  return rows.map((row, i) => (row[n] as number) / (row[i] as number));
}

// Adds one clip's gradient and Hessian of the log-likelihood at `weights`: a clip with m labelled
// sentences contributes m log-softmax terms.
function accumulate(example: Example, weights: number[], gradient: number[], hessian: number[][]) {
  const d = weights.length;
  const linear = example.rows.map((row) =>
    row.reduce((sum, x, j) => sum + x * (weights[j] ?? 0), 0),
  );
  const top = Math.max(...linear);
  const exps = linear.map((value) => Math.exp(value - top));
  const total = exps.reduce((a, b) => a + b, 0);
  const probabilities = exps.map((value) => value / total);
  const expected = new Array<number>(d).fill(0);
  example.rows.forEach((row, i) => {
    for (let j = 0; j < d; j++)
      expected[j] = (expected[j] ?? 0) + (probabilities[i] ?? 0) * (row[j] ?? 0);
  });
  example.rows.forEach((row, i) => {
    if (example.labels[i])
      for (let j = 0; j < d; j++) gradient[j] = (gradient[j] ?? 0) + (row[j] ?? 0);
    const p = example.positives * (probabilities[i] ?? 0);
    for (let a = 0; a < d; a++) {
      const da = (row[a] ?? 0) - (expected[a] ?? 0);
      const line = hessian[a] as number[];
      for (let b = 0; b < d; b++)
        line[b] = (line[b] ?? 0) + p * da * ((row[b] ?? 0) - (expected[b] ?? 0));
    }
  });
  for (let j = 0; j < d; j++)
    gradient[j] = (gradient[j] ?? 0) - example.positives * (expected[j] ?? 0);
}

/** Fits the ranking's weights to the labelled clips (deterministic). */
export function trainWeights(clips: TrainingClip[]): Weights {
  const { mean, spread } = meanAndSpread(clips.flatMap((clip) => clip.features));
  const examples: Example[] = clips
    .map((clip) => ({
      rows: clip.features.map((vector) =>
        vector.map((x, j) => (x - (mean[j] ?? 0)) / (spread[j] ?? 1)),
      ),
      labels: clip.labels,
      positives: clip.labels.filter(Boolean).length,
    }))
    .filter((example) => example.positives > 0);
  const d = FEATURES.length;
  let weights = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const gradient = weights.map((w) => -L2 * w);
    const hessian = weights.map((_, a) => weights.map((__, b) => (a === b ? L2 : 0)));
    for (const example of examples) accumulate(example, weights, gradient, hessian);
    const step = solve(hessian, gradient);
    weights = weights.map((w, j) => w + (step[j] ?? 0));
    if (Math.max(...step.map(Math.abs)) < CONVERGED) break;
  }
  // Back to the scale of the raw features (the means only shift every score of a clip alike).
  return Object.fromEntries(
    FEATURES.map((name, j) => [name, (weights[j] ?? 0) / (spread[j] ?? 1)]),
  ) as Record<Feature, number>;
}

/** The weights as the `WEIGHTS` constant of ranking.ts, rounded to 3 decimals. */
export function formatWeights(weights: Weights): string {
  const lines = FEATURES.map((name) => `  ${name}: ${Number(weights[name].toFixed(3))},`);
  return ['export const WEIGHTS: Weights = {', ...lines, '};'].join('\n');
}

const SUMMARY_WORDS = 300;

/**
 * The share of the words of 300-word summaries of whole videos (summarizeSentences, with the
 * ranking as it is) that come from labelled sentences, averaged over the videos: what fits
 * SHARPNESS in ranking.ts, which the Top-3 metric cannot see.
 */
export function labelledShare(videos: LabelledVideo[]): number {
  let sum = 0;
  for (const video of videos) {
    const labelled = new Set(
      video.clips.flatMap((clip) => clip.sentences.filter((_, i) => clip.labels[i])),
    );
    const summary = summarizeSentences(video.sentences, SUMMARY_WORDS);
    const picked = video.sentences.filter((sentence) => summary.includes(sentence));
    const words = picked.reduce((n, sentence) => n + countWords(sentence), 0);
    const fromLabelled = picked
      .filter((sentence) => labelled.has(sentence))
      .reduce((n, sentence) => n + countWords(sentence), 0);
    sum += words === 0 ? 0 : fromLabelled / words;
  }
  return videos.length === 0 ? 0 : (100 * sum) / videos.length;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = vtSsumTrainDir();
  if (dir === undefined) {
    console.log(VT_SSUM_TRAIN_MISSING);
  } else {
    const videos = await loadVideos(dir);
    const clips = videos.flatMap((video) => video.clips);
    console.log(`// ${videos.length} videos, ${clips.length} summarization clips from ${dir}`);
    console.log(formatWeights(trainWeights(trainingClips(clips))));
    console.log(
      `// ${SUMMARY_WORDS}-word summaries of these videos with the ranking as it is: ` +
        `${labelledShare(videos).toFixed(1)}% of their words from labelled sentences`,
    );
  }
}
