// A summary as Markdown (web/markdown.ts).
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../../web/api';
import { summaryMarkdown } from '../../../web/markdown';

describe('summaryMarkdown', () => {
  const summary = {
    summary: 'First paragraph.\n\nSecond one.',
    word_count: 4,
    key_points: [
      {
        text: 'The point',
        start_seconds: 81.2,
        url: 'https://www.youtube.com/watch?v=py5byOOHZM8&t=81s',
      },
    ],
    metadata: { video_id: 'py5byOOHZM8', title: 'A [great] talk', channel_title: 'Someone' },
  } as unknown as Summary;

  it('links the title and every key point to its moment', () => {
    expect(summaryMarkdown(summary)).toBe(
      [
        '# [A \\[great\\] talk](https://www.youtube.com/watch?v=py5byOOHZM8)',
        '',
        'Someone · summary of 4 words',
        '',
        'First paragraph.\n\nSecond one.',
        '',
        '## Key points',
        '',
        '- [1:21](https://www.youtube.com/watch?v=py5byOOHZM8&t=81s) The point',
        '',
      ].join('\n'),
    );
  });

  it('leaves out the key points heading when there are none', () => {
    expect(summaryMarkdown({ ...summary, key_points: [] })).not.toContain('Key points');
  });

  it('lists the chapters under the summary, each a link to its start with what it says', () => {
    const chapters = [
      {
        start_seconds: 0,
        end_seconds: 150,
        title: 'Intro [part 1]',
        summary: 'Why deep learning matters.',
        url: 'https://www.youtube.com/watch?v=py5byOOHZM8&t=0s',
      },
      {
        start_seconds: 3725.4,
        end_seconds: 4000,
        title: 'Kernels',
        summary: 'A kernel slides over the image.',
        url: 'https://www.youtube.com/watch?v=py5byOOHZM8&t=3725s',
      },
    ];

    const markdown = summaryMarkdown({ ...summary, chapters });

    expect(markdown).toContain(
      [
        'Second one.',
        '',
        '## Chapters',
        '',
        '- [0:00 Intro \\[part 1\\]](https://www.youtube.com/watch?v=py5byOOHZM8&t=0s): Why deep learning matters.',
        '- [1:02:05 Kernels](https://www.youtube.com/watch?v=py5byOOHZM8&t=3725s): A kernel slides over the image.',
        '',
        '## Key points',
      ].join('\n'),
    );
  });

  it('leaves out the chapters heading when there are none', () => {
    expect(summaryMarkdown({ ...summary, chapters: [] })).not.toContain('Chapters');
  });
});
