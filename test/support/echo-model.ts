// What the local model stubs (Bedrock, OpenAI-compatible) answer by default: a deterministic
// "summary" (or answer to a question) made of the data the prompt carries, so tests can tell
// what reached the model, in the answer form the prompt asks for (lib/summaries/llm/prompt.ts,
// lib/ask/prompt.ts).

/** What a stub knows of a request: the system prompt and the last user message. */
export interface EchoRequest {
  system: string;
  userText: string;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);
// A transcript mark or a key point time: "[1:23]", "[1:02:03]".
const STAMP = /\[(?:\d{1,2}:)?\d{1,3}:\d{2}\]/g;

/**
 * The data of the prompt: after "Transcript:", "Transcript passages:" or "Part summaries:" inside
 * the marker block that has one (an ask's prompt has the question's block first).
 */
function dataOf(request: EchoRequest): string {
  const blocks = [...request.userText.matchAll(/<([A-Za-z][\w-]*)>\n?([\s\S]*?)<\/\1>/g)];
  const heading = /^(?:Transcript|Transcript passages|Part summaries):$/m;
  const block = blocks.find((found) => heading.test(found[2] ?? '')) ?? blocks[0];
  let data = block ? (block[2] ?? '') : request.userText;
  const found = heading.exec(data);
  if (found) data = data.slice(found.index + found[0].length);
  return data;
}

/**
 * The summary: the first N words of the data, where N is the number in the first "about N
 * words" of the system prompt (else of the user text, else 50), without part labels, key point
 * headings and time marks.
 */
export function echoSummary(request: EchoRequest): string {
  const target =
    /about (\d+) words/.exec(request.system) ?? /about (\d+) words/.exec(request.userText);
  const count = target ? Number(target[1]) : 50;
  const data = dataOf(request)
    .replace(/^\[Part \d+\]$/gm, '')
    .replace(/^Key points:$/gm, '')
    .replace(STAMP, '');
  return words(data).slice(0, count).join(' ');
}

/**
 * The key points: for each of the first K time marks of the data (K from "at most K key
 * points"), that mark and the eight words after it. Real moments of the transcript, so the
 * service keeps them.
 */
export function echoKeyPoints(request: EchoRequest): string[] {
  const wanted = /at most (\d+) key points/.exec(request.system);
  if (!wanted) return [];
  const data = dataOf(request);
  const points: string[] = [];
  for (const match of data.matchAll(/(\[(?:\d{1,2}:)?\d{1,3}:\d{2}\])([^[\n]*)/g)) {
    const text = words((match[2] ?? '').replace(STAMP, ''))
      .slice(0, 8)
      .join(' ');
    if (text !== '') points.push(`${match[1]} ${text}`);
    if (points.length >= Number(wanted[1])) break;
  }
  return points;
}

/** Whether the request asks a question about the video (POST /ask) rather than a summary. */
const isAsk = (request: EchoRequest) =>
  /^You answer questions about YouTube videos/.test(request.system);

/**
 * The answer to a question: for each of the first two time marks of the data, the ten words
 * after it followed by that mark, as a sentence. Real moments of the transcript, so the service
 * keeps them as citations.
 */
export function echoAsk(request: EchoRequest): string {
  const sentences: string[] = [];
  for (const match of dataOf(request).matchAll(/(\[(?:\d{1,2}:)?\d{1,3}:\d{2}\])([^[\n]*)/g)) {
    const text = words((match[2] ?? '').replace(STAMP, ''))
      .slice(0, 10)
      .join(' ');
    if (text !== '') sentences.push(`${text} ${match[1]}.`);
    if (sentences.length >= 2) break;
  }
  return sentences.join(' ');
}

const seconds = (time: string) =>
  time
    .split(':')
    .map(Number)
    .reduce((total, part) => total * 60 + part, 0);

/** The time marks of the data and the words after each (up to the next mark). */
function marksOf(request: EchoRequest): { time: string; words: string[] }[] {
  return [...dataOf(request).matchAll(/\[((?:\d{1,2}:)?\d{1,3}:\d{2})\]([^[]*)/g)].map((match) => ({
    time: match[1] ?? '',
    words: words((match[2] ?? '').replace(/^Key points:$/gm, '')),
  }));
}

/**
 * The chapters asked for, two lines each (`[m:ss] Title`, then what it says): to make about N of
 * them, N of the data's time marks spread evenly, titled by the four words after the mark and
 * summarised by the twelve after those; to summarise the creator's chapters, each one listed
 * under "Chapters:" in the range asked, with the twelve words after the first mark at or after
 * its time. Real moments of the transcript, so the service keeps them.
 */
export function echoChapters(request: EchoRequest): string[] {
  const marks = marksOf(request).filter((mark) => mark.words.length > 0);
  const make = /into about (\d+) chapters/.exec(request.system);
  if (make) {
    const count = Math.min(Number(make[1]), marks.length);
    return Array.from({ length: count }, (_, i) => {
      const mark = marks[Math.floor((i * marks.length) / count)] ?? { time: '0:00', words: [] };
      return [
        `[${mark.time}] ${mark.words.slice(0, 4).join(' ')}`,
        `${mark.words.slice(4, 16).join(' ')}.`,
      ];
    }).flat();
  }
  if (!/The creator divided the video into/.test(request.system)) return [];
  const range = /at \[([\d:]+)\] or later, before \[([\d:]+)\]/.exec(request.system);
  const from = range ? seconds(range[1] ?? '0:00') : 0;
  const to = range ? seconds(range[2] ?? '0:00') : Number.POSITIVE_INFINITY;
  const listed = /\nChapters:\n([\s\S]*?)\n(?:Transcript|Part summaries):/.exec(request.userText);
  const lines: string[] = [];
  for (const line of (listed?.[1] ?? '').split('\n')) {
    const chapter = /^\[([\d:]+)\] (.*)$/.exec(line);
    const at = chapter ? seconds(chapter[1] ?? '') : -1;
    if (!chapter || at < from || at >= to) continue;
    const said = marks.find((mark) => seconds(mark.time) >= at) ?? marks.at(-1);
    lines.push(line, `${(said?.words ?? []).slice(0, 12).join(' ')}.`);
  }
  return lines;
}

/**
 * The whole answer: to a question, echoAsk; else the summary alone, or the SUMMARY / KEY POINTS
 * / CHAPTERS form when key points or chapters are asked for.
 */
export function echoAnswer(request: EchoRequest): string {
  if (/^You write an overview of a collection/.test(request.system)) return echoOverview(request);
  if (/^You answer questions about a collection/.test(request.system)) {
    return echoCollectionAsk(request);
  }
  if (isAsk(request)) return echoAsk(request);
  const summary = echoSummary(request);
  const points = /at most \d+ key points/.test(request.system);
  const chapters = echoChapters(request);
  if (!points && chapters.length === 0) return summary;
  return [
    'SUMMARY:',
    summary,
    ...(points ? ['KEY POINTS:', ...echoKeyPoints(request)] : []),
    ...(chapters.length > 0 ? ['CHAPTERS:', ...chapters] : []),
  ].join('\n');
}

/**
 * A collection's overview (lib/collections/overview/model.ts asks for it): SUMMARY with the first
 * N words of the videos' summaries, then a theme per two numbered key points, titled by the first
 * three words of the first one and citing both by their [K<n>] marks, as the prompt asks.
 */
export function echoOverview(request: EchoRequest): string {
  const target = /about (\d+) words/.exec(request.system);
  const summaries = [...request.userText.matchAll(/^Summary: (.*)$/gm)].map((m) => m[1] ?? '');
  const summary = words(summaries.join(' '))
    .slice(0, target ? Number(target[1]) : 50)
    .join(' ');
  const points = [...request.userText.matchAll(/^\[K(\d+)\] (.*)$/gm)];
  const lines = ['SUMMARY:', summary];
  for (let i = 0; i + 1 < points.length && lines.length < 2 + 3 * 2; i += 2) {
    const [first, second] = [points[i], points[i + 1]];
    lines.push(
      `THEME: ${words(first?.[2] ?? '')
        .slice(0, 3)
        .join(' ')}`,
      `${first?.[2] ?? ''} [K${first?.[1]}] ${second?.[2] ?? ''} [K${second?.[1]}]`,
    );
  }
  return lines.join('\n');
}

/**
 * An answer across a collection's videos: for each of the first two `[V<n> m:ss]` marks of the
 * data, the ten words after it followed by that mark, as a sentence.
 */
export function echoCollectionAsk(request: EchoRequest): string {
  const sentences: string[] = [];
  for (const match of request.userText.matchAll(
    /(\[V\d+ (?:\d{1,2}:)?\d{1,3}:\d{2}\])([^[\n]*)/g,
  )) {
    const text = words(match[2] ?? '')
      .slice(0, 10)
      .join(' ');
    if (text !== '') sentences.push(`${text} ${match[1]}.`);
    if (sentences.length >= 2) break;
  }
  return sentences.join(' ');
}
