// Calls of a model of an OpenAI-compatible server (Ollama, LM Studio, llama.cpp's server, vLLM,
// OpenAI itself) through `POST {OPENAI_BASE_URL}/chat/completions`, with the official `openai`
// client: the ChatModel for such a server (one call with our retries, and what its failures
// mean for the client and the operator), and the client transcription shares.
import OpenAI from 'openai';
import type { OperatorCredentials } from '../aws/operator-credentials';
import type { Config } from '../config';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { nothingWasSent, patientFetch } from '../net/patient-fetch';
import { parseRetryAfter } from '../net/retry-after';
import { withRetries } from '../util/retry';
import type { OpenAiModel } from './catalog';
import { type ChatAnswer, type ChatModel, type ChatRequest, TEMPERATURE } from './chat';
import { type ModelFailure, type ModelProvider, modelError, modelProblems } from './failures';

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
 * Whether the body of a response failed to arrive whole: the connection closed mid-way. The SDK
 * reads the body after its own error handling, so this comes as fetch's TypeError, not as an
 * APIConnectionError.
 */
function bodyCutOff(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return (
    error instanceof TypeError && typeof cause?.code === 'string' && /^UND_ERR/.test(cause.code)
  );
}

/**
 * Whether a failed call is worth another attempt: throttling or a server error (the work was not
 * done), or a connection that never reached the server. A timeout or a connection that broke
 * after the request went out is not: the server may still be working on it (issue 34).
 */
function retryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    return error.status === 429 || error.status >= 500;
  }
  return nothingWasSent(error);
}

/**
 * What a failed call was, in the terms of failures.ts; undefined for an error that is neither the
 * server's nor the network's: a bug of ours, left as it is.
 */
function failureOf(error: unknown, signal: AbortSignal): ModelFailure | undefined {
  if (signal.aborted || error instanceof OpenAI.APIUserAbortError) return { kind: 'timeout' };
  const status = error instanceof OpenAI.APIError ? error.status : undefined;
  const details = { status, error: (error as Error)?.name };
  const providerMessage = error instanceof Error ? error.message : String(error);
  const retryAfterSeconds =
    error instanceof OpenAI.APIError
      ? parseRetryAfter(error.headers?.get('retry-after'))
      : undefined;
  if (status === 429) return { kind: 'throttled', details, retryAfterSeconds };
  if (
    error instanceof OpenAI.APIConnectionError ||
    bodyCutOff(error) ||
    (status !== undefined && status >= 500)
  ) {
    return { kind: 'unavailable', details, retryAfterSeconds };
  }
  if (status === 401 || status === 403) return { kind: 'access-denied', details, providerMessage };
  if (status === 404) return { kind: 'not-found', details, providerMessage };
  if (error instanceof OpenAI.APIError) return { kind: 'rejected', details, providerMessage };
  // A 200 whose body says it is JSON and is not (cut mid-way, or an error page so labelled).
  if (error instanceof SyntaxError) return { kind: 'malformed', details, providerMessage };
  return undefined;
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

/**
 * Runs `call` with a signal of its own that follows `signal`, and lets go of `signal` when it
 * ends. The SDK adds an abort listener to the signal of every request and never removes it: one
 * signal shared by the dozens of calls of a long summary would collect one per call (Node warns
 * of a leak past ten), where this signal is dropped with its call.
 */
async function withOwnSignal<T>(signal: AbortSignal, call: (own: AbortSignal) => Promise<T>) {
  const own = new AbortController();
  const abort = () => own.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  try {
    return await call(own.signal);
  } finally {
    signal.removeEventListener('abort', abort);
  }
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

  async function complete(request: ChatRequest, signal: AbortSignal): Promise<ChatAnswer> {
    let body: unknown;
    try {
      body = await withRetries(
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
      if (error instanceof HttpError) throw error;
      const failure = failureOf(error, signal);
      throw failure === undefined ? error : modelError(failure, model, provider, error);
    }
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

  return { complete };
}
