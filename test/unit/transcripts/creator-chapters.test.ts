// The chapters a description lists, read as YouTube reads them.
import { describe, expect, it } from 'vitest';
import { chaptersOfVideo } from '../../../lib/summaries/chapters/chapter';
import { creatorChapters } from '../../../lib/transcripts/creator-chapters';

describe('creatorChapters', () => {
  it('finds the chapters YouTube would: three or more, from 0:00, in order', () => {
    const description = 'Intro text\n0:00 Intro\n(2:15) Kernels\n10:40 - Pooling\n1:02:03 Wrap-up';

    expect(creatorChapters(description)).toEqual([
      { startMs: 0, title: 'Intro' },
      { startMs: 135_000, title: 'Kernels' },
      { startMs: 640_000, title: 'Pooling' },
      { startMs: 3_723_000, title: 'Wrap-up' },
    ]);
  });

  it('keeps titles as written, only the separator after the time trimmed', () => {
    const description =
      '0:00 – Intro: why CNNs\n1:00 | Kernels - and edges\n2:00: Pooling | layers';

    expect(creatorChapters(description).map((chapter) => chapter.title)).toEqual([
      'Intro: why CNNs',
      'Kernels - and edges',
      'Pooling | layers',
    ]);
  });

  it('removes from titles what would hide or reorder them: NUL, ESC, bidi overrides, zero-width', () => {
    const description =
      '0:00 Intro\u0000\u001b[31m red\n1:00 \u202Egnp.exe\n2:00 Zero\u200Bwidth \u2066isolate\u2069 👩‍💻';

    expect(creatorChapters(description).map((chapter) => chapter.title)).toEqual([
      'Intro[31m red',
      'gnp.exe',
      'Zerowidth isolate 👩‍💻',
    ]);
  });

  it('finds none in a description with fewer lines, or not starting at 0:00', () => {
    expect(creatorChapters('0:00 Intro\n2:15 Kernels')).toEqual([]);
    expect(creatorChapters('0:30 Intro\n2:15 Kernels\n4:00 End')).toEqual([]);
  });

  it('finds none when a chapter is shorter than 10 seconds', () => {
    expect(creatorChapters('0:00 Intro\n0:09 Kernels\n4:00 End')).toEqual([]);
    expect(creatorChapters('0:00 Intro\n0:10 Kernels\n4:00 End')).toHaveLength(3);
  });

  it('finds none when the last chapter is shorter than 10 seconds of the video, or past its end', () => {
    const description = '0:00 Intro\n2:00 Kernels\n4:00 End';

    expect(creatorChapters(description, 250_000)).toHaveLength(3);
    expect(creatorChapters(description, 245_000)).toEqual([]);
    expect(creatorChapters(description, 200_000)).toEqual([]);
  });

  it('skips a time that does not follow the one before it, as a list of references would', () => {
    const description = '0:00 Intro\n3:00 Kernels\n1:00 (see the other video)\n6:00 End';

    expect(creatorChapters(description).map((chapter) => chapter.title)).toEqual([
      'Intro',
      'Kernels',
      'End',
    ]);
  });

  it('keeps the first of two chapters at the same time, as times must increase', () => {
    const description = '0:00 Intro\n2:00 Kernels\n2:00 Kernels, again\n4:00 End';

    expect(creatorChapters(description)).toEqual([
      { startMs: 0, title: 'Intro' },
      { startMs: 120_000, title: 'Kernels' },
      { startMs: 240_000, title: 'End' },
    ]);
  });
});

describe('chaptersOfVideo', () => {
  const description = '0:00 Intro\n1:00 Kernels\n2:00 End';

  it('gives a video under five minutes none, though its description lists some', () => {
    expect(creatorChapters(description, 299_000)).toHaveLength(3);
    expect(chaptersOfVideo(description, 299_000)).toEqual([]);
  });

  it('gives a video of five minutes or more the creator’s', () => {
    expect(chaptersOfVideo(description, 300_000)).toEqual(creatorChapters(description, 300_000));
    expect(chaptersOfVideo(description, 300_000)).toHaveLength(3);
  });
});
