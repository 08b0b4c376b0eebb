import { describe, expect, it } from 'vitest';
import type { SummarizedVideo } from '../../../lib/collections/driver';
import { numberedPoints } from '../../../lib/collections/overview/key-points';
import { parseOverview } from '../../../lib/collections/overview/model';
import {
  offlineSummary,
  offlineThemes,
  sentencesOf,
} from '../../../lib/collections/overview/offline';

function video(id: string, summary: string, points: [string, number][]): SummarizedVideo {
  return {
    videoId: id,
    title: `Video ${id}`,
    summary: {
      summary,
      word_count: summary.split(' ').length,
      key_points: points.map(([text, at]) => ({
        text,
        start_seconds: at,
        url: `https://www.youtube.com/watch?v=${id}&t=${Math.floor(at)}s`,
      })),
    } as unknown as SummarizedVideo['summary'],
  };
}

const videos = [
  video('aaaaaaaaaaa', 'Kernels slide over images. Cats are cute. Pooling shrinks feature maps.', [
    ['A kernel slides over the image to find edges.', 12.5],
    ['Pooling shrinks the feature maps.', 80],
  ]),
  video('bbbbbbbbbbb', 'Training needs gradients. Kernels learn edge detectors. Dogs bark.', [
    ['Each kernel learns an edge detector during training.', 30],
    ['Gradients flow back through the pooling layers.', 95.25],
  ]),
  video('ccccccccccc', 'Gradients update the kernels. Pooling keeps the strongest activation.', [
    ['Gradients update every kernel a little.', 5],
    ['Pooling keeps the strongest activation.', 44],
  ]),
];

describe('the offline overview', () => {
  it('splits sentences at their ends only', () => {
    expect(sentencesOf('One. Two! Three? Four 3.5 five')).toEqual([
      'One.',
      'Two!',
      'Three?',
      'Four 3.5 five',
    ]);
  });

  it('takes sentences the videos share from every video, within the length asked', () => {
    const summary = offlineSummary(videos, 14);

    expect(summary).toContain('Kernels');
    expect(summary).not.toContain('Cats are cute');
    expect(summary).not.toContain('Dogs bark');
    expect(summary.split(' ').length).toBeLessThanOrEqual(16);
  });

  it('makes themes of the terms key points share, citing those key points as they are', () => {
    const themes = offlineThemes(videos);

    expect(themes.length).toBeGreaterThanOrEqual(3);
    const kernel = themes.find((theme) => /^Kernel/.test(theme.title));
    expect(kernel?.citations.map((c) => c.video_id)).toEqual([
      'aaaaaaaaaaa',
      'bbbbbbbbbbb',
      'ccccccccccc',
    ]);
    const cited = themes.flatMap((theme) => theme.citations);
    // The first two themes share no key point; the third (to reach three) may.
    const [one, two] = themes.map((theme) => theme.citations.map((c) => c.url));
    expect(one?.filter((url) => two?.includes(url))).toEqual([]);
    expect(cited).toContainEqual({
      video_id: 'bbbbbbbbbbb',
      text: 'Gradients flow back through the pooling layers.',
      start_seconds: 95.25,
      url: 'https://www.youtube.com/watch?v=bbbbbbbbbbb&t=95s',
    });
  });
});

describe("a model's overview", () => {
  it('cites only the key points its marks name, and drops marks that name none', () => {
    const answer = [
      '**SUMMARY:** Three videos on networks [K1].',
      '',
      'THEME: Kernels',
      'Kernels find edges [K1] and learn them [K3]. They are updated [K5] [K99].',
      '## THEME 2: Pooling',
      'Pooling shrinks maps [K2].',
      'THEME:',
      'no title',
    ].join('\n');

    const parsed = parseOverview(answer, numberedPoints(videos));

    expect(parsed.summary).toBe('Three videos on networks.');
    expect(parsed.themes.map((theme) => theme.title)).toEqual(['Kernels', 'Pooling']);
    expect(parsed.themes[0]?.summary).toBe('Kernels find edges and learn them. They are updated.');
    expect(parsed.themes[0]?.citations.map((c) => [c.video_id, c.start_seconds])).toEqual([
      ['aaaaaaaaaaa', 12.5],
      ['bbbbbbbbbbb', 30],
      ['ccccccccccc', 5],
    ]);
    expect(parsed.themes[1]?.citations.map((c) => c.start_seconds)).toEqual([80]);
  });
});
