// The MCP tools: each one is an entry of a list (ToolDef), its arguments validated by a zod
// schema and its answer described by another, both listed to clients as JSON Schema made from
// those very schemas, as the OpenAPI document's are. Where a REST route does
// the same, the tool takes its body schema and answers its body: summarize_video is
// POST /summarize, get_summary is GET /summaries/{id}, ask_video is POST /ask (the collection
// tools are in collections.ts). functions/mcp.ts composes the list; a new tool is one more entry
// there.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { User } from '../accounts/users/store';
import { askBodySchema, askResponseSchema } from '../ask/schemas';
import type { AskService } from '../ask/service';
import { type Json, toJsonSchema } from '../json-schema';
import type { Scope } from '../oauth/scopes';
import * as z from '../schema';
import { jobSchema } from '../summaries/jobs/schemas';
import { summarizeBodySchema, summarizeResponseSchema } from '../summaries/schemas';
import { pollAfterSeconds, type SummaryService } from '../summaries/service';
import type { JobProgress } from '../summaries/store/jobs';
import { getSummaryArgsSchema, getTranscriptArgsSchema, transcriptSchema } from './schemas';
import type { TranscriptService } from './transcripts';

/** What a tool's run knows about the call. */
export interface ToolContext {
  user: User;
  requestId: string;
  /** When the answer must be on its way (epoch ms): waits and fetches end before it. */
  deadlineAt: number;
  /**
   * Tells the client how the call is getting on (MCP progress notifications); there only when
   * the client asked for them (a progressToken). `progress` only grows.
   */
  progress?: ((progress: number, total: number | undefined, message: string) => void) | undefined;
}

/** A tool's answer. */
export interface ToolAnswer<S = unknown> {
  /** `structuredContent`: exactly the REST body where a route answers the same. */
  structured: S;
  /** Said to the model before the JSON, when the JSON alone does not say what to do next. */
  note?: string;
}

export interface ToolDef<
  I extends z.ZodMiniType = z.ZodMiniType,
  O extends z.ZodMiniType = z.ZodMiniType,
> {
  name: string;
  title: string;
  /** What a model reads to decide when to call it, and what it gets back. */
  description: string;
  /** Validates the arguments (a 422 problem as the REST route's, as a tool error) and is listed. */
  input: I;
  /** The structured answer's schema, listed as outputSchema (an object, or a union of objects). */
  output: O;
  annotations: ToolAnnotations;
  /** The OAuth scope a call needs (an API key holds every one); listing tools needs none. */
  scope: Scope;
  /** @throws HttpError (or anything: a 500) for a tool error; the arguments are valid. */
  run(args: z.output<I>, context: ToolContext): Promise<ToolAnswer<z.output<O>>>;
}

/** A tool of the list, its arguments and answer type-checked against its schemas here. */
export const tool = <I extends z.ZodMiniType, O extends z.ZodMiniType>(
  def: ToolDef<I, O>,
): ToolDef => def as unknown as ToolDef;

/** What a stage of a summary's run is called in a progress notification. */
const STAGE_WORDS: Record<JobProgress['stage'], string> = {
  queued: 'Waiting for a worker',
  transcript: 'Reading the transcript',
  transcribing: 'No captions: transcribing the audio',
  summarizing: 'Summarising the parts',
  combining: 'Combining the parts',
  done: 'Done',
};

/**
 * What a summary's run tells the client while summarize_video waits: parts done of parts total,
 * sent when they grow (MCP wants each notification's progress above the one before).
 */
export function progressReporter(
  progress: NonNullable<ToolContext['progress']>,
): (job: JobProgress) => void {
  let sent = -1;
  // A video without captions counts its transcribed parts first, then its summarised ones: the
  // count goes on from the transcribed ones so that it only grows.
  let transcribed = 0;
  return (job) => {
    if (job.stage === 'transcribing') transcribed = Math.max(transcribed, job.parts_total);
    const base = job.stage === 'transcribing' ? 0 : transcribed;
    const own = job.stage === 'done' ? Math.max(job.parts_total, job.parts_done) : job.parts_done;
    const done = base + own;
    if (done <= sent) return;
    sent = done;
    const total = job.parts_total > 0 ? base + job.parts_total : undefined;
    const parts = job.parts_total > 0 ? `: ${own} of ${job.parts_total} parts` : '';
    progress(done, total, `${STAGE_WORDS[job.stage]}${parts}`);
  };
}

/**
 * summarize_video and get_summary over the summaries service: the same path as POST /summarize
 * (quota, cache, jobs). `waitMs` is MCP_WAIT_MS; the request's deadline may shorten it.
 */
export function summaryTools(summaries: SummaryService, waitMs: number): ToolDef[] {
  const seconds = Math.round(waitMs / 1000);
  return [
    tool({
      name: 'summarize_video',
      title: 'Summarize a YouTube video',
      description: `Summarises a YouTube video's transcript in about summary_length words, with key points that link to the moment each is said and, for videos of 5 minutes or more, its chapters (the creator's when the description lists them), each linked to its start and summarised. Takes the body of POST /summarize. Answers the summary (the body of POST /summarize's 200) when it is ready within about ${seconds} seconds: at once when cached, or with the offline extractive model. Otherwise answers the job (the body of GET /summaries/{id}): call get_summary with its id every few seconds until status is done, then read result. With a progressToken, sends progress notifications (parts summarised of parts total) while it waits. A new summary takes a unit of the caller's daily quota; a cached one does not.`,
      input: summarizeBodySchema,
      output: z.union([summarizeResponseSchema, jobSchema]),
      annotations: { readOnlyHint: false, openWorldHint: true },
      // It starts summaries, and spends the person's quota.
      scope: 'summaries:write',
      run: async (args, { user, requestId, deadlineAt, progress }) => {
        const wait = Math.max(0, Math.min(waitMs, deadlineAt - Date.now()));
        const submitted = await summaries.submit(user, args, {
          waitMs: wait,
          requestId,
          onProgress: progress && progressReporter(progress),
        });
        if (submitted.ready) return { structured: submitted.response };
        const { job } = submitted;
        return {
          structured: job,
          note: `The summary is not ready yet (job ${job.id}, ${job.status}). Call get_summary with {"id": "${job.id}"} in about ${pollAfterSeconds(job)} seconds, and again until its status is done; its result is then the summary.`,
        };
      },
    }),
    tool({
      name: 'get_summary',
      title: 'Get a summary job',
      description:
        'A summary job by its id (from summarize_video): the body of GET /summaries/{id}. status is queued or running (call again in a few seconds; progress says how far it got), done (result is the summary), failed (error is the problem) or cancelled.',
      input: getSummaryArgsSchema,
      output: jobSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
      scope: 'summaries:read',
      run: async (args, { user }) => {
        const job = await summaries.get(user, args.id);
        const unfinished = job.status === 'queued' || job.status === 'running';
        return {
          structured: job,
          ...(unfinished
            ? {
                note: `Not done yet: call get_summary again in about ${pollAfterSeconds(job)} seconds.`,
              }
            : {}),
        };
      },
    }),
  ];
}

/** get_transcript over the transcript service. */
export function transcriptTool(transcripts: TranscriptService): ToolDef {
  return tool({
    name: 'get_transcript',
    title: 'Get the transcript of a YouTube video',
    description:
      "The captions of a YouTube video with the time each starts ({start_seconds, text}), optionally only those that start between start_seconds and end_seconds. A long transcript comes in pages (each under 25,000 characters): when truncated is true, call again with the same arguments and cursor set to next_cursor. A video nobody summarised or read here in the last day takes a unit of the caller's daily quota.",
    input: getTranscriptArgsSchema,
    output: transcriptSchema,
    annotations: { readOnlyHint: true, openWorldHint: true },
    scope: 'summaries:read',
    run: async (args, { user, deadlineAt }) => ({
      structured: await transcripts.page(user, args, { deadlineAt }),
    }),
  });
}

/**
 * What a question is given to answer within: the request's deadline or `deadlineMs` from now
 * (ASK_DEADLINE_MS), whichever ends first.
 */
export function askWithin(
  deadlineAt: number,
  deadlineMs: number,
): { signal: AbortSignal; deadlineAt: number } {
  const until = Math.min(deadlineAt, Date.now() + deadlineMs);
  return { signal: AbortSignal.timeout(Math.max(0, until - Date.now())), deadlineAt: until };
}

/**
 * ask_video over the questions service: POST /ask's body and answer, within the request's
 * deadline and ASK_DEADLINE_MS (`deadlineMs`), whichever ends first.
 */
export function askTool(questions: AskService, deadlineMs: number): ToolDef {
  return tool({
    name: 'ask_video',
    title: 'Ask a question about a YouTube video',
    description:
      "Answers a question about a YouTube video from its transcript, with citations: each the captions that say it, the second they start and a link that opens the video there. Takes the body of POST /ask and answers its body. With the offline extractive model the answer is the transcript's best-matching passages; with a language model, its answer, whose [m:ss] marks are checked against the captions. A question the video does not address says so, with no citation. A new answer takes a unit of the caller's daily quota; a cached one does not.",
    input: askBodySchema,
    output: askResponseSchema,
    annotations: { readOnlyHint: true, openWorldHint: true },
    scope: 'summaries:read',
    run: async (args, { user, deadlineAt }) => ({
      structured: await questions.ask(user, args, askWithin(deadlineAt, deadlineMs)),
    }),
  });
}

/**
 * A tool's schema as MCP lists it: JSON Schema 2020-12 (the default dialect, so no `$schema`,
 * which the official client's draft-07 validator would refuse) with `type: "object"` at the root,
 * as MCP requires: a schema with an id comes back from zod as a `$ref`, inlined here.
 * @throws Error from zod for a schema JSON Schema cannot express.
 */
export function toolJsonSchema(
  schema: z.ZodMiniType,
  io: 'input' | 'output',
  models: readonly string[],
): Json {
  const { $schema: _, $defs = {}, ...root } = toJsonSchema(schema, { io, models });
  const ownId =
    Object.keys(root).length === 1 && typeof root.$ref === 'string'
      ? root.$ref.replace('#/$defs/', '')
      : undefined;
  const body: Json = ownId === undefined ? root : { ...$defs[ownId] };
  const defs: Json = { ...$defs };
  if (ownId !== undefined) delete defs[ownId];
  // Its own entry stays when something inside refers back to it.
  if (ownId !== undefined && JSON.stringify([body, defs]).includes(`"#/$defs/${ownId}"`)) {
    defs[ownId] = $defs[ownId];
  }
  return {
    // A union of objects (summarize_video's two answers) is still an object.
    type: 'object',
    ...body,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
