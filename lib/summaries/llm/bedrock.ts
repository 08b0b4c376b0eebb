// Summaries by a Bedrock model through the Converse API: the ChatModel of llm.ts for Bedrock
// (one Converse call, and what its failures mean for the client and the operator), and the
// summarizer made of it.
import type {
  ContentBlock,
  ConverseCommandInput,
  ConverseCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { type BedrockClient, classifyBedrockError } from '../../aws/bedrock';
import { BadGatewayError, HttpError, ServiceUnavailableError } from '../../errors';
import type { Logger } from '../../logger';
import type { BedrockModel } from '../catalog';
import type { Summarizer } from '../types';
import {
  type ChatAnswer,
  type ChatModel,
  type ChatRequest,
  createLlmSummarizer,
  modelProblems,
  TEMPERATURE,
} from './summarizer';

export interface BedrockSummarizerOptions {
  /** The process-wide client (see createBedrockClient); only `converse` is used. */
  client: Pick<BedrockClient, 'converse'>;
  model: BedrockModel;
  /** Parts summarised at the same time for long transcripts (BEDROCK_CONCURRENCY). */
  concurrency: number;
  /** Receives operator-facing lines (access denied, rejected requests, retries). */
  logger?: Logger;
  /** Retry-After sent with a 503, in seconds (defaults: throttled 5, unavailable 10). */
  retryAfterSeconds?: { throttled: number; unavailable: number; credentials: number };
}

/** Converse calls to one Bedrock model, failures expressed as HttpErrors. */
export function createBedrockChat(
  options: Omit<BedrockSummarizerOptions, 'concurrency'>,
): ChatModel {
  const { client, model, logger } = options;
  const retryAfter = options.retryAfterSeconds ?? {
    throttled: 5,
    unavailable: 10,
    // An operator has to act: asking again within seconds would not help.
    credentials: 300,
  };

  async function complete(request: ChatRequest, signal: AbortSignal): Promise<ChatAnswer> {
    const input: ConverseCommandInput = {
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
    let output: ConverseCommandOutput;
    try {
      output = await client.converse(input, { signal, ...(logger ? { logger } : {}) });
    } catch (error) {
      throw toHttpError(error);
    }
    return readAnswer(output, request);
  }

  function readAnswer(output: ConverseCommandOutput, request: ChatRequest): ChatAnswer {
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

  function toHttpError(error: unknown): unknown {
    if (error instanceof HttpError) return error;
    const { kind } = classifyBedrockError(error);
    const name = error instanceof Error ? error.name : typeof error;
    const awsMessage = error instanceof Error ? error.message : String(error);
    const requestId = (error as { $metadata?: { requestId?: string } }).$metadata?.requestId;
    const context = { model: model.name, modelId: model.modelId, error: name, requestId };
    switch (kind) {
      case 'aborted':
      case 'timeout':
        return modelProblems.timeout(error);
      case 'throttled':
        logger?.warn('Bedrock throttled the request after all retries', context);
        return modelProblems.throttled(retryAfter.throttled, error);
      case 'unavailable':
        logger?.warn('Bedrock unavailable after all retries', context);
        return modelProblems.unavailable(retryAfter.unavailable, error);
      case 'access-denied':
        logger?.error(
          'Bedrock denied access to the model: enable access to it in the Bedrock console for ' +
            'this account and region, and allow bedrock:InvokeModel on the inference profile ' +
            'and its foundation models in every destination region',
          { ...context, awsMessage },
        );
        return new BadGatewayError(
          'model-access-denied',
          `The model "${model.name}" is not enabled for this service.`,
          { cause: error },
        );
      case 'credentials-missing':
        logger?.error(
          'No AWS credentials for Bedrock: on Lambda the function role provides them; locally ' +
            'set AWS_PROFILE (after `aws sso login` or `aws configure`) or AWS_ACCESS_KEY_ID and ' +
            'AWS_SECRET_ACCESS_KEY, or offer only the extractive model (ALLOWED_MODELS=extractive)',
          { ...context, awsMessage },
        );
        return new ServiceUnavailableError(
          'model-credentials-missing',
          `The model "${model.name}" cannot be called: this service has no AWS credentials.`,
          retryAfter.credentials,
          { cause: error },
        );
      case 'not-found':
        logger?.error(
          'Bedrock does not know the model id in this region: check the catalog entry',
          { ...context, awsMessage },
        );
        return new BadGatewayError(
          'model-error',
          `The model "${model.name}" is not available in this deployment.`,
          { cause: error },
        );
      case 'invalid-request':
      case 'model-error':
        logger?.error('Bedrock rejected the request or failed to process it', {
          ...context,
          awsMessage,
        });
        return modelProblems.failed(error);
      case 'unknown':
        // An AWS error we do not know is still the model's failure; anything else is our bug.
        if (error instanceof Error && '$metadata' in error) {
          logger?.error('Bedrock call failed', { ...context, awsMessage });
          return modelProblems.failed(error);
        }
        return error;
    }
  }

  return { complete };
}

/**
 * A Summarizer backed by one Bedrock model. Cheap to create (the SDK client is shared), so one
 * may be made per request for the model the request names. Its `summarize` throws HttpErrors:
 * 503 (throttled/unavailable, with Retry-After), 504 (deadline), 502 (access denied, rejected).
 */
export function createBedrockSummarizer(options: BedrockSummarizerOptions): Summarizer {
  return createLlmSummarizer({
    chat: createBedrockChat(options),
    limits: options.model,
    concurrency: options.concurrency,
  });
}
