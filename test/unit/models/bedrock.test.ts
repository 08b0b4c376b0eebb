// The operations of a Bedrock chat, each alone: the Converse input of a request, what is read
// from Converse's answer, and the client's answer to a failed call. The errors are the SDK's
// own exception classes (@aws-sdk/client-bedrock-runtime), as its deserializer throws them,
// with the $metadata every service exception carries.
import {
  AccessDeniedException,
  ModelErrorException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../../lib/errors';
import { ServiceUnavailableError } from '../../../lib/errors';
import {
  type BedrockChatDeps,
  bedrockHttpError,
  converseInput,
  readConverseAnswer,
} from '../../../lib/models/bedrock';
import type { BedrockModel } from '../../../lib/models/catalog';
import type { ChatRequest } from '../../../lib/models/chat';

const model: BedrockModel = {
  kind: 'bedrock',
  name: 'nova-lite',
  label: 'Amazon Nova Lite',
  modelId: 'us.amazon.nova-lite-v1:0',
  contextTokens: 300_000,
  maxOutputTokens: 5_000,
  inputPricePer1k: 0.00006,
  outputPricePer1k: 0.00024,
  temperature: true,
  reasoningReserveTokens: 0,
};
const request: ChatRequest = {
  system: 'Summarize.',
  user: 'A transcript.',
  maxTokens: 900,
  step: 'part',
};
const metadata = { httpStatusCode: 400, requestId: 'req-1' };

function depsWithLog() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => {
    lines.push({ level, message });
  };
  const logger = { info: at('info'), warn: at('warn'), error: at('error') };
  const deps: BedrockChatDeps = {
    client: { converse: async () => ({}) as never },
    model,
    logger,
    provider: {
      name: 'Bedrock',
      advice: { 'access-denied': 'enable the model', 'not-found': 'check the id' },
      retryAfter: { throttled: 5, unavailable: 10, credentials: 300 },
      logger,
    },
  };
  return { deps, lines };
}

describe('converseInput', () => {
  it('sends the prompts, the answer’s size and the temperature, and no tools', () => {
    const input = converseInput(model, request);
    expect(input).toEqual({
      modelId: 'us.amazon.nova-lite-v1:0',
      system: [{ text: 'Summarize.' }],
      messages: [{ role: 'user', content: [{ text: 'A transcript.' }] }],
      inferenceConfig: { maxTokens: 900, temperature: expect.any(Number) },
    });
    expect(input).not.toHaveProperty('toolConfig');
  });

  it('leaves the temperature out for a model that rejects it, and passes its own fields', () => {
    const reasoning = {
      ...model,
      temperature: false,
      requestFields: { thinking: { type: 'disabled' } },
    };
    expect(converseInput(reasoning, request)).toMatchObject({
      inferenceConfig: { maxTokens: 900 },
      additionalModelRequestFields: { thinking: { type: 'disabled' } },
    });
    expect(converseInput(reasoning, request).inferenceConfig).not.toHaveProperty('temperature');
  });
});

describe('readConverseAnswer', () => {
  it('joins the text blocks only (a thinking model’s reasoning is no part of the answer)', () => {
    const { deps } = depsWithLog();
    const answer = readConverseAnswer(
      deps,
      {
        $metadata: {},
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'Let me think.' } } },
              { text: ' A summary' },
              { text: ' in two blocks. ' },
            ],
          },
        },
        stopReason: 'end_turn',
        usage: { inputTokens: 1200, outputTokens: 40, totalTokens: 1240 },
        metrics: { latencyMs: 1 },
      },
      request,
    );
    expect(answer).toEqual({
      text: 'A summary in two blocks.',
      inputTokens: 1200,
      outputTokens: 40,
    });
  });

  it('answers 502 model-error when only reasoning or nothing came, and logs it', () => {
    const { deps, lines } = depsWithLog();
    for (const content of [[], [{ reasoningContent: { reasoningText: { text: 'Hmm.' } } }]]) {
      expect(() =>
        readConverseAnswer(
          deps,
          {
            $metadata: {},
            output: { message: { role: 'assistant', content } },
            stopReason: 'max_tokens',
            usage: undefined,
            metrics: undefined,
          },
          request,
        ),
      ).toThrow(expect.objectContaining({ status: 502, type: 'model-error' }));
    }
    expect(lines.map((line) => line.message)).toEqual([
      'Bedrock returned no summary text',
      'Bedrock returned no summary text',
    ]);
  });

  it('keeps an answer cut at maxTokens, with a warning', () => {
    const { deps, lines } = depsWithLog();
    const answer = readConverseAnswer(
      deps,
      {
        $metadata: {},
        output: { message: { role: 'assistant', content: [{ text: 'A summary that' }] } },
        stopReason: 'max_tokens',
        usage: undefined,
        metrics: undefined,
      },
      request,
    );
    expect(answer).toEqual({ text: 'A summary that' });
    expect(lines).toEqual([{ level: 'warn', message: expect.stringContaining('maxTokens') }]);
  });
});

describe('bedrockHttpError', () => {
  const answer = (error: unknown) => bedrockHttpError(depsWithLog().deps, error) as HttpError;

  it('answers 503 with the provider’s Retry-After for throttling and missing credentials', () => {
    const throttled = answer(
      new ThrottlingException({ message: 'Too many tokens', $metadata: metadata }),
    );
    expect([throttled.status, throttled.type, throttled.headers['Retry-After']]).toEqual([
      503,
      'model-throttled',
      '5',
    ]);
    const noCredentials = answer(
      Object.assign(new Error('Could not load credentials from any providers'), {
        name: 'CredentialsProviderError',
      }),
    );
    expect([
      noCredentials.status,
      noCredentials.type,
      noCredentials.headers['Retry-After'],
    ]).toEqual([503, 'model-credentials-missing', '300']);
  });

  it('answers 502 for refusals: access denied, an invalid request, a model error, an AWS error we do not know', () => {
    expect(answer(new AccessDeniedException({ message: 'no', $metadata: metadata })).type).toBe(
      'model-access-denied',
    );
    for (const error of [
      new ValidationException({
        message: 'Input is too long for requested model.',
        $metadata: metadata,
      }),
      new ModelErrorException({ message: 'failed', $metadata: metadata }),
      Object.assign(new Error('new'), { name: 'SomethingNewException', $metadata: metadata }),
    ]) {
      expect([answer(error).status, answer(error).type], error.name).toEqual([502, 'model-error']);
    }
  });

  it('answers 502 for a body that is not a Converse answer, 504 for the model’s timeout', () => {
    let notJson: unknown;
    try {
      JSON.parse('<html>');
    } catch (error) {
      notJson = error;
    }
    expect(answer(notJson).status).toBe(502);
    expect(
      answer(
        Object.assign(new Error('slow'), { name: 'ModelTimeoutException', $metadata: metadata }),
      ).status,
    ).toBe(504);
  });

  it('leaves an HttpError and a bug of ours as they are', () => {
    const ours = new ServiceUnavailableError('storage-unavailable', 'Down.', 5);
    expect(answer(ours)).toBe(ours);
    const bug = new TypeError('cannot read properties of undefined');
    expect(answer(bug)).toBe(bug);
  });
});
