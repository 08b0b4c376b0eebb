// What the local model stubs (Bedrock, OpenAI-compatible) answer by default: a deterministic
// "summary" made of the data the prompt carries, so tests can tell what reached the model, in
// the answer form the prompt asks for (lib/summaries/llm/prompt.ts).

/** What a stub knows of a request: the system prompt and the last user message. */
export interface EchoRequest {
  system: string;
  userText: string;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);
// A transcript mark or a key point time: "[1:23]", "[1:02:03]".
const STAMP = /\[(?:\d{1,2}:)?\d{1,3}:\d{2}\]/g;

/** The data of the prompt: after "Transcript:" or "Part summaries:" inside the first marker block. */
function dataOf(request: EchoRequest): string {
  const block = /<([A-Za-z][\w-]*)>\n?([\s\S]*?)<\/\1>/.exec(request.userText);
  let data = block ? (block[2] ?? '') : request.userText;
  const heading = /^(?:Transcript|Part summaries):$/m.exec(data);
  if (heading) data = data.slice(heading.index + heading[0].length);
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

/** The whole answer: the summary alone, or the SUMMARY / KEY POINTS form when it is asked for. */
export function echoAnswer(request: EchoRequest): string {
  const summary = echoSummary(request);
  if (!/at most \d+ key points/.test(request.system)) return summary;
  return ['SUMMARY:', summary, 'KEY POINTS:', ...echoKeyPoints(request)].join('\n');
}
