// A local Bedrock Runtime that speaks the Converse wire protocol (JSON over HTTP/1.1): the
// real SDK client talks to it through AWS_ENDPOINT_URL_BEDROCK_RUNTIME or `endpoint`.
// Errors look like Bedrock's: the status code of the exception, an `x-amzn-errortype` header
// naming it, and a JSON body `{ "message": ... }`. Every request body is recorded.
//
//   const stub = await startBedrockStub();
//   stub.script('us.amazon.nova-micro-v1:0', ['throttle', 'throttle', 'success']);
//   ... point a client at stub.endpoint ...
//   expect(stub.requestsFor('us.amazon.nova-micro-v1:0')).toHaveLength(3);
//   await stub.close();
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoAnswer } from './echo-model';

/** A Converse request as the stub received it. */
export interface RecordedRequest {
  /** Model id from the path, URL-decoded (e.g. `us.amazon.nova-micro-v1:0`). */
  modelId: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (ConverseRequest minus modelId). */
  body: ConverseBody;
  /** Text of the `system` blocks, joined with newlines. */
  system: string;
  /** Text of the last user message, joined. */
  userText: string;
  /** What the stub answered (absent while a request hangs). */
  response?: { status: number; errorType?: string; body: unknown };
  /** When it arrived and when it was answered (epoch ms), to see which calls overlapped. */
  receivedAt: number;
  answeredAt?: number;
}

export interface ConverseBody {
  messages?: { role: string; content: { text?: string }[] }[];
  system?: { text?: string }[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number };
  toolConfig?: unknown;
  additionalModelRequestFields?: unknown;
  [field: string]: unknown;
}

/** Bedrock's exceptions and their status codes (from the service model). */
export const BEDROCK_ERRORS = {
  ThrottlingException: 429,
  ModelNotReadyException: 429,
  ServiceUnavailableException: 503,
  InternalServerException: 500,
  AccessDeniedException: 403,
  ValidationException: 400,
  ServiceQuotaExceededException: 400,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
} as const;
export type BedrockErrorName = keyof typeof BEDROCK_ERRORS;

/**
 * One scripted answer. Shorthands:
 * - 'success': a deterministic echo answer (see `echoAnswer` in echo-model.ts) with usage numbers;
 * - 'throttle' (429 ThrottlingException), 'not-ready' (429 ModelNotReadyException),
 *   'unavailable' (503), 'internal' (500), 'access-denied' (403), 'validation' (400),
 *   'not-found' (404), 'model-timeout' (408);
 * - 'hang': never answers (until the client gives up or the stub closes);
 * - `{ raw, contentType }`: a 200 with that body as it is (what a proxy sends in Bedrock's place).
 */
export type StubStep =
  | 'success'
  | 'throttle'
  | 'not-ready'
  | 'unavailable'
  | 'internal'
  | 'access-denied'
  | 'validation'
  | 'not-found'
  | 'model-timeout'
  | 'hang'
  | {
      /** Reply text, or a function of the request; default: the echo summary. */
      reply?: string | ((request: RecordedRequest) => string);
      /** Reasoning text sent before the answer, as thinking models do. */
      reasoning?: string;
      stopReason?: string;
      inputTokens?: number;
      outputTokens?: number;
      /** Answer after this long (to test deadlines with slow but working models). */
      delayMs?: number;
    }
  | { error: BedrockErrorName; message?: string; status?: number }
  | { raw: string; contentType?: string };

export interface BedrockStub {
  /** `http://127.0.0.1:<port>`: pass as `endpoint` or AWS_ENDPOINT_URL_BEDROCK_RUNTIME. */
  endpoint: string;
  /** Every request received, in arrival order (live array). */
  requests: RecordedRequest[];
  /** The requests for one model id. */
  requestsFor(modelId: string): RecordedRequest[];
  /**
   * Scripts the answers for a model id ('*' for any model without its own script). Steps are
   * used in order, one per request; the last step then repeats forever. Unscripted: 'success'.
   */
  script(modelId: string, steps: StubStep[]): void;
  /** Forgets scripts and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

const ERROR_SHORTHANDS: Record<string, { error: BedrockErrorName; message: string }> = {
  throttle: {
    error: 'ThrottlingException',
    message: 'Too many requests, please wait before trying again.',
  },
  'not-ready': {
    error: 'ModelNotReadyException',
    message: 'Model is not ready for inference. Wait and try your request again.',
  },
  unavailable: {
    error: 'ServiceUnavailableException',
    message: 'Bedrock is unable to process your request.',
  },
  internal: {
    error: 'InternalServerException',
    message: 'The server encountered an internal error.',
  },
  'access-denied': {
    error: 'AccessDeniedException',
    message: "You don't have access to the model with the specified model ID.",
  },
  validation: {
    error: 'ValidationException',
    message: 'Malformed input request, please reformat your input and try again.',
  },
  'not-found': {
    error: 'ResourceNotFoundException',
    message: 'Could not resolve the foundation model from the provided model identifier.',
  },
  'model-timeout': {
    error: 'ModelTimeoutException',
    message: 'Model has timed out in processing the request.',
  },
};

function textOf(blocks: { text?: string }[] | undefined): string {
  return (blocks ?? []).map((block) => block.text ?? '').join('\n');
}

/** Starts the stub on a free port of 127.0.0.1. */
export async function startBedrockStub(): Promise<BedrockStub> {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, { steps: StubStep[]; next: number }>();

  const nextStep = (modelId: string): StubStep => {
    const script = scripts.get(modelId) ?? scripts.get('*');
    if (script === undefined || script.steps.length === 0) return 'success';
    const step = script.steps[Math.min(script.next, script.steps.length - 1)] as StubStep;
    script.next++;
    return step;
  };

  const send = (
    res: ServerResponse,
    recorded: RecordedRequest | undefined,
    status: number,
    body: unknown,
    errorType?: string,
  ) => {
    const payload = JSON.stringify(body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
      'x-amzn-requestid': randomUUID(),
    };
    if (errorType !== undefined) {
      headers['x-amzn-errortype'] =
        `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`;
    }
    if (recorded) {
      recorded.response = { status, body, ...(errorType ? { errorType } : {}) };
      recorded.answeredAt = Date.now();
    }
    res.writeHead(status, headers).end(payload);
  };

  const sendError = (
    res: ServerResponse,
    recorded: RecordedRequest | undefined,
    error: BedrockErrorName,
    message: string,
    status: number = BEDROCK_ERRORS[error],
  ) => send(res, recorded, status, { message }, error);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const match = /^\/model\/([^/]+)\/converse$/.exec(req.url ?? '');
    if (req.method !== 'POST' || match === null) {
      sendError(
        res,
        undefined,
        'ValidationException',
        `Unsupported operation ${req.method} ${req.url}`,
        404,
      );
      return;
    }
    let body: ConverseBody;
    try {
      body = JSON.parse(raw) as ConverseBody;
    } catch {
      sendError(
        res,
        undefined,
        'ValidationException',
        'Malformed input request: body is not JSON.',
      );
      return;
    }
    const lastUser = [...(body.messages ?? [])]
      .reverse()
      .find((message) => message.role === 'user');
    const recorded: RecordedRequest = {
      modelId: decodeURIComponent(match[1] as string),
      method: req.method,
      path: req.url ?? '',
      headers: req.headers,
      body,
      system: textOf(body.system),
      userText: textOf(lastUser?.content),
      receivedAt: Date.now(),
    };
    requests.push(recorded);

    // What real Bedrock checks before it runs anything.
    if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256')) {
      send(
        res,
        recorded,
        403,
        { message: 'Missing Authentication Token' },
        'UnrecognizedClientException',
      );
      return;
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      sendError(res, recorded, 'ValidationException', 'The model requires at least one message.');
      return;
    }

    const step = nextStep(recorded.modelId);
    if (step === 'hang') return; // the socket stays open until the client aborts or we close
    if (typeof step === 'string' && step !== 'success') {
      const known = ERROR_SHORTHANDS[step] as { error: BedrockErrorName; message: string };
      sendError(res, recorded, known.error, known.message);
      return;
    }
    if (typeof step === 'object' && 'error' in step) {
      sendError(res, recorded, step.error, step.message ?? step.error, step.status);
      return;
    }
    if (typeof step === 'object' && 'raw' in step) {
      recorded.response = { status: 200, body: step.raw };
      res.writeHead(200, { 'content-type': step.contentType ?? 'application/json' }).end(step.raw);
      return;
    }
    const options = step === 'success' ? {} : step;
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const reply =
      typeof options.reply === 'function'
        ? options.reply(recorded)
        : (options.reply ?? echoAnswer(recorded));
    const inputTokens =
      options.inputTokens ?? Math.ceil((recorded.system.length + recorded.userText.length) / 4);
    const outputTokens = options.outputTokens ?? Math.ceil(reply.length / 4);
    send(res, recorded, 200, {
      output: {
        message: {
          role: 'assistant',
          content: [
            ...(options.reasoning === undefined
              ? []
              : [
                  {
                    reasoningContent: {
                      reasoningText: { text: options.reasoning, signature: 'stub-signature' },
                    },
                  },
                ]),
            { text: reply },
          ],
        },
      },
      stopReason: options.stopReason ?? 'end_turn',
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      metrics: { latencyMs: options.delayMs ?? 1 },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendError(res, undefined, 'InternalServerException', String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    requestsFor: (modelId) => requests.filter((request) => request.modelId === modelId),
    script(modelId, steps) {
      scripts.set(modelId, { steps: [...steps], next: 0 });
    },
    reset() {
      scripts.clear();
      requests.length = 0;
    },
    close() {
      // Hanging requests keep their sockets open; close() alone would wait for them forever.
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
