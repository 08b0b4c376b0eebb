import { describe, expect, it } from 'vitest';
import {
  buildCueWords,
  crossFitted,
  type TrainingClip,
  trainingClips,
  trainWeights,
} from '../../../../bench/tune-ranking';
import { sentenceTokens } from '../../../../lib/summaries/extractive/content-words';
import { cueScore, FEATURES } from '../../../../lib/summaries/extractive/features';
import {
  analyse,
  rankSentences,
  scoreFeatures,
} from '../../../../lib/summaries/extractive/ranking';
import { runToEnd } from '../../../../lib/util/cooperative';
import { loadSharedTranscript } from '../../../support/transcripts';

const CONTENT = [
  'Convolutional neural networks learn image features directly from labelled training data.',
  'Each convolution layer of the network detects edges and corners in the image.',
  'Pooling layers shrink the feature maps so that deeper layers see more of the image.',
];

describe('rankSentences', () => {
  it('ranks sentences with content above filler and one-word exclamations, wherever they are', () => {
    const filler = [
      'Yeah, okay, so, um, right.',
      'Brilliant!',
      'You know, I mean, it is what it is.',
    ];
    // Filler first (where the lead bonus is largest), between the content, and last.
    const sentences = [
      filler[0],
      CONTENT[0],
      filler[1],
      CONTENT[1],
      CONTENT[2],
      filler[2],
    ] as string[];

    const scores = rankSentences(sentences);

    const lowestContent = Math.min(scores[1] ?? 0, scores[3] ?? 0, scores[4] ?? 0);
    const highestFiller = Math.max(scores[0] ?? 0, scores[2] ?? 0, scores[5] ?? 0);
    expect(lowestContent).toBeGreaterThan(highestFiller);
  });

  it('ranks a sentence on the text’s topic above an off-topic one of the same shape', () => {
    // Same length, same function words, same mean word length: only the topic differs. The
    // off-topic one comes first, where the lead bonus is (slightly) larger.
    const onTopic = 'Each convolution layer of the network detects edges in the image.';
    const offTopic = 'Each apricot orchard of the village grows peaches in the valleys.';
    const topic = [
      ...CONTENT,
      'A convolution slides a small kernel over the image and sums the products.',
      'The network stacks many convolution layers, each on the output of the last.',
      'Early layers respond to edges, later layers to whole objects in the image.',
      'Training adjusts each kernel of the network so that its features help classify images.',
    ];
    const sentences = [...topic.slice(0, 4), offTopic, onTopic, ...topic.slice(4)];

    const scores = rankSentences(sentences);

    expect(scores[5]).toBeGreaterThan(scores[4] as number);
  });

  it('gives one finite, non-negative score per sentence, the best one 1', () => {
    const sentences = [
      ...loadSharedTranscript().segments.map((segment) => segment.text),
      '',
      '...',
      '♪ ♪',
      `${'a'.repeat(5_000)}.`,
      '42 42 42 42 42 42.',
    ];

    const scores = rankSentences(sentences);

    expect(scores).toHaveLength(sentences.length);
    for (const score of scores) {
      expect(Number.isFinite(score)).toBe(true);
      expect(score).toBeGreaterThanOrEqual(0);
    }
    expect(Math.max(...scores)).toBe(1);
  });

  it('returns no scores and no terms for no sentences', () => {
    expect(rankSentences([])).toEqual([]);
    expect(runToEnd(analyse([]))).toEqual({ terms: [], scores: [] });
  });
});

describe('analyse', () => {
  it('yields about once per sentence and scores as rankSentences does', () => {
    const sentences = loadSharedTranscript().segments.map((segment) => segment.text);
    const steps = analyse(sentences);
    let yields = 0;
    let step = steps.next();
    while (!step.done) {
      yields++;
      step = steps.next();
    }

    expect(yields).toBeGreaterThanOrEqual(sentences.length);
    expect(yields).toBeLessThanOrEqual(2 * sentences.length);
    expect(step.value.scores).toEqual(rankSentences(sentences));
  });

  it('gives the distinct content-word stems of each sentence, without stopwords or fillers', () => {
    const { terms } = runToEnd(
      analyse(['The networks learn, and yeah, the network learned it.', 'Um, okay, right.']),
    );

    expect(terms[0]).toHaveLength(new Set(terms[0]).size);
    expect(terms[0]).toEqual(expect.arrayContaining(['network', 'learn']));
    expect(terms[0]).toHaveLength(2);
    expect(terms[1]).toEqual([]);
  });
});

describe('trainWeights (bench/tune-ranking.ts)', () => {
  it('learns the weight of the one feature the labels follow, and ranks by it', () => {
    // 200 clips of 8 sentences; the labelled sentence of each is the one most central; every
    // other feature is noise. Deterministic pseudo-random values.
    let seed = 7;
    const next = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const central = FEATURES.indexOf('centrality');
    const clips = Array.from({ length: 200 }, () => {
      const features = Array.from({ length: 8 }, () => FEATURES.map(() => next()));
      const best = Math.max(...features.map((vector) => vector[central] ?? 0));
      return { features, labels: features.map((vector) => vector[central] === best) };
    });

    const weights = trainWeights(clips);

    const others = FEATURES.filter((name) => name !== 'centrality');
    expect(weights.centrality).toBeGreaterThan(5);
    for (const name of others) expect(Math.abs(weights[name])).toBeLessThan(weights.centrality / 3);
    const clip = clips[0] as (typeof clips)[number];
    const scores = scoreFeatures(clip.features, weights);
    expect(clip.labels[scores.indexOf(Math.max(...scores))]).toBe(true);
  });
});

describe('the cues feature', () => {
  it('is the mean weight of a sentence’s tokens, stopwords included, 0 for no tokens', () => {
    const cues = new Map([
      ['um', -1],
      ['algorithm', 0.5],
    ]);

    expect(cueScore(sentenceTokens('Um, the algorithm, um.'), cues)).toBeCloseTo(-1.5 / 4);
    expect(cueScore([], cues)).toBe(0);
  });

  it('counts chatty words against a sentence and lecture words for it, as shipped', () => {
    expect(cueScore(sentenceTokens('Yeah, um, I think you know, okay?'))).toBeLessThan(0);
    expect(cueScore(sentenceTokens('The model learns a function of the data.'))).toBeGreaterThan(0);
  });
});

describe('buildCueWords and crossFitted (bench/tune-ranking.ts)', () => {
  // 50 videos of 4 clips: the labelled sentence says "theorem", the others "yeah"; "the" is in
  // all of them.
  const videos = Array.from({ length: 50 }, () =>
    trainingClips(
      Array.from({ length: 4 }, () => ({
        sentences: ['Yeah the end.', 'The theorem holds.', 'Yeah the cat.'],
        labels: [false, true, false],
      })),
    ),
  );

  it('weighs words by how much more often they are in labelled sentences', () => {
    const cues = buildCueWords(videos);

    expect(cues.get('theorem')).toBeGreaterThan(0.5);
    expect(cues.get('yeah')).toBeLessThan(-0.5);
    expect(Math.abs(cues.get('the') ?? 0)).toBeLessThan(0.1);
  });

  it('leaves out the words of too few videos: one lecture’s subject is no cue', () => {
    // Video 0 says "zebra" in every labelled sentence, as often as the others say "theorem".
    const zebra = trainingClips(
      Array.from({ length: 40 }, () => ({
        sentences: ['Yeah the end.', 'The zebra theorem holds.', 'Yeah the cat.'],
        labels: [false, true, false],
      })),
    );

    const cues = buildCueWords([zebra, ...videos.slice(1)]);

    expect(cues.get('theorem')).toBeGreaterThan(0.5);
    expect(cues.has('zebra')).toBe(false);
  });

  it('gives each video cues from a table built without its own labels', () => {
    const cues = FEATURES.indexOf('cues');
    const flipped = videos.map((clips, v) =>
      v === 0
        ? clips.map((clip): TrainingClip => ({ ...clip, labels: [true, false, false] }))
        : clips,
    );

    const fitted = crossFitted(videos);
    const fittedFlipped = crossFitted(flipped);

    const column = (clips: TrainingClip[]) =>
      clips.slice(0, 4).map((clip) => clip.features.map((vector) => vector[cues]));
    expect(column(fittedFlipped)).toEqual(column(fitted));
    expect(fitted[0]?.features[1]?.[cues]).toBeGreaterThan(0);
  });
});
