// Markdown the service writes for people: the page's Copy as Markdown, and what the MCP tools
// say before their JSON. Every text in it comes from elsewhere: titles,
// channel names and captions from a video's uploader, summaries and key points from a model
// that may have read an injection in them. Wherever the Markdown is pasted (GitHub, a notes app
// that passes HTML through), each text must read as the words it is: no link, image, raw HTML,
// heading, list or code of its own. Links go to YouTube only.
//
// Hand-written: the small escapers (markdown-escape, @descope/escape-markdown) leave the
// backslash itself unescaped (a title ending in `\` then closes the link around it), pass line
// breaks through (a new line can start a heading) and leave GFM's bare-URL links; gfm-escape,
// which handles them, weighs more than this whole page. test/unit/util/markdown.test.ts renders
// hostile texts with a GFM parser that passes HTML through, to show nothing gets out.

/** Where the page links: the video, and its moments, on YouTube. */
const LINKABLE_ORIGIN = 'https://www.youtube.com';

/** Line breaks of every kind: a text of one line stays one line (no heading, list, table). */
const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029]+/g;

/**
 * Marks that format wherever they stand: `\` (first, so the escapes added are not escaped
 * again), code, emphasis, strikethrough, link brackets, table cells.
 */
const INLINE_MARKS = /[\\`*_~[\]|]/g;

/** Marks that format only at the start of a line: headings, lists, setext underlines. */
const LINE_START = /^(?:([#+=-])|(\d{1,9})([.)]))/;

/**
 * One line of text as Markdown that renders as exactly that text: line breaks become spaces,
 * marks are backslash-escaped, `<` and `>` (raw HTML, autolinks) become entities (which every
 * Markdown reads; not every one reads `\<`), and GFM's bare links (`https://…`, `www.…`) are
 * broken so they stay text. Safe at the start of a line and inside a link's text.
 */
export function markdownText(text: string): string {
  return text
    .replace(LINE_BREAKS, ' ')
    .trim()
    .replace(INLINE_MARKS, '\\$&')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/@/g, '\\@')
    .replace(LINE_START, (_, mark: string | undefined, digits: string, end: string) =>
      mark === undefined ? `${digits}\\${end}` : `\\${mark}`,
    );
}

/**
 * Paragraphs (as paragraphsOf reads a summary) as Markdown paragraphs: each line escaped as
 * markdownText does, blank lines between the paragraphs.
 */
export function markdownParagraphs(paragraphs: readonly string[]): string {
  return paragraphs
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map(markdownText)
        .filter((line) => line !== '')
        .join('\n'),
    )
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/**
 * A link with this text to a page of YouTube; anything else (another site, `javascript:`, a
 * URL that does not parse) is the text alone. Characters that would end or break a link's
 * destination (parentheses, brackets, spaces, `<`, `>`, `\`) are percent-encoded. In the text,
 * parentheses are escaped too: marked (and parsers like it) read a link's text again, and there
 * took `\[x\](y)` for a link of its own or `!\[x\](y)` for an image (a chapter's title is a link's
 * text).
 */
export function markdownLink(text: string, url: string): string {
  const target = linkTarget(url);
  const label = markdownText(text).replace(/[()]/g, '\\$&');
  if (target === undefined) return label;
  return `[${label === '' ? markdownText(target) : label}](${target})`;
}

function linkTarget(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.origin !== LINKABLE_ORIGIN || parsed.username !== '' || parsed.password !== '') {
    return undefined;
  }
  // href is ASCII (the URL parser percent-encodes the rest): two hex digits each.
  return parsed.href.replace(
    /[^\w\-.~:/?#@!$&'*+,;=%]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
