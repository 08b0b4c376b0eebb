// Summaries by a model of an OpenAI-compatible server (Ollama, LM Studio, llama.cpp's server,
// vLLM, OpenAI itself) through `POST {OPENAI_BASE_URL}/chat/completions`, with the official
// `openai` client: the ChatModel of llm.ts for such a server (one call with our retries, and
// what its failures mean for the client and the operator), and the summarizer made of it.
import OpenAI from 'openai';
import type { Config } from '../../config';
import type { OperatorCredentials } from '../../credentials';
import { BadGatewayError, HttpError } from '../../errors';
import { parseRetryAfter } from '../../http/retry-after';
import type { Logger } from '../../logger';
import { withRetries } from '../../retry';
import type { OpenAiModel } from '../catalog';
import type { Summarizer } from '../types';
import {
  type ChatAnswer,
  type ChatModel,
  type ChatRequest,
  createLlmSummarizer,
  modelProblems,
  TEMPERATURE,
} from './summarizer';

export interface OpenAiClientOptions {
  /** OPENAI_BASE_URL, e.g. http://localhost:11434/v1. */
  baseUrl: string;
  /** OPENAI_API_KEY; without one, no Authorization header is sent. */
  apiKey?: string;
}

/**
 * The process-wide client. Its own retries are off (ours know the request's deadline) and so
 * is its timeout (the deadline is the caller's AbortSignal). Settings come from here only, not
 * from the OPENAI_* variables the package would otherwise read.
 */
export function createOpenAiClient(options: OpenAiClientOptions): OpenAI {
  return new OpenAI({
    baseURL: options.baseUrl,
    // The package insists on a key; local servers want none, so the header is then left out.
    apiKey: options.apiKey ?? 'none',
    ...(options.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: 24 * 60 * 60 * 1000,
  });
}

/** The client of config's OPENAI_BASE_URL (it must be set) and the operator's API key. */
export function createOpenAiClientFromConfig(
  config: Pick<Config, 'OPENAI_BASE_URL'>,
  credentials: Pick<OperatorCredentials, 'openaiApiKey'>,
): OpenAI {
  return createOpenAiClient({
    baseUrl: config.OPENAI_BASE_URL ?? '',
    ...(credentials.openaiApiKey === undefined ? {} : { apiKey: credentials.openaiApiKey }),
  });
}

export interface OpenAiSummarizerOptions {
  client: Pick<OpenAI, 'chat'>;
  model: OpenAiModel;
  /** Attempts per call, first included (OPENAI_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Parts summarised at the same time for long transcripts (OPENAI_CONCURRENCY). */
  concurrency: number;
  logger?: Logger;
  /** Backoff of the retries: first ceiling and cap, in ms (defaults 250 and 4,000). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Retry-After sent with a 503, in seconds, when the server sends none (defaults 5 and 10). */
  retryAfterSeconds?: { throttled: number; unavailable: number };
}

/** Whether a failed call is worth another attempt: throttling, a server error, no connection. */
function retryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIConnectionError) return true;
  if (error instanceof OpenAI.APIError) {
    return error.status === 429 || (error.status !== undefined && error.status >= 500);
  }
  return false;
}

/** The server's own Retry-After, in seconds, when it sends one. */
function serverRetryAfter(error: unknown): number | undefined {
  if (!(error instanceof OpenAI.APIError)) return undefined;
  return parseRetryAfter(error.headers?.get('retry-after'));
}

/** Chat completions of one model, failures expressed as HttpErrors. */
export function createOpenAiChat(options: Omit<OpenAiSummarizerOptions, 'concurrency'>): ChatModel {
  const { client, model, logger } = options;
  const retryAfter = options.retryAfterSeconds ?? { throttled: 5, unavailable: 10 };

  async function complete(request: ChatRequest, signal: AbortSignal): Promise<ChatAnswer> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await withRetries(
        () =>
          client.chat.completions.create(
            {
              model: model.modelId,
              messages: [
                { role: 'system', content: request.system },
                { role: 'user', content: request.user },
              ],
              // `max_tokens` rather than `max_completion_tokens`: every compatible server
              // knows it (OpenAI's reasoning models excepted).
              max_tokens: request.maxTokens,
              temperature: TEMPERATURE,
            },
            { signal },
          ),
        {
          maxAttempts: options.maxAttempts,
          baseDelayMs: options.retryBaseDelayMs ?? 250,
          maxDelayMs: options.retryMaxDelayMs ?? 4_000,
          retryable,
          signal,
          onRetry: (error, attempt, delayMs) =>
            logger?.warn('model server call failed, retrying', {
              model: model.name,
              status: error instanceof OpenAI.APIError ? error.status : undefined,
              attempt,
              maxAttempts: options.maxAttempts,
              delayMs,
            }),
        },
      );
    } catch (error) {
      throw toHttpError(error, signal);
    }
    const choice = completion.choices[0];
    const text = (choice?.message?.content ?? '').trim();
    if (text === '') {
      logger?.error('the model server returned no summary text', {
        model: model.name,
        finishReason: choice?.finish_reason,
        step: request.step,
      });
      throw modelProblems.noSummary();
    }
    if (choice?.finish_reason === 'length') {
      logger?.warn('model server summary hit max_tokens and may end mid-sentence', {
        model: model.name,
        maxTokens: request.maxTokens,
        step: request.step,
      });
    }
    return {
      text,
      ...(completion.usage === undefined
        ? {}
        : {
            inputTokens: completion.usage.prompt_tokens,
            outputTokens: completion.usage.completion_tokens,
          }),
    };
  }

  /** The client's answer: never the server's own words, which may say anything. */
  function toHttpError(error: unknown, signal: AbortSignal): unknown {
    if (error instanceof HttpError) return error;
    const status = error instanceof OpenAI.APIError ? error.status : undefined;
    const context = { model: model.name, status, error: (error as Error)?.name };
    if (signal.aborted || error instanceof OpenAI.APIUserAbortError) {
      return modelProblems.timeout(error);
    }
    if (status === 429) {
      logger?.warn('the model server throttled the request after all retries', context);
      return modelProblems.throttled(serverRetryAfter(error) ?? retryAfter.throttled, error);
    }
    if (error instanceof OpenAI.APIConnectionError || (status !== undefined && status >= 500)) {
      logger?.warn('the model server is unreachable or failing after all retries', context);
      return modelProblems.unavailable(serverRetryAfter(error) ?? retryAfter.unavailable, error);
    }
    const serverMessage = error instanceof Error ? error.message : String(error);
    if (status === 401 || status === 403) {
      logger?.error(
        'the model server refused the API key: check OPENAI_API_KEY (deployed: the OpenaiApiKey parameter)',
        { ...context, serverMessage },
      );
      return new BadGatewayError(
        'model-access-denied',
        `The model "${model.name}" is not available to this service.`,
        { cause: error },
      );
    }
    if (status === 404) {
      logger?.error(
        'the model server does not know this model: check OPENAI_MODELS against the server (e.g. `ollama list`)',
        { ...context, serverMessage },
      );
      return new BadGatewayError(
        'model-error',
        `The model "${model.name}" is not available on its server.`,
        { cause: error },
      );
    }
    if (error instanceof OpenAI.APIError) {
      logger?.error('the model server rejected the request', { ...context, serverMessage });
      return modelProblems.failed(error);
    }
    return error;
  }

  return { complete };
}

/** A Summarizer backed by one model of the OpenAI-compatible server. */
export function createOpenAiSummarizer(options: OpenAiSummarizerOptions): Summarizer {
  return createLlmSummarizer({
    chat: createOpenAiChat(options),
    limits: options.model,
    concurrency: options.concurrency,
  });
}
