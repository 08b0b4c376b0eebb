// The offline overview of a collection, without a language model: extractive, as the offline
// summaries are. Its summary is sentences of the videos' own summaries, a video at a time in
// turn, each video's sentence that shares most with the other videos first. Its themes are the
// terms the videos' key points share: for each of the most widely shared terms (in the most
// videos, then most often), the key points that say it, cited as they are.
import { termsOf } from '../../transcripts/terms';
import { countWords } from '../../util/words';
import type { SummarizedVideo } from '../driver';
import type { Theme } from '../schemas';
import { citationOf, type NumberedPoint, numberedPoints } from './key-points';

/** Themes an overview has at most, and at least when the key points allow. */
export const THEMES = { min: 3, max: 8 } as const;
/** Key points a theme cites at most. */
const CITATIONS_PER_THEME = 4;

/** The sentences of a text: ends of sentences followed by a space. Linear. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (
      (char === '.' || char === '!' || char === '?') &&
      (text[i + 1] === ' ' || i === text.length - 1)
    ) {
      const sentence = text.slice(start, i + 1).trim();
      if (sentence !== '') sentences.push(sentence);
      start = i + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}

/** In how many of the videos each term occurs. */
function spread(texts: readonly string[][]): Map<string, number> {
  const videosOf = new Map<string, number>();
  for (const video of texts) {
    for (const term of new Set(video.flatMap((text) => termsOf(text)))) {
      videosOf.set(term, (videosOf.get(term) ?? 0) + 1);
    }
  }
  return videosOf;
}

/**
 * About `words` words from the videos' summaries: each video's sentences ranked by the terms
 * they share with other videos, taken a video at a time in turn, then put back in the
 * collection's order (and each video's own).
 */
export function offlineSummary(videos: readonly SummarizedVideo[], words: number): string {
  const sentences = videos.map((video) => sentencesOf(video.summary.summary));
  const shared = spread(sentences);
  const ranked = sentences.map((own) =>
    own
      .map((sentence, index) => {
        const terms = termsOf(sentence);
        const score = terms.reduce((sum, term) => sum + ((shared.get(term) ?? 1) - 1), 0);
        return { index, score: score / Math.sqrt(terms.length + 1) };
      })
      .sort((a, b) => b.score - a.score || a.index - b.index),
  );
  const chosen = sentences.map(() => new Set<number>());
  let used = 0;
  for (let round = 0; used < words; round++) {
    let took = false;
    for (let v = 0; v < videos.length && used < words; v++) {
      const next = ranked[v]?.[round];
      if (next === undefined) continue;
      const sentence = sentences[v]?.[next.index] ?? '';
      const count = countWords(sentence);
      // The first sentence always; later ones only when they stay near the length asked.
      if (used > 0 && used + count > words * 1.1) continue;
      chosen[v]?.add(next.index);
      used += count;
      took = true;
    }
    if (!took) break;
  }
  return sentences.flatMap((own, v) => own.filter((_, index) => chosen[v]?.has(index))).join(' ');
}

/** The word most often written for a term in these texts ("kernels" for "kerne"). */
function surfaceOf(term: string, texts: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}'-]+/u)) {
      if (word !== '' && termsOf(word)[0] === term) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  let best = term;
  let most = 0;
  for (const [word, count] of counts) {
    if (count > most || (count === most && word.length < best.length)) [best, most] = [word, count];
  }
  return best;
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Themes from the terms the key points share: each theme is a term in as many videos as
 * possible, titled by the word most often written for it (and the term that most often goes with
 * it), summarised by its key points' own sentences and citing them. Key points cited by a theme
 * are not cited again unless that leaves fewer than THEMES.min themes; fewer only when there
 * are too few key points.
 */
export function offlineThemes(videos: readonly SummarizedVideo[]): Theme[] {
  const points = numberedPoints(videos);
  const termsByPoint = points.map((point) => new Set(termsOf(point.text)));
  const byTerm = new Map<string, NumberedPoint[]>();
  points.forEach((point, i) => {
    for (const term of termsByPoint[i] ?? [])
      byTerm.set(term, [...(byTerm.get(term) ?? []), point]);
  });
  const reach = (list: readonly NumberedPoint[]) => new Set(list.map((p) => p.videoIndex)).size;
  const candidates = [...byTerm.entries()]
    .filter(([, list]) => list.length >= 2)
    .sort(([a, x], [b, y]) => reach(y) - reach(x) || y.length - x.length || a.localeCompare(b));
  const cited = new Set<number>();
  const themes: Theme[] = [];
  const used = new Set<string>();
  // First themes of key points no theme cites yet; then, while fewer than THEMES.min, themes
  // that may cite a key point again (a few videos with few key points).
  for (const overlap of [false, true]) {
    for (const [term, list] of candidates) {
      if (themes.length >= (overlap ? THEMES.min : THEMES.max)) break;
      if (used.has(term)) continue;
      const fresh = overlap ? list : list.filter((point) => !cited.has(point.n));
      if (fresh.length < 2) continue;
      const chosen = spreadAcrossVideos(fresh).slice(0, CITATIONS_PER_THEME);
      for (const point of chosen) cited.add(point.n);
      used.add(term);
      themes.push(themeOf(term, chosen, termsByPoint, points));
    }
  }
  // Too few shared terms (a few short videos): the videos' first uncited key points, each alone.
  for (const point of points) {
    if (themes.length >= THEMES.min) break;
    if (cited.has(point.n)) continue;
    cited.add(point.n);
    const title = videos[point.videoIndex]?.title ?? '';
    themes.push({ title, summary: point.text, citations: [citationOf(point)] });
  }
  return themes;
}

/** Key points in turn from each video, so that a theme cites as many videos as it can. */
function spreadAcrossVideos(points: readonly NumberedPoint[]): NumberedPoint[] {
  const queues = new Map<number, NumberedPoint[]>();
  for (const point of points)
    queues.set(point.videoIndex, [...(queues.get(point.videoIndex) ?? []), point]);
  const out: NumberedPoint[] = [];
  for (let taken = true; taken; ) {
    taken = false;
    for (const queue of queues.values()) {
      const next = queue.shift();
      if (next) {
        out.push(next);
        taken = true;
      }
    }
  }
  return out;
}

function themeOf(
  term: string,
  chosen: readonly NumberedPoint[],
  termsByPoint: readonly Set<string>[],
  points: readonly NumberedPoint[],
): Theme {
  const texts = chosen.map((point) => point.text);
  // The term that most often goes with this one in its key points names the theme with it.
  const together = new Map<string, number>();
  for (const point of chosen) {
    for (const other of termsByPoint[points.indexOf(point)] ?? []) {
      if (other !== term) together.set(other, (together.get(other) ?? 0) + 1);
    }
  }
  const [second, times] = [...together.entries()].sort(
    ([a, x], [b, y]) => y - x || a.localeCompare(b),
  )[0] ?? ['', 0];
  const title =
    times >= 2
      ? `${capitalised(surfaceOf(term, texts))} and ${surfaceOf(second, texts)}`
      : capitalised(surfaceOf(term, texts));
  return {
    title,
    summary: texts.slice(0, 3).join(' '),
    citations: chosen.map(citationOf),
  };
}
