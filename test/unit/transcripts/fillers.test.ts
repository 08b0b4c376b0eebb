// Discourse fillers, on sentences of the real Computerphile transcript (test/fixtures): what
// opens a sentence as speech goes, and so do the hesitations inside it and the "you know" set
// off by commas; no other word ever changes.
import { describe, expect, it } from 'vitest';
import { summarizeSentences } from '../../../lib/summaries/extractive/selection';
import { splitTranscript } from '../../../lib/summaries/extractive/sentences';
import { stripLeadingFillers, withoutFillers } from '../../../lib/transcripts/fillers';
import { onlyFillersDropped } from '../../support/fillers';
import { loadSharedTranscript } from '../../support/transcripts';

const sentences = splitTranscript(loadSharedTranscript());
/** A sentence of the transcript that starts with `opening` (it must be there). */
const said = (opening: string) => {
  const sentence = sentences.find((s) => s.startsWith(opening));
  if (!sentence) throw new Error(`no sentence of the transcript starts with "${opening}"`);
  return sentence;
};

describe('stripLeadingFillers', () => {
  it.each([
    ['Ok, so let', "Let's talk about CNN works."],
    ['Ok, so, this will be something like', 'This will be something like number of bedrooms'],
    ['So watch that video first', 'Watch that video first.'],
    ['Um, and so let', "Let's say we have 60 of those, or 64 of those."],
    ['Uh, right, and so on', 'And so on and so forth, and then finally at the end'],
    ['And these are fully connected', 'These are fully connected, so we have'],
    ['So, you know, let', "Let's not reinvent the wheel."],
    ['Well, look, given that', 'Look, given that'],
    ['Ok, now, for images', 'For images, which is obviously'],
    ['Uh, well, certainly', 'Certainly to a human face'],
  ])('takes the fillers off "%s…"', (opening, kept) => {
    expect(stripLeadingFillers(said(opening))).toMatch(
      new RegExp(`^${kept.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it.each([
    'Now what this house price is, is a complicated function of these inputs.',
    'But it, but that',
    'Now the problem is that',
    'And so on and then I work my way back',
  ])('leaves "%s…" as it is: its opening is not a filler', (opening) => {
    const sentence = said(opening);

    expect(stripLeadingFillers(sentence)).toBe(sentence);
  });

  it('keeps a sentence that is nothing but fillers', () => {
    expect(stripLeadingFillers('Ok, so, um.')).toBe('Ok, so, um.');
    expect(stripLeadingFillers('So yeah.')).toBe('So yeah.');
  });

  it('never changes a word: every sentence of the transcript ends as it did', () => {
    let stripped = 0;
    for (const sentence of sentences) {
      const result = stripLeadingFillers(sentence);
      if (result !== sentence) stripped++;
      // What is left is the sentence's own ending, only its first letter capitalised.
      expect(sentence.endsWith(result.slice(1)), sentence).toBe(true);
      expect(result.charAt(0)).toBe(result.charAt(0).toUpperCase());
    }
    expect(stripped).toBeGreaterThan(30);
  });
});

describe('withoutFillers', () => {
  it.each([
    ['This, the CNN that I trained, um, is', 'This, the CNN that I trained is 98% accurate.'],
    [
      "And it's probably gonna be finding, um, you know",
      "It's probably gonna be finding weird shapes on my face",
    ],
    ["It's, you know, it's not", "It's not a great likeness but I'll stick by it."],
    ['That is quite a smart way', "obviously quite difficult, it's smart because"],
    ["So that's the kernel convolutions", 'and things like sobel op- Yeah, Sobel operations'],
    ['So as a researcher, I mean', 'As a researcher much as I'],
  ])('takes the fillers out of "%s…"', (opening, kept) => {
    const sentence = said(opening);
    const shown = withoutFillers(sentence);

    expect(shown).toContain(kept);
    expect(shown).not.toMatch(/\b(?:um|uh)\b|, you know,|, I mean,/i);
  });

  it.each([
    'I like it, and you know the answer already.',
    'You know the answer is three.',
    'What I mean is that the kernel slides.',
    'It is 10 mm thick, like a coin.',
    'UH is a university in Texas, they said.',
  ])('leaves "%s" as it is: no filler in it', (sentence) => {
    expect(withoutFillers(sentence)).toBe(sentence);
  });

  it('closes the sentence where a filler ended it, and keeps a comma it stood before', () => {
    expect(withoutFillers('It is hard, you know.')).toBe('It is hard.');
    expect(withoutFillers('It is hard um, and slow.')).toBe('It is hard, and slow.');
    expect(withoutFillers('Kernels, uh find edges.')).toBe('Kernels, find edges.');
    expect(withoutFillers('the, um, the kernel slides')).toBe('The kernel slides');
  });

  it('keeps a sentence that is nothing but fillers', () => {
    expect(withoutFillers('Um, uh, you know.')).toBe('Um, uh, you know.');
  });

  it('only ever takes filler words out: every sentence of the transcript keeps the rest in order', () => {
    let changed = 0;
    for (const sentence of sentences) {
      const shown = withoutFillers(sentence);
      expect(onlyFillersDropped(sentence, shown), `${sentence}\n${shown}`).toBe(true);
      if (/\b(?:um|uh)\b/i.test(sentence.slice(1)) && shown !== sentence) changed++;
    }
    expect(changed).toBeGreaterThan(5);
  });
});

describe('the extractive summary', () => {
  it('opens none of its sentences with a filler, and says none inside them', () => {
    const summary = summarizeSentences(sentences, 300);
    const starts = summary.match(/(?:^|[.!?] )(\w+)/g) ?? [];

    expect(starts.length).toBeGreaterThan(5);
    // "And so on" stays: it is a phrase, not a filler.
    expect(summary).not.toMatch(
      /(?:^|[.!?] )(?:Ok|Okay|So|Um|Uh|Right|And(?! so (?:on|forth))),? /,
    );
    expect(summary).not.toMatch(/\b(?:um|uh)\b|, you know,|, I mean,/i);
  });
});
