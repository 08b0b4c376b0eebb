// Retrieval over the real Computerphile transcript: passages of consecutive captions, BM25+
// over their terms, and the rule that says a passage answers a question.
import { describe, expect, it } from 'vitest';
import { answeringPassages, passagesOf, searchPassages } from '../../../lib/ask/passages';
import { loadSharedTranscript, transcriptFromLines } from '../../support/transcripts';

const transcript = loadSharedTranscript();
const passages = passagesOf(transcript);

describe('passagesOf', () => {
  it('puts every caption in one passage, in order, each starting at its first caption', () => {
    const starts = new Set(transcript.segments.map((segment) => segment.offsetMs));

    expect(passages.map((passage) => passage.text).join(' ')).toBe(
      transcript.segments.map((segment) => segment.text.trim()).join(' '),
    );
    for (const [i, passage] of passages.entries()) {
      expect(passage.index).toBe(i);
      expect(starts.has(passage.startMs)).toBe(true);
      if (i > 0) expect(passage.startMs).toBeGreaterThan(passages[i - 1]?.startMs ?? 0);
    }
  });

  it('makes passages of a few sentences: 40 words or more, closed at a sentence end, 80 at most', () => {
    const words = passages.map((passage) => passage.text.split(/\s+/).length);

    // The last passage takes what is left; a caption is never cut.
    for (const count of words.slice(0, -1)) expect(count).toBeGreaterThanOrEqual(40);
    const longestCaption = Math.max(...transcript.segments.map((s) => s.text.split(/\s+/).length));
    for (const count of words) expect(count).toBeLessThan(80 + longestCaption);
  });

  it('cuts captions without punctuation (automatic ones) by length', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `word${i} and some more words here`);
    const cut = passagesOf(transcriptFromLines(lines, true));

    expect(cut.length).toBeGreaterThan(1);
    for (const passage of cut.slice(0, -1)) {
      expect(passage.text.split(/\s+/).length).toBeLessThanOrEqual(84);
    }
  });
});

describe('searchPassages and answeringPassages', () => {
  it('ranks the passages about kernel convolutions as Sobel edge detectors first', () => {
    const search = searchPassages(passages, 'How do kernel convolutions find edges, like Sobel?');
    const found = answeringPassages(search);

    expect(search.terms).toEqual(['kerne', 'convo', 'find', 'edge', 'sobel']);
    expect(found[0]?.passage.text).toMatch(/kernel convolution.*Sobel edge detector/);
    expect(found.map((match) => match.passage.text).join(' ')).toMatch(
      /Sobel operations, Gaussian blurs/,
    );
    expect(found.length).toBeLessThanOrEqual(3);
    for (const match of found) expect(match.matched).toBeGreaterThanOrEqual(3);
  });

  it('matches across word forms: plurals and endings', () => {
    const search = searchPassages(passages, 'convolution kernel');

    expect(search.matches[0]?.passage.text).toMatch(/kernel convolutions?/i);
  });

  it('finds no answer for a question on something else, or with no term to look for', () => {
    expect(answeringPassages(searchPassages(passages, 'What is the capital of France?'))).toEqual(
      [],
    );
    const empty = searchPassages(passages, 'What is it? Why?');
    expect(empty).toEqual({ terms: [], matches: [] });
    expect(answeringPassages(empty)).toEqual([]);
  });

  it('needs half of the question’s terms in a passage: one stray word does not answer it', () => {
    // "network" is all over the video; bananas, mangoes and pineapples are not.
    const search = searchPassages(passages, 'Do bananas, mangoes and pineapples need a network?');

    expect(search.matches.length).toBeGreaterThan(0);
    expect(answeringPassages(search)).toEqual([]);
  });

  it('keeps three-letter terms: acronyms are what questions ask about', () => {
    const found = answeringPassages(searchPassages(passages, 'CNN?'));

    expect(found.length).toBeGreaterThan(0);
    for (const match of found) expect(match.passage.text).toMatch(/CNN/);
  });
});
