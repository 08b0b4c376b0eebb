// Offline chapter titles: a name said as a noun in the chapter (never a list of keywords), or the
// opening of its central sentence cut to a few words; on the real Computerphile talk and on
// made-up chapters whose words say what a title should be.
import { describe, expect, it } from 'vitest';
import type { RankedSentence } from '../../../../lib/summaries/chapters/offline';
import { offlineChapters } from '../../../../lib/summaries/chapters/offline';
import { PHRASE_WORDS, titlesOf } from '../../../../lib/summaries/chapters/titles';
import { rankTranscript } from '../../../../lib/summaries/extractive/summarizer';
import { runToEnd } from '../../../../lib/util/cooperative';
import { loadSharedTranscript, transcriptFromLines } from '../../../support/transcripts';

/** The ranked sentences of each chapter, each chapter given as its sentences. */
function ranked(chapters: string[][]): RankedSentence[][] {
  const sentences = runToEnd(rankTranscript(transcriptFromLines(chapters.flat())));
  let at = 0;
  return chapters.map((lines) => {
    const part = sentences.slice(at, at + lines.length);
    at += lines.length;
    return part;
  });
}

/** What every title must be: one capitalised name or phrase of a few words, no list. */
function expectTitle(title: string) {
  expect(title).not.toMatch(/,/);
  expect(title).not.toMatch(/ and /);
  expect(title.replace(/…$/, '').split(/\s+/).length).toBeLessThanOrEqual(PHRASE_WORDS);
  expect(title.charAt(0)).toBe(title.charAt(0).toUpperCase());
}

describe('titlesOf', () => {
  it('titles the real talk’s chapters each by a different name, none a list', () => {
    const transcript = loadSharedTranscript();
    const sentences = runToEnd(rankTranscript(transcript));
    const last = transcript.segments.at(-1);
    const endMs = (last?.offsetMs ?? 0) + (last?.durationMs ?? 0);

    const titles = runToEnd(offlineChapters(sentences, endMs)).list.map((c) => c.title);

    expect(titles.length).toBeGreaterThanOrEqual(2);
    for (const title of titles) expectTitle(title);
    expect(new Set(titles).size).toBe(titles.length);
    // The talk ends on the root tips the speaker's CNN finds.
    expect(titles.at(-1)).toBe('Root tips');
  });

  it('names a chapter by the phrase said in it as a noun, not by an adjective or verb said more', () => {
    const parts = ranked([
      [
        'We solve the linear system with a linear solver in linear time.',
        'The root tips of the plant grow into the soil.',
        'Linear methods solve it again and we solve it fast.',
        'Then we look at the root tips under the microscope.',
        'We solve these linear problems and the root tips show up.',
        'Linear, linear, linear: we solve linear things and solve more linear things.',
        'We solve linear and we solve linear again.',
      ],
      [
        'The telescope points at the planet in its orbit.',
        'Astronomers watch the planet every night with the telescope.',
        'The planet moves and the telescope follows the planet.',
      ],
    ]);

    const titles = titlesOf(parts);

    expect(titles).toEqual(['Root tips', 'Planet']);
  });

  it('titles a chapter that repeats no name by its central sentence’s opening, fillers out', () => {
    const parts = ranked([
      [
        'Um, so honestly the whole afternoon went by far quicker than anybody expected it would.',
        'Yes.',
      ],
    ]);

    const [title] = titlesOf(parts);

    expect(title).toBe('Honestly the whole afternoon went by…');
    expectTitle(title ?? '');
  });
});
