// The [m:ss] marks of a model's answer, checked against the real Computerphile transcript: kept
// and rewritten where a caption near the time says the sentence, dropped otherwise.
import { describe, expect, it } from 'vitest';
import { checkCitations, MAX_CITATIONS, withoutMarks } from '../../../lib/ask/citations';
import { isNotInVideo } from '../../../lib/ask/prompt';
import { countedString } from '../../support/counted-string';
import { loadSharedTranscript } from '../../support/transcripts';

const transcript = loadSharedTranscript();
const VIDEO = 'py5byOOHZM8';
const check = (answer: string) => checkCitations(answer, VIDEO, transcript);
// "ok, Now using Brais's analogy, we were talking about house prices." starts at 1:56.52.
const HOUSE_PRICES = 116.52;

describe('checkCitations', () => {
  it('moves a mark to the caption that says its sentence, and links this video there', () => {
    const checked = check("Brais's analogy was about house prices [2:10].");

    expect(checked.answer).toBe("Brais's analogy was about house prices [1:56].");
    expect(checked.citations).toEqual([
      {
        text: expect.stringMatching(/^ok, Now using Brais's analogy/),
        start_seconds: HOUSE_PRICES,
        url: `https://www.youtube.com/watch?v=${VIDEO}&t=116s`,
      },
    ]);
  });

  it('reads a mark that opens its sentence, and several times in one mark', () => {
    const opening = check("[2:00] Brais's analogy was about house prices.");
    const several = check("Brais's analogy was about house prices [1:50, 59:00, 2:00].");

    expect(opening.citations.map((c) => c.start_seconds)).toEqual([HOUSE_PRICES]);
    expect(opening.answer).toBe("[1:56] Brais's analogy was about house prices.");
    // 59:00 is past the video's end; the two others are the same caption.
    expect(several.answer).toBe("Brais's analogy was about house prices [1:56].");
    expect(several.citations).toHaveLength(1);
  });

  it('drops marks no caption near them bears out, and times that are no times', () => {
    const checked = check(
      'Bananas are the main export of Ecuador [1:56]. House prices [12:00]. See [99:99] and [1:62].',
    );

    expect(checked.citations).toEqual([]);
    expect(checked.answer).toBe('Bananas are the main export of Ecuador. House prices. See and.');
  });

  it.each([
    ['four parts', '[1:00:00:00]'],
    ['one digit of seconds', '[0:4]'],
    ['Arabic-Indic digits', '[١:٢٣]'],
    ['Eastern Arabic digits', '[۱:۲۳]'],
    ['Devanagari digits', '[१:२३]'],
    ['fullwidth digits and colon', '[１：２３]'],
    ['fullwidth brackets', '［1:56］'],
    ['mathematical bold digits', '[𝟏:𝟓𝟔]'],
    ['a ratio sign for the colon', '[1∶56]'],
    ['a look-alike beside a time no caption bears out', '[١:٥٦, 59:00]'],
  ])(
    'drops a look-alike time (%s) as a mark: it never becomes a citation, nor stays',
    (_, mark) => {
      const checked = check(`Brais's analogy was about house prices ${mark}. It ends.`);

      expect(checked.citations).toEqual([]);
      expect(checked.answer).toBe("Brais's analogy was about house prices. It ends.");
    },
  );

  it('keeps a true mark beside a look-alike in the same brackets, and reads a range as two times', () => {
    const beside = check("Brais's analogy was about house prices [0:4, 2:00].");
    const range = check("Brais's analogy was about house prices [1:50-2:00].");

    expect(beside.answer).toBe("Brais's analogy was about house prices [1:56].");
    expect(beside.citations.map((c) => c.start_seconds)).toEqual([HOUSE_PRICES]);
    expect(range.answer).toBe("Brais's analogy was about house prices [1:56].");
  });

  it('takes every mark, true or look-alike, out of quoted captions', () => {
    expect(withoutMarks('the kernel [1:23] slides [0:4] over [١:٢٣] the image [x].')).toBe(
      'the kernel slides over the image [x].',
    );
    expect(withoutMarks('no marks here [1] at 1:23')).toBe('no marks here [1] at 1:23');
  });

  it('leaves brackets that are not marks alone', () => {
    const text =
      'He says [laughs] that [1] kernel is [a matrix], a ratio of [4:3 or so] and [1.5:2].';

    expect(check(text)).toEqual({ answer: text, citations: [] });
  });

  it(`cites at most ${MAX_CITATIONS} moments, one per caption`, () => {
    const starts = transcript.segments.filter((_, i) => i % 5 === 0).slice(0, 20);
    const answer = starts
      .map((segment) => {
        const seconds = Math.floor(segment.offsetMs / 1000);
        return `${segment.text} [${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}].`;
      })
      .join(' ');

    const { citations } = check(answer);

    expect(citations.length).toBeLessThanOrEqual(MAX_CITATIONS);
    expect(citations.length).toBeGreaterThan(5);
    expect(new Set(citations.map((c) => c.start_seconds)).size).toBe(citations.length);
  });

  // A model's answer is untrusted: these read hostile shapes, check what comes out and count
  // the characters of the answer read (the marks are found by a hand-written scan; the patterns
  // are checked by test/unit/regex-safety.test.ts). About three times the answer's length here.
  const readHostile = (answer: string) => {
    const limit = 4 * answer.length;
    const { text, read } = countedString(answer, limit);
    const checked = check(text);
    expect(read()).toBeLessThanOrEqual(limit);
    return checked;
  };

  it('reads a hostile answer in linear time: 100,000 "[" and a long unpunctuated run', () => {
    const text = `${'['.repeat(100_000)}${' word'.repeat(50_000)}`;

    // Its one mark is borne out by nothing, and dropped.
    expect(readHostile(`${text} [1:56]`)).toEqual({ answer: text, citations: [] });
  });

  it('drops a mark with the spaces before it, after a long run of spaces in its sentence', () => {
    const checked = readHostile(`Bananas grow${' '.repeat(100_000)}x [1:56].`);

    expect(checked).toEqual({ answer: `Bananas grow${' '.repeat(100_000)}x.`, citations: [] });
  });
});

describe('isNotInVideo', () => {
  it.each(['NOT IN VIDEO', '**NOT IN VIDEO**', 'Not in video.', '`NOT IN VIDEO`\n'])(
    'reads %j as "the video does not answer it"',
    (answer) => expect(isNotInVideo(answer)).toBe(true),
  );

  it('does not take an answer that merely mentions it', () => {
    expect(isNotInVideo('Kernels find edges [1:23]. NOT IN VIDEO')).toBe(false);
    expect(isNotInVideo('This is not in video form but text.')).toBe(false);
  });
});
