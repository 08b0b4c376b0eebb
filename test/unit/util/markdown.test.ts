// Copy as Markdown with hostile texts (web/markdown.ts's summaryMarkdown): what
// an uploader or a model wrote is rendered by marked, a GFM parser that passes raw HTML through
// and links bare URLs (as GitHub and many notes apps do), and must come out as the very text it
// was, with no link but YouTube's, no HTML of its own, no heading, list, code or emphasis.
import { describe, expect, it } from 'vitest';
import { markdownLink, markdownParagraphs, markdownText } from '../../../lib/util/markdown';
import type { Summary } from '../../../web/api';
import { summaryMarkdown } from '../../../web/markdown';
import { paragraphsOf } from '../../../web/text';
import { clock } from '../../../web/times';
import {
  contentsOf,
  oneLine,
  renderMarkdown as render,
  tagsOf,
  targetsOf,
  visibleText as visible,
} from '../../support/markdown';

/** What uploaders and injected models write to get out of their text. */
const HOSTILE = [
  'Evil](javascript:alert(1)) <img src=x onerror=alert(1)>\n# Owned',
  'Evil\\](javascript:alert(1))',
  'a trailing backslash \\',
  '[click](https://evil.example/x) and [ref][1]\n\n[1]: https://evil.example/ref',
  '![tracker](https://evil.example/pixel.png)',
  '<script>alert(1)</script><!-- hidden -->',
  '<https://evil.example/auto> and <a@evil.example>',
  'visit https://evil.example/bare, WWW.evil.example or mail a@evil.example',
  'HTTPS://EVIL.EXAMPLE/shout',
  '`code` and ``` fence ``` and ~~~',
  '*em* _em_ **strong** ~~gone~~ snake_case_name',
  '&lt;img src=x onerror=alert(1)&gt; &#106;avascript: &amp;',
  '# heading',
  '## heading',
  '- item',
  '+ item',
  '* item',
  '1. item',
  '2) item',
  '> quote',
  '---',
  '===',
  '    indented code',
  '\tindented code',
  '| a | b |\n|---|---|\n| c | d |',
  'setext heading\n===',
  'line\u2028separator\u2029and\rreturns\u0085next',
  'Tom & Jerry (2024) 100% [live] at 1:21!',
];

describe('markdownText', () => {
  it.each(HOSTILE)('renders %j as that very text, in one paragraph', (text) => {
    const html = render(markdownText(text));
    expect(tagsOf(html)).toEqual(['p']);
    expect(visible(html).trim()).toBe(oneLine(text));
  });

  it.each(HOSTILE)('renders %j as that text after other text on a line', (text) => {
    const html = render(`Before ${markdownText(text)}`);
    expect(tagsOf(html)).toEqual(['p']);
    expect(visible(html).trim()).toBe(`Before ${oneLine(text)}`);
  });

  it('leaves plain words alone', () => {
    expect(markdownText('A talk about CNNs, part 2 (of 3).')).toBe(
      'A talk about CNNs, part 2 (of 3).',
    );
  });
});

describe('markdownParagraphs', () => {
  it('keeps paragraphs and renders each hostile line as its text', () => {
    const text = HOSTILE.join('\n\n');
    const html = render(markdownParagraphs(paragraphsOf(text)));
    const paragraphs = contentsOf(html, 'p');
    expect(new Set(tagsOf(html))).toEqual(new Set(['p']));
    expect(paragraphs.map((p) => visible(p).split('\n').join(' '))).toEqual(
      paragraphsOf(text).map((paragraph) =>
        paragraph
          .split('\n')
          .map(oneLine)
          .filter((line) => line !== '')
          .join(' '),
      ),
    );
  });
});

describe('markdownLink', () => {
  it('links pages of YouTube, with the text escaped', () => {
    const html = render(
      markdownLink('A [great] talk', 'https://www.youtube.com/watch?v=abc&t=81s'),
    );
    expect(targetsOf(html)).toEqual(['https://www.youtube.com/watch?v=abc&amp;t=81s']);
    expect(visible(html).trim()).toBe('A [great] talk');
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)//https://www.youtube.com/',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/watch?v=abc',
    'http://www.youtube.com/watch?v=abc',
    'https://www.youtube.com.evil.example/watch',
    'https://www.youtube.com@evil.example/',
    'https://user:pass@www.youtube.com/watch',
    '//www.youtube.com/watch',
    'not a url',
  ])('writes the text alone for %j', (url) => {
    const html = render(markdownLink('1:21', url));
    expect(targetsOf(html)).toEqual([]);
    expect(visible(html).trim()).toBe('1:21');
  });

  it('percent-encodes what would end or break the destination', () => {
    const url = 'https://www.youtube.com/watch?v=a)(b [c] <d>\\e"f`g';
    const html = render(markdownLink('moment', url));
    const [href] = targetsOf(html);
    expect(targetsOf(html)).toHaveLength(1);
    expect(href).toBe('https://www.youtube.com/watch?v=a%29%28b%20%5Bc%5D%20%3Cd%3E%5Ce%22f%60g');
    expect(visible(html).trim()).toBe('moment');
  });

  it.each([
    '![tracker](https://evil.example/pixel.png)',
    '[click](https://evil.example/x)',
    'a ![b](c) and [d](e)',
  ])('keeps a link or image written in its text as text: %j', (text) => {
    const html = render(markdownLink(`4:00 ${text}`, 'https://www.youtube.com/watch?v=abc'));
    expect(tagsOf(html)).toEqual(['p', 'a']);
    expect(targetsOf(html)).toEqual(['https://www.youtube.com/watch?v=abc']);
    expect(visible(html).trim()).toBe(`4:00 ${text}`);
  });

  it('shows the link itself when the text is empty', () => {
    const html = render(markdownLink(' \n', 'https://www.youtube.com/watch?v=abc'));
    expect(visible(html).trim()).toBe('https://www.youtube.com/watch?v=abc');
  });
});

describe('summaryMarkdown with hostile texts', () => {
  const hostile = (i: number) => HOSTILE[i % HOSTILE.length] as string;
  const summary = {
    summary: HOSTILE.join('\n\n'),
    word_count: 120,
    key_points: HOSTILE.map((text, i) => ({
      text,
      start_seconds: 60 + i,
      url:
        i % 3 === 0
          ? `javascript:alert(${i})`
          : `https://www.youtube.com/watch?v=py5byOOHZM8&t=${60 + i}s`,
    })),
    metadata: {
      video_id: 'py5byOOHZM8',
      title: hostile(0),
      channel_title: hostile(8),
    },
  } as unknown as Summary;

  it('has one heading of its own, one list, and links only to YouTube', () => {
    const html = render(summaryMarkdown(summary));
    const tags = tagsOf(html);
    expect(new Set(tags)).toEqual(new Set(['h1', 'a', 'p', 'h2', 'ul', 'li']));
    expect(tags.filter((tag) => tag === 'h1')).toHaveLength(1);
    expect(tags.filter((tag) => tag === 'h2')).toHaveLength(1);
    expect(tags.filter((tag) => tag === 'ul')).toHaveLength(1);
    expect(tags.filter((tag) => tag === 'li')).toHaveLength(HOSTILE.length);
    for (const target of targetsOf(html)) {
      expect(target).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=py5byOOHZM8(&amp;t=\d+s)?$/);
    }
    // The title and every key point that has a YouTube link.
    expect(targetsOf(html)).toHaveLength(1 + HOSTILE.filter((_, i) => i % 3 !== 0).length);
  });

  it('shows the title, channel and key points as they were written', () => {
    const html = render(summaryMarkdown(summary));
    expect(contentsOf(html, 'h1').map(visible)).toEqual([oneLine(hostile(0))]);
    const byline = /<\/h1>\s*<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    expect(visible(byline)).toBe(`${oneLine(hostile(8))} · summary of 120 words`);
    const items = contentsOf(html, 'li').map(visible);
    expect(items).toEqual(HOSTILE.map((text, i) => `${clock(60 + i)} ${oneLine(text)}`));
  });

  it('shows chapters’ titles and summaries as written, linked only to YouTube', () => {
    const chapters = HOSTILE.map((text, i) => ({
      start_seconds: 60 * i,
      end_seconds: 60 * (i + 1),
      title: text,
      summary: hostile(i + 5),
      url:
        i % 4 === 1
          ? `https://evil.example/watch?v=py5byOOHZM8&t=${60 * i}s`
          : `https://www.youtube.com/watch?v=py5byOOHZM8&t=${60 * i}s`,
    }));
    const html = render(summaryMarkdown({ ...summary, key_points: [], chapters }));

    const tags = tagsOf(html);
    expect(new Set(tags)).toEqual(new Set(['h1', 'a', 'p', 'h2', 'ul', 'li']));
    expect(contentsOf(html, 'h2')).toEqual(['Chapters']);
    expect(tags.filter((tag) => tag === 'li')).toHaveLength(HOSTILE.length);
    // Each as written (spaces around a title's words may collapse: it follows the time).
    const spaced = (text: string) => text.replace(/\s+/g, ' ');
    expect(contentsOf(html, 'li').map((item) => spaced(visible(item)))).toEqual(
      chapters.map((chapter) =>
        spaced(
          `${clock(chapter.start_seconds)} ${oneLine(chapter.title)}: ${oneLine(chapter.summary)}`,
        ),
      ),
    );
    for (const target of targetsOf(html)) {
      expect(target).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=py5byOOHZM8(&amp;t=\d+s)?$/);
    }
    expect(targetsOf(html)).toHaveLength(1 + chapters.filter((_, i) => i % 4 !== 1).length);
  });
});
