// The scanner of timed lines (chapters of a description, key points of a model's answer): both
// are untrusted text, so it must read a line in linear time whatever it holds. Counted, not
// timed: the characters it reads of each line, on the shapes that made the patterns it replaced
// retry every split of a long run (issue 19).
import { describe, expect, it } from 'vitest';
import {
  CHAPTER_FORM,
  KEY_POINT_FORM,
  readTimedLine,
  type TimedLineForm,
} from '../../../lib/transcripts/timed-line';
import { countedString } from '../../support/counted-string';

const run = (chars: string) => chars.repeat(Math.ceil(100_000 / chars.length)).slice(0, 100_000);
const forms: [string, TimedLineForm][] = [
  ['a chapter', CHAPTER_FORM],
  ['a key point', KEY_POINT_FORM],
];

describe('readTimedLine', () => {
  it.each([
    ['0:00 Intro', CHAPTER_FORM, { time: '0:00', text: 'Intro' }],
    ['(12:30) - Results', CHAPTER_FORM, { time: '12:30', text: 'Results' }],
    [
      '- **[1:23]** Kernels find edges',
      KEY_POINT_FORM,
      { time: '1:23', text: 'Kernels find edges' },
    ],
    ['12) 1:02:03: Wrap-up  ', KEY_POINT_FORM, { time: '1:02:03', text: 'Wrap-up' }],
    ['- **[1:23]** Kernels', CHAPTER_FORM, undefined],
    ['1:2 Too short', CHAPTER_FORM, undefined],
    ['0:00   ', CHAPTER_FORM, undefined],
  ])('reads %j', (line, form, read) => {
    expect(readTimedLine(line, form)).toEqual(read);
  });

  const lines: [string, string][] = [
    ['spaces', run(' ')],
    ['tabs before a word', `${run('\t')}word`],
    ['a time, then text with spaces inside', `[1:20] x${run(' ')}y`],
    ['a time followed by spaces only', `0:00${run(' ')}`],
    ['a bullet followed by spaces', `-${run(' ')}x`],
    ['stars', run('*')],
    ['digits and colons', run('1:')],
    ['bullets, stars and brackets', run('- **[')],
    ['spaces on both sides of a separator', `- **[1:20]**${run(' ')}-${run(' ')}x`],
  ];
  const cases = lines.flatMap(([shape, line]) =>
    forms.map(([kind, form]) => [`${shape} as ${kind}`, line, form] as const),
  );

  it.each(cases)('reads each character of %s at most twice', (_name, line, form) => {
    // Once by the scan, once more by the slice that is the line's text; a few for short lines.
    const limit = 2 * line.length + 16;
    const { text, read } = countedString(line, limit);

    const result = readTimedLine(text, form);

    expect(result).toEqual(readTimedLine(line, form));
    expect(read()).toBeLessThanOrEqual(limit);
  });
});
