// Calls of a Bedrock model through the Converse API: the ChatModel for Bedrock (one Converse
// call, and what its failures mean for the client and the operator).
import type {
  ContentBlock,
  ConverseCommandInput,
  ConverseCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { type BedrockClient, classifyBedrockError } from '../aws/bedrock';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { bound } from '../util/bound';
import type { BedrockModel } from './catalog';
import { type ChatAnswer, type ChatModel, type ChatRequest, TEMPERATURE } from './chat';
import { type ModelFailureKind, type ModelProvider, modelError, modelProblems } from './failures';

export interface BedrockChatOptions {
  /** The process-wide client (see createBedrockClient); only `converse` is used. */
  client: Pick<BedrockClient, 'converse'>;
  model: BedrockModel;
  /** Receives operator-facing lines (access denied, rejected requests, retries). */
  logger?: Logger;
  /** Retry-After sent with a 503, in seconds (defaults: throttled 5, unavailable 10). */
  retryAfterSeconds?: { throttled: number; unavailable: number; credentials: number };
}

/** What the operator reads when only they can fix a failure. */
const BEDROCK_ADVICE: ModelProvider['advice'] = {
  'access-denied':
    'Bedrock denied access to the model: enable access to it in the Bedrock console for this ' +
    'account and region, and allow bedrock:InvokeModel on the inference profile and its ' +
    'foundation models in every destination region',
  'credentials-missing':
    'No AWS credentials for Bedrock: on Lambda the function role provides them; locally set ' +
    'AWS_PROFILE (after `aws sso login` or `aws configure`) or AWS_ACCESS_KEY_ID and ' +
    'AWS_SECRET_ACCESS_KEY, or offer only the extractive model (ALLOWED_MODELS=extractive)',
  'not-found': 'Bedrock does not know the model id in this region: check the catalog entry',
};

/**
 * What a failed Converse call was, as a ModelFailure kind; undefined for an error that is
 * not Bedrock's (nor the network's): a bug of ours, left as it is.
 */
function failureKind(error: unknown): ModelFailureKind | undefined {
  const { kind } = classifyBedrockError(error);
  switch (kind) {
    case 'aborted':
    case 'timeout':
      return 'timeout';
    case 'throttled':
    case 'unavailable':
    case 'access-denied':
    case 'credentials-missing':
    case 'not-found':
      return kind;
    case 'invalid-request':
    case 'model-error':
      return 'rejected';
    case 'unknown':
      // The SDK's deserializer failed: a body that is not a Converse answer.
      if (error instanceof SyntaxError) return 'malformed';
      // An AWS error we do not know is still the model's failure; anything else is our bug.
      return error instanceof Error && '$metadata' in error ? 'rejected' : undefined;
  }
}

/** What a Bedrock chat's operations share. */
export interface BedrockChatDeps {
  client: Pick<BedrockClient, 'converse'>;
  model: BedrockModel;
  logger?: Logger;
  provider: ModelProvider;
}

/** The Converse input of one request: no tools, the model's own fields. */
export function converseInput(model: BedrockModel, request: ChatRequest): ConverseCommandInput {
  return {
    modelId: model.modelId,
    system: [{ text: request.system }],
    messages: [{ role: 'user', content: [{ text: request.user }] }],
    // No toolConfig on purpose: a transcript cannot make the model call anything.
    inferenceConfig: model.temperature
      ? { maxTokens: request.maxTokens, temperature: TEMPERATURE }
      : { maxTokens: request.maxTokens },
    ...(model.requestFields === undefined
      ? {}
      : {
          additionalModelRequestFields:
            model.requestFields as ConverseCommandInput['additionalModelRequestFields'],
        }),
  };
}

/** One Converse call; failures as HttpErrors. */
export async function completeBedrock(
  deps: BedrockChatDeps,
  request: ChatRequest,
  signal: AbortSignal,
): Promise<ChatAnswer> {
  const { client, model, logger } = deps;
  let output: ConverseCommandOutput;
  try {
    output = await client.converse(converseInput(model, request), {
      signal,
      ...(logger ? { logger } : {}),
    });
  } catch (error) {
    throw bedrockHttpError(deps, error);
  }
  return readConverseAnswer(deps, output, request);
}

/** The answer's text (text blocks only) and usage; no text is the model's failure. */
export function readConverseAnswer(
  { model, logger }: BedrockChatDeps,
  output: ConverseCommandOutput,
  request: ChatRequest,
): ChatAnswer {
  const blocks: ContentBlock[] = output.output?.message?.content ?? [];
  // Only text blocks: reasoning blocks of thinking models are not part of the answer.
  const text = blocks
    .map((block) => ('text' in block && typeof block.text === 'string' ? block.text : ''))
    .join('')
    .trim();
  if (text === '') {
    logger?.error('Bedrock returned no summary text', {
      model: model.name,
      modelId: model.modelId,
      stopReason: output.stopReason,
      step: request.step,
    });
    throw modelProblems.noSummary();
  }
  if (output.stopReason === 'max_tokens') {
    logger?.warn('Bedrock summary hit maxTokens and may end mid-sentence', {
      model: model.name,
      modelId: model.modelId,
      maxTokens: request.maxTokens,
      step: request.step,
    });
  }
  return {
    text,
    ...(output.usage?.inputTokens === undefined ? {} : { inputTokens: output.usage.inputTokens }),
    ...(output.usage?.outputTokens === undefined
      ? {}
      : { outputTokens: output.usage.outputTokens }),
  };
}

/** The client's answer to a failed call; an error that is not Bedrock's is our bug, as is. */
export function bedrockHttpError({ model, provider }: BedrockChatDeps, error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const kind = failureKind(error);
  if (kind === undefined) return error;
  const requestId = (error as { $metadata?: { requestId?: string } }).$metadata?.requestId;
  return modelError(
    {
      kind,
      details: { modelId: model.modelId, error: (error as Error).name, requestId },
      providerMessage: (error as Error).message,
    },
    model,
    provider,
    error,
  );
}

/** Converse calls to one Bedrock model, failures expressed as HttpErrors. */
export function createBedrockChat(options: BedrockChatOptions): ChatModel {
  const { client, model, logger } = options;
  const provider: ModelProvider = {
    name: 'Bedrock',
    advice: BEDROCK_ADVICE,
    retryAfter: options.retryAfterSeconds ?? { throttled: 5, unavailable: 10, credentials: 300 },
    logger,
  };
  return {
    complete: bound({ client, model, provider, ...(logger ? { logger } : {}) }, completeBedrock),
  };
}
