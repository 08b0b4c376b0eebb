// Key points as models write them: read leniently, and kept only where the transcript bears
// them out (the real Computerphile transcript and its caption timings).
import { describe, expect, it } from 'vitest';
import { keyPointCount, parseAnswer } from '../../../lib/summaries/key-points';
import { anchorKeyPoints, keyPointUrl } from '../../../lib/transcripts/anchors';
import { creatorChapters } from '../../../lib/transcripts/creator-chapters';
import { formatTimestamp, parseTimestamp } from '../../../lib/transcripts/timed-line';
import { loadSharedTranscript } from '../../support/transcripts';

const transcript = loadSharedTranscript();
const captionAt = (ms: number) => transcript.segments.find((s) => s.offsetMs === ms)?.text;

describe('parseAnswer', () => {
  it('reads the asked-for form', () => {
    const parsed = parseAnswer(
      'SUMMARY:\nCNNs learn kernels.\nThey pool.\nKEY POINTS:\n[1:20] Kernels find edges.\n[12:05] Pooling shrinks images.',
    );

    expect(parsed).toEqual({
      summary: 'CNNs learn kernels. They pool.',
      keyPoints: [
        { text: 'Kernels find edges.', atMs: 80_000 },
        { text: 'Pooling shrinks images.', atMs: 725_000 },
      ],
    });
  });

  it('reads the markdown dressings models add: bold or hash headings, bullets, numbers, bold times', () => {
    const parsed = parseAnswer(
      '## Summary\nCNNs learn kernels.\n\n**Key points:**\n- **[1:20]** Kernels find edges.\n2. (1:02:03) - Wrap-up',
    );

    expect(parsed.summary).toBe('CNNs learn kernels.');
    expect(parsed.keyPoints).toEqual([
      { text: 'Kernels find edges.', atMs: 80_000 },
      { text: 'Wrap-up', atMs: 3_723_000 },
    ]);
  });

  it('takes timestamped lines that end an answer without the heading as key points', () => {
    const parsed = parseAnswer('CNNs learn kernels.\n[1:20] Kernels find edges.');

    expect(parsed).toEqual({
      summary: 'CNNs learn kernels.',
      keyPoints: [{ text: 'Kernels find edges.', atMs: 80_000 }],
    });
  });

  it('keeps plain prose whole as the summary, with no key points', () => {
    const prose = 'Convolutional networks learn their kernels. At 1:20 he draws one.';

    expect(parseAnswer(prose)).toEqual({ summary: prose, keyPoints: [] });
  });

  it('strips a summary heading or label, never the first word of a summary that begins "Summary"', () => {
    expect(parseAnswer('Summary statistics describe the data.').summary).toBe(
      'Summary statistics describe the data.',
    );
    expect(parseAnswer('Summarising a video is hard.').summary).toBe(
      'Summarising a video is hard.',
    );
    expect(parseAnswer('SUMMARY: CNNs learn kernels.').summary).toBe('CNNs learn kernels.');
    expect(parseAnswer('**Summary:** CNNs learn kernels.').summary).toBe('CNNs learn kernels.');
    expect(parseAnswer('## Summary\nCNNs learn kernels.').summary).toBe('CNNs learn kernels.');
    expect(parseAnswer('Summary\nCNNs learn kernels.').summary).toBe('CNNs learn kernels.');
  });

  it('skips key point lines without a valid time', () => {
    const parsed = parseAnswer('SUMMARY:\nText.\nKEY POINTS:\n[1:75] Bad seconds.\nNo time here.');

    expect(parsed.keyPoints).toEqual([]);
    expect(parsed.summary).toBe('Text.');
  });
});

// Model answers and video descriptions are untrusted: a line of 100,000 spaces (or another shape
// that makes a backtracking pattern retry every split of a run) must not hold the event loop.
// The patterns issue 19 replaced took 10-45 s per shape, and hours for some. That
// they are linear is checked without a stopwatch: the patterns by test/unit/regex-safety.test.ts,
// the timed-line scanner by counting what it reads (timed-line.test.ts). Here: what each reads as.
describe('reading untrusted text', () => {
  const run = (chars: string) => chars.repeat(Math.ceil(100_000 / chars.length)).slice(0, 100_000);
  const all = (text: string) => ({ summary: text, keyPoints: [] });
  const shapes: [string, string, ReturnType<typeof parseAnswer>][] = [
    ['a line of spaces between two lines', `Text.\n${run(' ')}\nMore.`, all('Text. More.')],
    ['a line of tabs before a word', `Text.\n${run('\t')}word`, all('Text. word')],
    [
      'a key point with spaces inside its text',
      `Text.\n[1:20] x${run(' ')}y`,
      { summary: 'Text.', keyPoints: [{ text: `x${run(' ')}y`, atMs: 80_000 }] },
    ],
    ['a time followed by spaces only', `Text.\n0:00${run(' ')}\nEnd.`, all('Text. 0:00 End.')],
    ['a bullet followed by spaces', `Text.\n-${run(' ')}x`, all('Text. - x')],
    ['a heading split by spaces', `Text.\nKEY${run(' ')}POINTS`, all('Text.')],
    ['a summary label split by spaces', `Summary${run(' ')}:x`, all('x')],
    [
      'a summary heading followed by spaces and stars',
      `Summary${run(' *')}x`,
      all(`Summary${run(' *')}x`),
    ],
    [
      'a key point heading followed by spaces',
      `Text.\nKEY POINTS${run(' ')}x`,
      all('Text. KEY POINTS x'),
    ],
    ['a line of stars', run('*'), all(run('*'))],
    ['a run of digits and colons', `Text.\n${run('1:')}`, all(`Text. ${run('1:')}`)],
    // Its last line is a time without text, so the lines before it are no key points either.
    ['many short timed lines', run('0:00 a\n'), all(run('0:00 a\n').replaceAll('\n', ' ').trim())],
  ];

  it.each(shapes)(
    'reads %s (100,000 characters), and finds no chapters in it',
    (_, text, parsed) => {
      const windows = text.replaceAll('\n', '\r\n');

      expect(parseAnswer(text)).toEqual(parsed);
      expect(creatorChapters(text)).toEqual([]);
      expect(creatorChapters(windows)).toEqual([]);
    },
  );

  it('still reads what these shapes say: a point keeps its text, spaces and all', () => {
    const parsed = parseAnswer(`SUMMARY:\nText.\nKEY POINTS:\n[1:20] x${' '.repeat(5)}y`);

    expect(parsed.keyPoints).toEqual([{ text: `x${' '.repeat(5)}y`, atMs: 80_000 }]);
  });
});

describe('anchorKeyPoints', () => {
  it('moves a point to the start of the caption that says it, near the time given', () => {
    const [point] = anchorKeyPoints(
      [{ text: 'Sobel operations are used for edge detection.', atMs: 80_000 }],
      transcript,
    );

    expect(point?.startMs).toBe(81_200);
    expect(captionAt(81_200)).toContain('Sobel operations');
  });

  it('drops points at moments the video does not have, or that no caption near them says', () => {
    const anchored = anchorKeyPoints(
      [
        { text: 'Aliens built the pyramids.', atMs: 2_700_000 },
        { text: 'The weather in Paris was lovely.', atMs: 120_000 },
        { text: 'Gaussian blurs smooth photographs.', atMs: 600_000 },
      ],
      transcript,
    );

    expect(anchored).toEqual([]);
  });

  it('keeps one point per caption, in video order', () => {
    const anchored = anchorKeyPoints(
      [
        { text: 'House prices are a complicated function of the inputs.', atMs: 145_000 },
        { text: 'Sobel operations do edge detection.', atMs: 80_000 },
        { text: 'Sobel edge detection operations.', atMs: 81_000 },
      ],
      transcript,
    );

    expect(anchored.map((point) => point.startMs)).toEqual([81_200, 142_480]);
    expect(captionAt(142_480)).toContain('house price');
  });
});

describe('key point helpers', () => {
  it('asks for one key point per 50 words, from 3 to 10', () => {
    expect([25, 150, 200, 400, 2_000].map(keyPointCount)).toEqual([3, 3, 4, 8, 10]);
  });

  it('links to the second of the video', () => {
    expect(keyPointUrl('py5byOOHZM8', 81_200)).toBe(
      'https://www.youtube.com/watch?v=py5byOOHZM8&t=81s',
    );
  });

  it('writes and reads times as YouTube does', () => {
    expect([0, 59_999, 81_200, 3_723_000].map(formatTimestamp)).toEqual([
      '0:00',
      '0:59',
      '1:21',
      '1:02:03',
    ]);
    expect(['1:21', '01:21', '1:02:03', '75:00'].map(parseTimestamp)).toEqual([
      81_000, 81_000, 3_723_000, 4_500_000,
    ]);
    expect(['1:75', '1:60:00', '12', 'a:bc', ''].map(parseTimestamp)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
