// Calls of a model of an OpenAI-compatible server (Ollama, LM Studio, llama.cpp's server, vLLM,
// OpenAI itself) through `POST {OPENAI_BASE_URL}/chat/completions`, with the official `openai`
// client: the ChatModel for such a server (one call with our retries, and what its failures
// mean for the client and the operator), and the client transcription shares.
import OpenAI from 'openai';
import type { OperatorCredentials } from '../aws/operator-credentials';
import type { Config } from '../config';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { patientFetch } from '../net/patient-fetch';
import { bound } from '../util/bound';
import { withRetries } from '../util/retry';
import type { OpenAiModel } from './catalog';
import { type ChatAnswer, type ChatModel, type ChatRequest, TEMPERATURE } from './chat';
import { type ModelProvider, modelError, modelProblems } from './failures';
import { failureOf, retryable, withOwnSignal } from './openai-failures';

export interface OpenAiClientOptions {
  /** OPENAI_BASE_URL, e.g. http://localhost:11434/v1. */
  baseUrl: string;
  /** OPENAI_API_KEY; without one, no Authorization header is sent. */
  apiKey?: string;
}

/**
 * The client of an OpenAI-compatible server, kept by its owner for the process's life. Its own
 * retries are off (ours know the request's deadline and which failures may be sent again) and so
 * are its timeout and undici's (the deadline is the caller's AbortSignal: patientFetch). Settings
 * come from here only, not from the OPENAI_* variables the package would otherwise read.
 */
export function createOpenAiClient(options: OpenAiClientOptions): OpenAI {
  return new AnswerKeepingClient({
    baseURL: options.baseUrl,
    // The package insists on a key; local servers want none, so the header is then left out.
    apiKey: options.apiKey ?? 'none',
    ...(options.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: 24 * 60 * 60 * 1000,
    fetch: patientFetch(),
  });
}

/**
 * The SDK keeps of an error answer only its `error` member: a FastAPI server's `{"detail": ...}`
 * (Speaches) or a plain-text page comes out as "404 status code (no body)". This client keeps
 * the whole answer on the error (answerOf), for callers that pass the server's words on.
 */
class AnswerKeepingClient extends OpenAI {
  protected override makeStatusError(
    status: number,
    error: object,
    message: string | undefined,
    headers: Headers,
  ) {
    const made = super.makeStatusError(status, error, message, headers);
    return Object.assign(made, { answer: error ?? message });
  }
}

/** What the server answered with an HTTP error (parsed JSON, or its text), when it is known. */
export function answerOf(error: unknown): unknown {
  return error instanceof OpenAI.APIError ? (error as { answer?: unknown }).answer : undefined;
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

export interface OpenAiChatOptions {
  client: Pick<OpenAI, 'chat'>;
  model: OpenAiModel;
  /** Attempts per call, first included (OPENAI_MAX_ATTEMPTS). */
  maxAttempts: number;
  logger?: Logger;
  /** Backoff of the retries: first ceiling and cap, in ms (defaults 250 and 4,000). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Retry-After sent with a 503, in seconds, when the server sends none (defaults 5 and 10). */
  retryAfterSeconds?: { throttled: number; unavailable: number };
}

/**
 * The chat completion in what the server sent, or undefined when it sent something else with
 * its 200: an HTML page of a proxy (the SDK then hands over the text), `{}`, `null`, a list.
 */
function asCompletion(body: unknown): OpenAI.Chat.Completions.ChatCompletion | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return undefined;
  const message = (choices[0] as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'object' || message === null) return undefined;
  return body as OpenAI.Chat.Completions.ChatCompletion;
}

/** What the operator reads when only they can fix a failure. */
const OPENAI_ADVICE: ModelProvider['advice'] = {
  'access-denied':
    'the model server refused the API key: check OPENAI_API_KEY (deployed: the OpenaiApiKey parameter)',
  'not-found':
    'the model server does not know this model: check OPENAI_MODELS against the server (e.g. `ollama list`)',
};

/** What an OpenAI-compatible chat's operations share. */
export interface OpenAiChatDeps {
  client: Pick<OpenAI, 'chat'>;
  model: OpenAiModel;
  provider: ModelProvider;
  maxAttempts: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  logger?: Logger;
}

/** The server's answer to one request, sent again as `retryable` allows; failures as HttpErrors. */
export async function sendChat(
  deps: OpenAiChatDeps,
  request: ChatRequest,
  signal: AbortSignal,
): Promise<unknown> {
  const { client, model, logger } = deps;
  try {
    return await withRetries(
      () =>
        withOwnSignal(signal, (own) =>
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
            { signal: own },
          ),
        ),
      {
        maxAttempts: deps.maxAttempts,
        baseDelayMs: deps.retryBaseDelayMs,
        maxDelayMs: deps.retryMaxDelayMs,
        retryable,
        signal,
        onRetry: (error, attempt, delayMs) =>
          logger?.warn('model server call failed, retrying', {
            model: model.name,
            status: error instanceof OpenAI.APIError ? error.status : undefined,
            attempt,
            maxAttempts: deps.maxAttempts,
            delayMs,
          }),
      },
    );
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const failure = failureOf(error, signal);
    throw failure === undefined ? error : modelError(failure, model, deps.provider, error);
  }
}

/** The answer's text and usage from what the server sent; anything else is its failure. */
export function readCompletion(
  { model, provider, logger }: OpenAiChatDeps,
  body: unknown,
  request: ChatRequest,
): ChatAnswer {
  const completion = asCompletion(body);
  if (completion === undefined) {
    throw modelError(
      {
        kind: 'malformed',
        details: { answered: body === null ? 'null' : typeof body, step: request.step },
        providerMessage: String(typeof body === 'string' ? body : JSON.stringify(body)).slice(
          0,
          200,
        ),
      },
      model,
      provider,
      undefined,
    );
  }
  const choice = completion.choices[0];
  const text = (typeof choice?.message.content === 'string' ? choice.message.content : '').trim();
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
  const usage = completion.usage;
  return {
    text,
    ...(typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
      ? { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens }
      : {}),
  };
}

/** One chat completion: sent (with our retries), then read. */
export async function completeOpenAi(
  deps: OpenAiChatDeps,
  request: ChatRequest,
  signal: AbortSignal,
): Promise<ChatAnswer> {
  return readCompletion(deps, await sendChat(deps, request, signal), request);
}

/** Chat completions of one model, failures expressed as HttpErrors. */
export function createOpenAiChat(options: OpenAiChatOptions): ChatModel {
  const { client, model, logger } = options;
  const provider: ModelProvider = {
    name: 'the model server',
    advice: OPENAI_ADVICE,
    retryAfter: options.retryAfterSeconds ?? { throttled: 5, unavailable: 10 },
    logger,
  };
  const deps: OpenAiChatDeps = {
    client,
    model,
    provider,
    maxAttempts: options.maxAttempts,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
    retryMaxDelayMs: options.retryMaxDelayMs ?? 4_000,
    ...(logger ? { logger } : {}),
  };
  return { complete: bound(deps, completeOpenAi) };
}
