// Trains the sentence ranking's weights (WEIGHTS in lib/summaries/extractive/ranking.ts) on VT-SSum's
// training videos, never on its dev videos, which bench/quality.ts scores the result on:
//   VT_SSUM_TRAIN_DIR=../shared/fixtures/vt-ssum-train npx tsx bench/tune-ranking.ts
// writes the word table of the 'cues' feature to lib/summaries/extractive/cue-words.ts, prints the weights
// to paste into ranking.ts (it reproduces both), then how well the summarizer's selection does
// with the ranking as it is (see SHARPNESS there). The weights are trained on cross-fitted
// 'cues' values (see crossFitted). The model is a
// conditional logit: within each summarization clip, the probability that a sentence is one of
// the labelled ones is the softmax of weights · features over the clip's sentences, so only a
// sentence's standing within its own clip counts, as in the Top-3 metric; each clip weighs the
// same (see accumulate). Fitted by Newton's method with a small L2 penalty; the likelihood is
// concave, so there is one answer.
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sentenceTokens } from '../lib/summaries/extractive/content-words';
import {
  type CueWords,
  cueScore,
  FEATURES,
  type Feature,
  sentenceFeatures,
} from '../lib/summaries/extractive/features';
import type { Weights } from '../lib/summaries/extractive/ranking';
import { summarizeSentences } from '../lib/summaries/extractive/selection';
import { withoutFillers } from '../lib/transcripts/fillers';
import { runToEnd } from '../lib/util/cooperative';
import { countWords } from '../lib/util/words';

/**
 * A folder of VT-SSum videos: the one `variable` names, else the team's copy of the split beside
 * the repository (../shared/fixtures/vt-ssum-<split>); undefined when this machine has neither.
 */
export function vtSsumFolder(variable: string, split: 'train' | 'dev'): string | undefined {
  const team = fileURLToPath(new URL(`../../shared/fixtures/vt-ssum-${split}`, import.meta.url));
  const dir = process.env[variable] ?? team;
  return existsSync(dir) ? dir : undefined;
}

/** Where the 400 VT-SSum training videos are, or undefined. */
export const vtSsumTrainDir = () => vtSsumFolder('VT_SSUM_TRAIN_DIR', 'train');

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

/**
 * A clip as the model sees it: the features of its sentences (ranking.ts) and their labels, and
 * its sentences' tokens, which the 'cues' feature is the mean word weight of.
 */
export interface TrainingClip {
  features: number[][];
  labels: boolean[];
  tokens: string[][];
}

const CUES = FEATURES.indexOf('cues');

/** The clips' features, 'cues' left at 0 until withCueWords gives it a word table. */
export function trainingClips(clips: LabelledClip[]): TrainingClip[] {
  const none: CueWords = new Map();
  return clips.map((clip) => ({
    features: runToEnd(sentenceFeatures(clip.sentences, none)).features,
    labels: clip.labels,
    tokens: clip.sentences.map(sentenceTokens),
  }));
}

/** The clips with their 'cues' feature computed from the word table `cues`. */
export function withCueWords(clips: TrainingClip[], cues: CueWords): TrainingClip[] {
  return clips.map((clip) => ({
    ...clip,
    features: clip.features.map((vector, i) =>
      vector.map((x, j) => (j === CUES ? cueScore(clip.tokens[i] ?? [], cues) : x)),
    ),
  }));
}

// The word table of the 'cues' feature. A word's weight is the log-odds that one of its
// occurrences is in a labelled sentence, less that of any token, with CUE_PRIOR occurrences at
// the overall rate added to its counts (a rare word's weight shrinks towards 0); the CUE_WORDS
// words with the largest |weight| · √occurrences are kept, weights rounded to CUE_STEP, so that
// cue-words.ts stays small (under 15 KB). In 5-fold cross-validation over the train videos,
// 1000 words did 0.1-0.2 of Top-3 F1 worse, 3000 about as well; stopwords only (style, not
// topic) and sums instead of means worse too (see the note above WEIGHTS in ranking.ts).
const CUE_PRIOR = 20;
const CUE_WORDS = 1500;
const CUE_STEP = 0.05;

// Only words used in at least this share of the videos: cues of how lecturers talk, not the
// subjects of 400 particular lectures ("cars", "canada" and a lecturer's name had weights without
// it). Train cross-validation: 44.54 at 5%, 44.59 with every word, 44.28 at 10%.
const CUE_MIN_VIDEOS = 0.05;

/** The 'cues' word table estimated on the labels of the videos' clips (deterministic). */
export function buildCueWords(videos: TrainingClip[][]): Map<string, number> {
  const labelled = new Map<string, number>();
  const occurrences = new Map<string, number>();
  const videoCount = new Map<string, number>();
  for (const clips of videos) {
    const seen = new Set(clips.flatMap((clip) => clip.tokens.flat()));
    for (const word of seen) videoCount.set(word, (videoCount.get(word) ?? 0) + 1);
  }
  const minVideos = CUE_MIN_VIDEOS * videos.length;
  let labelledTotal = 0;
  let total = 0;
  for (const clip of videos.flat()) {
    clip.tokens.forEach((tokens, i) => {
      const label = clip.labels[i] ? 1 : 0;
      for (const token of tokens) {
        occurrences.set(token, (occurrences.get(token) ?? 0) + 1);
        labelled.set(token, (labelled.get(token) ?? 0) + label);
      }
      labelledTotal += label * tokens.length;
      total += tokens.length;
    });
  }
  if (labelledTotal === 0 || labelledTotal === total) return new Map();
  const rate = labelledTotal / total;
  const logit = (p: number) => Math.log(p / (1 - p));
  const common = [...occurrences].filter(([word]) => (videoCount.get(word) ?? 0) >= minVideos);
  const words = common.map(([word, count]) => {
    const smoothed = ((labelled.get(word) ?? 0) + CUE_PRIOR * rate) / (count + CUE_PRIOR);
    const weight = logit(smoothed) - logit(rate);
    return { word, weight, key: Math.abs(weight) * Math.sqrt(count) };
  });
  words.sort((a, b) => b.key - a.key || (a.word < b.word ? -1 : 1));
  const table = new Map<string, number>();
  for (const { word, weight } of words.slice(0, CUE_WORDS)) {
    const rounded = Number((Math.round(weight / CUE_STEP) * CUE_STEP).toFixed(2));
    if (rounded !== 0) table.set(word, rounded);
  }
  return table;
}

export const CUE_FOLDS = 5;

/**
 * The clips of every video (clips[v] those of video v) with their 'cues' feature cross-fitted:
 * computed with a word table built from the other videos only (video v in fold v mod CUE_FOLDS),
 * so that the weight trained for it is that of a table meeting new lectures, not the ones it was
 * estimated on (with the table of all the clips the weight comes out too large and held-out
 * Top-3 F1 falls by 0.2).
 */
export function crossFitted(videos: TrainingClip[][]): TrainingClip[] {
  const fitted: TrainingClip[][] = videos.map(() => []);
  for (let fold = 0; fold < CUE_FOLDS; fold++) {
    const cues = buildCueWords(videos.filter((_, v) => v % CUE_FOLDS !== fold));
    videos.forEach((clips, v) => {
      if (v % CUE_FOLDS === fold) fitted[v] = withCueWords(clips, cues);
    });
  }
  return fitted.flat();
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
// Hand-written: an 11 x 11 solve for a bench script does not warrant a numerics dependency.
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
// sentences contributes the mean of its m log-softmax terms, so that every clip weighs the same,
// as in the metric (Top-3 precision and recall are averaged over clips). Summing them instead,
// which lets clips with many labelled sentences weigh more, gave 44.54 in train cross-validation
// (this: 44.73, better in 4 of the 5 folds) and 45.37 on dev (this: 45.34).
function accumulate(example: Example, weights: number[], gradient: number[], hessian: number[][]) {
  const share = 1 / example.positives;
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
      for (let j = 0; j < d; j++) gradient[j] = (gradient[j] ?? 0) + share * (row[j] ?? 0);
    const p = probabilities[i] ?? 0;
    for (let a = 0; a < d; a++) {
      const da = (row[a] ?? 0) - (expected[a] ?? 0);
      const line = hessian[a] as number[];
      for (let b = 0; b < d; b++)
        line[b] = (line[b] ?? 0) + p * da * ((row[b] ?? 0) - (expected[b] ?? 0));
    }
  });
  for (let j = 0; j < d; j++) gradient[j] = (gradient[j] ?? 0) - (expected[j] ?? 0);
}

/** Fits the ranking's weights to the labelled clips (deterministic). */
export function trainWeights(clips: Pick<TrainingClip, 'features' | 'labels'>[]): Weights {
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

/** Where the generated word table of the 'cues' feature goes. */
const CUE_WORDS_FILE = fileURLToPath(
  new URL('../lib/summaries/extractive/cue-words.ts', import.meta.url),
);

/** cue-words.ts for the word table `cues`, estimated on `videos` videos from `source`. */
export function formatCueWords(cues: CueWords, videos: number, source: string): string {
  const byWeight = new Map<number, string[]>();
  for (const [word, weight] of cues) byWeight.set(weight, [...(byWeight.get(weight) ?? []), word]);
  const lines = [...byWeight]
    .sort(([a], [b]) => a - b)
    .map(([weight, words]) => {
      // Words in alphabetical order, on one line with their weight if it fits in 100 columns,
      // else on lines of their own of at most 90 (the layout biome's formatter keeps).
      const line = `  [${weight}, \`${words.sort().join(' ')}\`],`;
      if (line.length <= 100) return line;
      const wrapped: string[] = [];
      for (const word of words) {
        const last = wrapped.length - 1;
        if (last >= 0 && (wrapped[last] ?? '').length + word.length < 90) {
          wrapped[last] += ` ${word}`;
        } else {
          wrapped.push(word);
        }
      }
      return `  [\n    ${weight},\n    \`${wrapped.join('\n    ')}\`,\n  ],`;
    });
  return [
    '// Generated by bench/tune-ranking.ts; do not edit. Regenerate with `npx tsx bench/tune-ranking.ts`',
    `// (VT-SSum train videos in VT_SSUM_TRAIN_DIR). The word table of ranking.ts's 'cues' feature,`,
    `// from the summarization clips of ${videos} VT-SSum train videos (${source}): per word,`,
    '// the shrunk log-odds that an occurrence of it is in a labelled sentence, relative to all',
    `// tokens, for words used in at least ${CUE_MIN_VIDEOS * 100}% of the videos (buildCueWords there);`,
    `// ${cues.size} words, by weight.`,
    'const BY_WEIGHT: [number, string][] = [',
    ...lines,
    '];',
    '',
    'export const CUE_WORDS: ReadonlyMap<string, number> = new Map(',
    '  BY_WEIGHT.flatMap(([weight, words]) => words.split(/\\s+/).map((word) => [word, weight] as const)),',
    ');',
    '',
  ].join('\n');
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
    // The summary shows its sentences without their fillers.
    const picked = video.sentences.filter((sentence) => summary.includes(withoutFillers(sentence)));
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
    const training = videos.map((video) => trainingClips(video.clips));
    const cues = buildCueWords(training);
    await writeFile(CUE_WORDS_FILE, formatCueWords(cues, videos.length, 'vt-ssum-train'));
    console.log(`// wrote the ${cues.size} words of the 'cues' feature to ${CUE_WORDS_FILE}`);
    console.log(formatWeights(trainWeights(crossFitted(training))));
    console.log(
      `// ${SUMMARY_WORDS}-word summaries of these videos with the ranking as it is: ` +
        `${labelledShare(videos).toFixed(1)}% of their words from labelled sentences`,
    );
  }
}
