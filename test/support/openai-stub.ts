// A local OpenAI-compatible server that speaks `POST {base}/chat/completions` as OpenAI, Ollama
// and vLLM do (JSON over HTTP/1.1): the real `openai` client talks to it through
// OPENAI_BASE_URL. Errors look like OpenAI's: the status code and a JSON body
// `{ "error": { "message", "type", "code" } }`. Every request is recorded.
//
//   const stub = await startOpenAiStub();
//   stub.script('llama3.2', ['throttle', 'success']);
//   ... OPENAI_BASE_URL: stub.baseUrl, OPENAI_MODELS: 'llama3.2' ...
//   expect(stub.requestsFor('llama3.2')).toHaveLength(2);
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoAnswer } from './echo-model';

export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  max_tokens?: number;
  temperature?: number;
  [field: string]: unknown;
}

/** A chat completion request as the stub received it. */
export interface RecordedChat {
  model: string;
  headers: Record<string, string | string[] | undefined>;
  body: ChatBody;
  /** The system message's text. */
  system: string;
  /** The last user message's text. */
  userText: string;
  /** What the stub answered (absent while a request hangs). */
  response?: { status: number; body: unknown };
  /** When it arrived and when it was answered (epoch ms), to see which calls overlapped. */
  receivedAt: number;
  answeredAt?: number;
}

/**
 * One scripted answer: 'success' (the echo answer of echo-model.ts, with usage), 'throttle'
 * (429, Retry-After 7), 'unauthorized' (401), 'unknown-model' (404), 'unavailable' (503),
 * 'hang' (never answers), 'cut-off' (a 200 whose connection closes halfway through its body),
 * `{ raw, contentType }` (a 200 with that body as it is, JSON by default: what a proxy or a
 * broken server sends in place of a chat completion), or a custom reply (the echo answer when it
 * names no text), possibly late: `{ delayMs: 2000 }` is a model as slow as a laptop's CPU.
 */
export type ChatStep =
  | 'success'
  | 'throttle'
  | 'unauthorized'
  | 'unknown-model'
  | 'unavailable'
  | 'hang'
  | 'cut-off'
  | { raw: string; contentType?: string }
  | { reply?: string; finishReason?: string; delayMs?: number; usage?: false };

export interface OpenAiStub {
  /** `http://127.0.0.1:<port>/v1`: pass as OPENAI_BASE_URL. */
  baseUrl: string;
  /** Every request, in arrival order (live array). */
  requests: RecordedChat[];
  requestsFor(model: string): RecordedChat[];
  /**
   * Scripts the answers for a model ('*' for any without its own script). Steps are used in
   * order, one per request; the last one then repeats. Unscripted: 'success'.
   */
  script(model: string, steps: ChatStep[]): void;
  /** The stub then answers 401 to any request without `Authorization: Bearer <key>`. */
  requireKey(key: string | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

const ERRORS = {
  throttle: {
    status: 429,
    headers: { 'retry-after': '7' },
    error: {
      message: 'Rate limit reached for requests',
      type: 'requests',
      code: 'rate_limit_exceeded',
    },
  },
  unauthorized: {
    status: 401,
    headers: {},
    error: {
      message:
        'Incorrect API key provided: sk-stub***. You can find your API key at https://platform.example/keys.',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    },
  },
  'unknown-model': {
    status: 404,
    headers: {},
    error: {
      message: 'model "llama9" not found, try pulling it first',
      type: 'api_error',
      code: null,
    },
  },
  unavailable: {
    status: 503,
    headers: {},
    error: { message: 'The server is overloaded.', type: 'server_error', code: null },
  },
} as const;

/** Starts the stub on a free port of 127.0.0.1. */
export async function startOpenAiStub(): Promise<OpenAiStub> {
  const requests: RecordedChat[] = [];
  const scripts = new Map<string, { steps: ChatStep[]; next: number }>();
  let requiredKey: string | undefined;

  const nextStep = (model: string): ChatStep => {
    const script = scripts.get(model) ?? scripts.get('*');
    if (script === undefined || script.steps.length === 0) return 'success';
    const step = script.steps[Math.min(script.next, script.steps.length - 1)] as ChatStep;
    script.next++;
    return step;
  };

  const send = (
    res: ServerResponse,
    recorded: RecordedChat | undefined,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const payload = JSON.stringify(body);
    if (recorded) {
      recorded.response = { status, body };
      recorded.answeredAt = Date.now();
    }
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(payload)),
        ...headers,
      })
      .end(payload);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      send(res, undefined, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      return;
    }
    let body: ChatBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
    } catch {
      send(res, undefined, 400, {
        error: { message: 'body is not JSON', type: 'invalid_request_error' },
      });
      return;
    }
    const messages = body.messages ?? [];
    const recorded: RecordedChat = {
      model: String(body.model ?? ''),
      headers: req.headers,
      body,
      system: messages.find((message) => message.role === 'system')?.content ?? '',
      userText: [...messages].reverse().find((message) => message.role === 'user')?.content ?? '',
      receivedAt: Date.now(),
    };
    requests.push(recorded);

    if (requiredKey !== undefined && req.headers.authorization !== `Bearer ${requiredKey}`) {
      const { status, error } = ERRORS.unauthorized;
      send(res, recorded, status, { error });
      return;
    }
    const step = nextStep(recorded.model);
    if (step === 'hang') return; // open until the client aborts or the stub closes
    if (step === 'cut-off') {
      const payload = JSON.stringify({
        id: 'chatcmpl-cut',
        object: 'chat.completion',
        choices: [],
      });
      recorded.response = { status: 200, body: payload.slice(0, 20) };
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(payload.length),
      });
      res.write(payload.slice(0, 20), () => res.destroy());
      return;
    }
    if (typeof step === 'object' && 'raw' in step) {
      recorded.response = { status: 200, body: step.raw };
      recorded.answeredAt = Date.now();
      res
        .writeHead(200, {
          'content-type': step.contentType ?? 'application/json',
          'content-length': String(Buffer.byteLength(step.raw)),
        })
        .end(step.raw);
      return;
    }
    if (typeof step === 'string' && step !== 'success') {
      const { status, headers, error } = ERRORS[step];
      send(res, recorded, status, { error }, headers);
      return;
    }
    const options =
      step === 'success'
        ? { reply: echoAnswer(recorded) }
        : { ...step, reply: step.reply ?? echoAnswer(recorded) };
    if ('delayMs' in options && options.delayMs) {
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    }
    // A client that gave up meanwhile (a cancelled job) gets nothing.
    if (res.destroyed) return;
    const promptTokens = Math.ceil((recorded.system.length + recorded.userText.length) / 4);
    const completionTokens = Math.ceil(options.reply.length / 4);
    send(res, recorded, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: recorded.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: options.reply },
          finish_reason: ('finishReason' in options && options.finishReason) || 'stop',
        },
      ],
      ...('usage' in options && options.usage === false
        ? {}
        : {
            usage: {
              prompt_tokens: promptTokens,
              completion_tokens: completionTokens,
              total_tokens: promptTokens + completionTokens,
            },
          }),
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, undefined, 500, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    requestsFor: (model) => requests.filter((request) => request.model === model),
    script(model, steps) {
      scripts.set(model, { steps: [...steps], next: 0 });
    },
    requireKey(key) {
      requiredKey = key;
    },
    reset() {
      scripts.clear();
      requests.length = 0;
      requiredKey = undefined;
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
