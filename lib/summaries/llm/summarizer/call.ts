// One model call of a summary: what the calls of one summary share (Run), the call's key across
// runs, its prompts, and its answer checked and cut to what was asked.
import { createHash, randomBytes } from 'node:crypto';
import type { ChatAnswer, ChatModel } from '../../../models/chat';
import { modelProblems } from '../../../models/failures';
import { estimateTokens, maxTokensFor } from '../../../models/tokens';
import { anchorKeyPoints, type ClaimedKeyPoint, type KeyPoint } from '../../../transcripts/anchors';
import { cutText } from '../../../util/text';
import type { Transcript } from '../../../youtube/types';
import { type ChapterStart, chapterSummary } from '../../chapters/chapter';
import { splitChapters } from '../../chapters/model';
import { parseAnswer } from '../../key-points';
import type { CallResult, JobHooks } from '../../types';
import { type ChapterPlan, checkChapters } from '../chapter-asks';
import { type ModelLimits, type Planner, SummaryLengthError } from '../plan';
import {
  type ChapterAsk,
  chaptersAsked,
  type PromptContext,
  type Step,
  userPrompt,
} from '../prompt';
import { systemPrompt } from '../prompt/instructions';

/** The model a summary is asked of: its client, its limits and the planner of its calls. */
export interface SummaryModel {
  chat: ChatModel;
  limits: ModelLimits;
  planner: Planner;
  /** Parts summarised at the same time for long transcripts. */
  concurrency: number;
}

/**
 * Characters an answer may have per token of its max tokens before it is refused: a model keeps
 * to max tokens, and even long tokens are far shorter, so only a broken or hostile server sends
 * more (a 10 MB answer must not become a 10 MB summary, cached and replayed).
 */
const MAX_CHARS_PER_TOKEN = 16;
/** A summary is cut (at a sentence end) past this many times the words asked for... */
const SUMMARY_WORDS_FACTOR = 2;
/** ...or past this many characters per word asked for (scripts written without spaces). */
const SUMMARY_CHARS_PER_WORD = 16;
/** A key point is one sentence: longer ones are cut. */
const KEY_POINT_CHARS = 300;
/** A chapter's summary is one to three sentences (chapterSummary), and is cut past these. */
const CHAPTER_SUMMARY_WORDS = 80;
const CHAPTER_SUMMARY_CHARS = 600;

/** What every call of one summary shares. */
export interface Run {
  model: SummaryModel;
  context: PromptContext;
  transcript: Transcript;
  signal: AbortSignal;
  usage: (answer: Pick<ChatAnswer, 'inputTokens' | 'outputTokens'>) => void;
  job: JobHooks | undefined;
  /** The summary asked for, in words. */
  targetWords: number;
  /** Model calls this summary may still make, and has made. */
  callsLeft: number;
  callsMade: number;
  /** What its calls are asked about chapters. */
  chapters: ChapterPlan;
}

/** What one call gave: its summary and the key points and chapters that held up. */
export interface Answer {
  summary: string;
  keyPoints: KeyPoint[];
  chapters: ChapterStart[];
}

/** The context of a call asked `ask` about chapters. */
export const askingFor = (run: Run, ask: ChapterAsk | undefined): PromptContext =>
  ask ? { ...run.context, chapters: ask } : run.context;

/**
 * What identifies a call across runs of one summary: its step, what it asks for, and its
 * data. The same plan over the same transcript (and, for combinations, over the same part
 * summaries, which checkpoints replay) gives the same keys; anything else misses.
 */
export function callKey(run: Run, step: Step, context: PromptContext, body: string): string {
  const asked = JSON.stringify([
    step,
    run.model.planner.pointsFor(step, context),
    context.summaryLanguage ?? '',
    ...(context.chapters ? [context.chapters] : []),
  ]);
  const hash = createHash('sha256').update(asked).update('\n').update(body).digest('base64url');
  return `${step.kind === 'part' ? 'p' : 'c'}${hash.slice(0, 22)}`;
}

/** The 422 for a summary whose part summaries (`bodyTokens`) its final step cannot hold. */
export function tooLongFor(run: Run, bodyTokens: number, why: string): SummaryLengthError {
  const longest = run.model.planner.shorterThan(run.targetWords, bodyTokens, run.context);
  return new SummaryLengthError(run.model.limits.name, run.targetWords, longest, why);
}

/**
 * One call: the answer's summary and the key points the transcript bears out, each within
 * what was asked. Inside a job, a call an earlier run finished is not made again, and a
 * finished call is kept.
 */
export async function call(
  run: Run,
  step: Step,
  body: string,
  signal = run.signal,
  ask?: ChapterAsk,
): Promise<Answer> {
  const { job } = run;
  const { chat, limits, planner } = run.model;
  const context = askingFor(run, ask);
  const key = job ? callKey(run, step, context, body) : '';
  const recalled = job?.recall(key);
  if (recalled) {
    run.usage(recalled);
    const { summary, keyPoints, chapters = [] } = recalled;
    return { summary, keyPoints, chapters };
  }
  if (run.callsLeft <= 0) {
    throw tooLongFor(
      run,
      estimateTokens(body),
      `its part summaries cannot be combined within ${run.callsMade} calls`,
    );
  }
  run.callsLeft--;
  run.callsMade++;
  await job?.beforeCall();
  const tag = `data-${randomBytes(6).toString('hex')}`;
  // The description and chapters get what the model's context leaves beside this data.
  const stepContext = {
    ...context,
    keyPoints: planner.pointsFor(step, context),
    metadataChars: planner.metadataChars(step, context, body),
  };
  const maxTokens = maxTokensFor(
    step.words,
    limits,
    stepContext.keyPoints,
    chaptersAsked(stepContext),
  );
  const answer = await chat.complete(
    {
      system: systemPrompt(tag, step, stepContext),
      user: userPrompt(step, tag, stepContext, body),
      maxTokens,
      step: step.kind,
    },
    signal,
  );
  run.usage(answer);
  if (answer.text.length > MAX_CHARS_PER_TOKEN * maxTokens) throw modelProblems.tooLong();
  const split = ask ? splitChapters(answer.text) : { rest: answer.text, chapters: [] };
  const parsed = parseAnswer(split.rest);
  const chapters = ask
    ? checkChapters(ask, split.chapters, run.transcript, run.chapters.endMs, (text) =>
        cutText(chapterSummary(text), CHAPTER_SUMMARY_WORDS, CHAPTER_SUMMARY_CHARS),
      )
    : [];
  const claimed: ClaimedKeyPoint[] = parsed.keyPoints
    .slice(0, stepContext.keyPoints)
    .map((point) => ({ ...point, text: cutText(point.text, Infinity, KEY_POINT_CHARS) }));
  const keyPoints = anchorKeyPoints(claimed, run.transcript);
  // An answer of key points alone still says what the video is about.
  const said = parsed.summary || parsed.keyPoints.map((point) => point.text).join(' ');
  const summary = cutText(
    said,
    Math.max(50, SUMMARY_WORDS_FACTOR * step.words),
    Math.max(800, SUMMARY_CHARS_PER_WORD * step.words),
  );
  if (job) {
    const result: CallResult = { summary, keyPoints };
    if (ask) result.chapters = chapters;
    if (answer.inputTokens !== undefined) result.inputTokens = answer.inputTokens;
    if (answer.outputTokens !== undefined) result.outputTokens = answer.outputTokens;
    await job.remember(key, result, step.kind !== 'combine');
  }
  return { summary, keyPoints, chapters };
}
