// How a question about a video is answered: offline by retrieval (the passages that best match
// it, in the speaker's own words, each a citation), or by one call of a language model given the
// whole transcript when it fits its context, else the passages that best match, whose [m:ss]
// marks are then checked against the transcript.
import { randomBytes } from 'node:crypto';
import { UnprocessableError } from '../errors';
import type { BedrockModel, OpenAiModel } from '../models/catalog';
import type { ChatModel } from '../models/chat';
import { modelProblems } from '../models/failures';
import {
  estimateTokens,
  MIN_DATA_TOKENS,
  maxTokensFor,
  metadataCharsWithin,
  PLANNING_TAG,
  roomForData,
  transcriptRoom,
} from '../models/tokens';
import { formatTimestamp } from '../transcripts/timed-line';
import { stampedUnits } from '../transcripts/timed-units';
import { cutText } from '../util/text';
import type { Video } from '../youtube/types';
import { checkCitations, makeCitation, quotedInAnswer } from './citations';
import { answeringPassages, type PassageMatch, passagesOf, searchPassages } from './passages';
import { ANSWER_WORDS, askSystemPrompt, askUserPrompt, isNotInVideo } from './prompt';
import type { ASK_CONTEXTS, Citation } from './schemas';

/** What an answerer made of a question. */
export interface Answer {
  answer: string;
  citations: Citation[];
  /** False when the video does not seem to address the question. */
  answered: boolean;
  context: (typeof ASK_CONTEXTS)[number];
  /** Passages read (0 with the whole transcript). */
  passages: number;
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface AskInput {
  question: string;
  videoId: string;
  video: Video;
}

/** The answer when the video does not seem to address the question: no citation at all. */
export const NOT_ADDRESSED = 'The video does not seem to address this question.';

const notAddressed = (
  context: Answer['context'],
  passages: number,
): Omit<Answer, 'inputTokens' | 'outputTokens'> => ({
  answer: NOT_ADDRESSED,
  citations: [],
  answered: false,
  context,
  passages,
});

/**
 * The offline answer: the passages that best answer the question best first,
 * each followed by its [m:ss] mark and cited at the start of its first caption. The answer shows
 * them as text to read (quotedInAnswer: no time marks of the captions', no cues, no fillers);
 * the citations quote the captions as they are.
 */
export function answerByRetrieval({ question, videoId, video }: AskInput): Answer {
  const passages = passagesOf(video.transcript);
  const found = answeringPassages(searchPassages(passages, question));
  const usage = { inputTokens: null, outputTokens: null };
  if (found.length === 0) return { ...notAddressed('passages', passages.length), ...usage };
  const citations = found.map(({ passage }) =>
    makeCitation(videoId, passage.startMs, passage.text),
  );
  const answer = citations
    .map(
      (citation, i) =>
        `${quotedInAnswer(citation.text)} [${formatTimestamp(found[i]?.passage.startMs ?? 0)}]`,
    )
    .join('\n\n');
  return {
    answer,
    citations,
    answered: true,
    context: 'passages',
    passages: passages.length,
    ...usage,
  };
}

/** A model's answer is refused past this many characters per token of its max tokens. */
const MAX_CHARS_PER_TOKEN = 16;

export interface ModelAnswerOptions {
  chat: ChatModel;
  model: BedrockModel | OpenAiModel;
  signal: AbortSignal;
}

/** The passages to give a model, best first until `room` is full, then in video order. */
function passagesWithin(matches: readonly PassageMatch[], room: number): PassageMatch[] {
  const chosen: PassageMatch[] = [];
  let used = 0;
  for (const match of matches) {
    const cost = estimateTokens(match.passage.text) + 4;
    if (used + cost > room) continue;
    chosen.push(match);
    used += cost;
  }
  return chosen.sort((a, b) => a.passage.startMs - b.passage.startMs);
}

/**
 * The answer of one model call. The model gets the whole transcript (with its [m:ss] marks)
 * when it fits its context beside the prompt and the answer, else the passages that best match
 * the question; a question no passage matches, in a transcript too long to read whole, is not
 * addressed without a call.
 * @throws what the ChatModel throws (502-504 HttpErrors), 502 model-error for an answer far
 *   longer than asked, and 422 context-too-small when the model's context holds no passage.
 */
export async function answerWithModel(
  input: AskInput,
  { chat, model, signal }: ModelAnswerOptions,
): Promise<Answer> {
  const { question, videoId, video } = input;
  const { transcript, metadata } = video;
  const maxTokens = maxTokensFor(2 * ANSWER_WORDS, model);
  // What a call leaves without the description and chapters, which keep some of it beside the
  // transcript and get what the transcript leaves (as a summary's do: transcriptRoom).
  const bareRoom = (whole: boolean) =>
    roomForData(
      model,
      maxTokens,
      askSystemPrompt(PLANNING_TAG, whole),
      askUserPrompt(PLANNING_TAG, question, metadata, whole, '', 0),
    );
  const roomFor = (whole: boolean) => {
    const full = askUserPrompt(PLANNING_TAG, question, metadata, whole, '');
    const bare = askUserPrompt(PLANNING_TAG, question, metadata, whole, '', 0);
    return transcriptRoom(bareRoom(whole), estimateTokens(full) - estimateTokens(bare));
  };
  const wholeText = stampedUnits(transcript).join(' ');
  let body = wholeText;
  let context: Answer['context'] = 'whole';
  let passageCount = 0;
  if (estimateTokens(wholeText) > roomFor(true)) {
    context = 'passages';
    const passages = passagesOf(transcript);
    const { matches } = searchPassages(passages, question);
    if (matches.length === 0) {
      return { ...notAddressed(context, 0), inputTokens: null, outputTokens: null };
    }
    const room = roomFor(false);
    const chosen = room < MIN_DATA_TOKENS ? [] : passagesWithin(matches, room);
    if (chosen.length === 0) {
      throw new UnprocessableError(
        'context-too-small',
        'Model context too small',
        `The model "${model.name}" has too small a context to read a passage of this video beside the question; use a model with a larger context.`,
      );
    }
    passageCount = chosen.length;
    body = chosen
      .map(({ passage }) => `[${formatTimestamp(passage.startMs)}] ${passage.text}`)
      .join('\n');
  }
  const whole = context === 'whole';
  const tag = `data-${randomBytes(6).toString('hex')}`;
  const reply = await chat.complete(
    {
      system: askSystemPrompt(tag, whole),
      user: askUserPrompt(
        tag,
        question,
        metadata,
        whole,
        body,
        metadataCharsWithin(bareRoom(whole), body),
      ),
      maxTokens,
      step: 'ask',
    },
    signal,
  );
  const usage = {
    inputTokens: reply.inputTokens ?? null,
    outputTokens: reply.outputTokens ?? null,
  };
  if (reply.text.length > MAX_CHARS_PER_TOKEN * maxTokens) throw modelProblems.tooLong();
  if (isNotInVideo(reply.text)) return { ...notAddressed(context, passageCount), ...usage };
  // Cut before the marks are read, so that no mark of a cut-off part becomes a citation.
  const said = cutText(reply.text, 2 * ANSWER_WORDS, 16 * ANSWER_WORDS);
  const checked = checkCitations(said, videoId, transcript);
  return { ...checked, answered: true, context, passages: passageCount, ...usage };
}
