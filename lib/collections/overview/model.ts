// The overview of a collection by a language model: one call given each video's title, summary
// and numbered key points, between markers with a random nonce (the summaries are a model's
// words about third parties' transcripts: data, never instructions). It answers a summary of
// the whole and themes, each citing key points by their `[K<n>]` numbers; a theme's citations
// are those key points (checked against their video's transcript when made), and a number that
// names none is dropped. An answer without a theme gets the offline themes.
import { randomBytes } from 'node:crypto';
import type { BedrockModel, OpenAiModel } from '../../models/catalog';
import type { ChatModel } from '../../models/chat';
import { modelProblems } from '../../models/failures';
import { estimateTokens, maxTokensFor, roomForData } from '../../models/tokens';
import { untrustedDataRules } from '../../transcripts/data-block';
import { cutText } from '../../util/text';
import type { SummarizedVideo } from '../driver';
import type { Theme } from '../schemas';
import { citationOf, type NumberedPoint, numberedPoints } from './key-points';
import { offlineThemes, THEMES } from './offline';

/** Characters of a title the model sees. */
const TITLE_CHARS = 200;
/** A model's answer is refused past this many characters per token of its max tokens. */
const MAX_CHARS_PER_TOKEN = 16;
/** Words a theme's summary is asked to keep within. */
const THEME_WORDS = 60;

export function overviewSystemPrompt(tag: string, words: number, language?: string): string {
  return [
    'You write an overview of a collection of YouTube videos (a playlist or a channel) from the summaries of its videos.',
    '',
    ...untrustedDataRules(
      tag,
      'for each video (V1, V2, ...) its title, its summary and its key points, each numbered [K1], [K2], ...',
    ),
    '- Use only what the summaries and key points say; do not invent facts.',
    `- First write a line "SUMMARY:" followed by an overview of the whole collection in about ${words} words of plain prose.`,
    `- Then write ${THEMES.min} to ${THEMES.max} themes the videos share, each as a line "THEME: <a short title>" followed by ` +
      `a few sentences (at most about ${THEME_WORDS} words) on what the videos say of it, each sentence ending with the ` +
      '[K<n>] numbers of the key points it rests on, copied from the data; never make up a number.',
    language
      ? `- Write in the language with the BCP 47 tag "${language}".`
      : "- Write in the summaries' language.",
  ].join('\n');
}

/** The videos' data between the markers, each video's share of `room` tokens at most. */
function overviewData(
  videos: readonly SummarizedVideo[],
  points: readonly NumberedPoint[],
  room: number,
): string {
  const share = Math.max(60, Math.floor(room / Math.max(1, videos.length)));
  return videos
    .map((video, v) => {
      const own = points.filter((point) => point.videoIndex === v);
      const lines = own.map((point) => `[K${point.n}] ${point.text}`);
      const head = `V${v + 1}: ${cutText(video.title, 40, TITLE_CHARS)}`;
      // What the key points leave of the video's share goes to its summary.
      const left = share - estimateTokens([head, ...lines].join('\n'));
      const summary = cutText(video.summary.summary, Math.max(20, left), Math.max(60, 3 * left));
      return [head, `Summary: ${summary}`, 'Key points:', ...lines].join('\n');
    })
    .join('\n\n');
}

/** What the model answered: the summary and the themes, their marks read. */
export function parseOverview(
  answer: string,
  points: readonly NumberedPoint[],
): { summary: string; themes: Theme[] } {
  const byNumber = new Map(points.map((point) => [point.n, point]));
  const summaryLines: string[] = [];
  const themes: { title: string; lines: string[] }[] = [];
  for (const raw of answer.split(/\r?\n/)) {
    const line = raw
      .replace(/^[#*\s]+/, '')
      .replace(/\*+/g, '')
      .trim();
    const theme = /^theme\s*\d*\s*:\s*/i.exec(line);
    if (theme) {
      themes.push({ title: line.slice(theme[0].length).trim(), lines: [] });
      continue;
    }
    const label = /^summary\s*:\s*/i.exec(line);
    const text = label ? line.slice(label[0].length) : line;
    if (text === '') continue;
    const current = themes.at(-1);
    if (current) current.lines.push(text);
    else summaryLines.push(text);
  }
  return {
    summary: withoutPointMarks(summaryLines.join(' ')),
    themes: themes
      .filter((theme) => theme.title !== '')
      .slice(0, THEMES.max)
      .map((theme) => {
        const body = theme.lines.join(' ');
        const cited: NumberedPoint[] = [];
        for (const match of body.matchAll(/\[K(\d{1,4})\]/g)) {
          const point = byNumber.get(Number(match[1]));
          if (point && !cited.includes(point)) cited.push(point);
        }
        return {
          title: cutText(withoutPointMarks(theme.title), 12, 120),
          summary: withoutPointMarks(body),
          citations: cited.map(citationOf),
        };
      }),
  };
}

/** Text without `[K<n>]` marks (they live on as citations) and the spaces they leave. */
function withoutPointMarks(text: string): string {
  return text
    .replace(/\s*\[K\d{1,4}\](?:\s*,?\s*\[K\d{1,4}\])*/g, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
}

/**
 * The overview of one model call.
 * @throws what the ChatModel throws (502-504), and 502 model-error for an answer far longer
 *   than asked.
 */
export async function modelOverview(
  videos: readonly SummarizedVideo[],
  options: {
    chat: ChatModel;
    model: BedrockModel | OpenAiModel;
    words: number;
    language?: string | undefined;
    signal: AbortSignal;
  },
): Promise<{
  summary: string;
  themes: Theme[];
  inputTokens: number | null;
  outputTokens: number | null;
}> {
  const { chat, model, words } = options;
  const points = numberedPoints(videos);
  const maxTokens = maxTokensFor(words + THEMES.max * (THEME_WORDS + 20), model);
  const tag = `data-${randomBytes(6).toString('hex')}`;
  const system = overviewSystemPrompt(tag, words, options.language);
  const room = roomForData(model, maxTokens, system, `<${tag}>\n\n</${tag}>`);
  const data = overviewData(videos, points, Math.max(0, room));
  const reply = await chat.complete(
    { system, user: `<${tag}>\n${data}\n</${tag}>`, maxTokens, step: 'overview' },
    options.signal,
  );
  if (reply.text.length > MAX_CHARS_PER_TOKEN * maxTokens) throw modelProblems.tooLong();
  const parsed = parseOverview(reply.text, points);
  const summary = cutText(parsed.summary, Math.ceil(words * 1.5), words * 12);
  return {
    summary: summary === '' ? cutText(reply.text.trim(), words, words * 12) : summary,
    themes: parsed.themes.length > 0 ? parsed.themes : offlineThemes(videos),
    inputTokens: reply.inputTokens ?? null,
    outputTokens: reply.outputTokens ?? null,
  };
}
