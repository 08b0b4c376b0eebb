// Markdown as a reader sees it once pasted: rendered by marked, a GFM parser that passes raw HTML
// through and links bare URLs (as GitHub and many notes apps do), then read back as the elements
// it made, the links it holds and the text it shows. For the tests of Copy as Markdown.
import { Marked } from 'marked';

const gfm = new Marked({ gfm: true, async: false });

/** The HTML a GFM renderer makes of `markdown`. */
export const renderMarkdown = (markdown: string) => gfm.parse(markdown) as string;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** The text a reader sees in rendered HTML: tags dropped, entities decoded. */
export const visibleText = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+|#39);/gi, (entity, name: string) => {
      if (name in ENTITIES) return ENTITIES[name] as string;
      if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return entity;
    });

/** The elements the HTML opens, by name, in order. */
export const tagsOf = (html: string) =>
  [...html.matchAll(/<([a-z][a-z0-9-]*)/gi)].map((match) => match[1]);

/** Every href and src in the HTML. */
export const targetsOf = (html: string) =>
  [...html.matchAll(/\b(?:href|src)="([^"]*)"/gi)].map((match) => match[1] as string);

/** The content of each element `tag` of the HTML, in order. */
export const contentsOf = (html: string, tag: string) =>
  [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(
    (match) => match[1] as string,
  );

/** A text as one line of Markdown shows it: line breaks of every kind as spaces, trimmed. */
export const oneLine = (text: string) => text.replace(/[\n\v\f\r\u0085\u2028\u2029]+/g, ' ').trim();
