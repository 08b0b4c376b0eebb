// The fetch of the OpenAI-compatible clients (speech-to-text, language models): a request may
// rightly wait many minutes for its answer (a server transcribes a whole upload before its
// first byte), and the caller's AbortSignal is its only deadline. Node's own fetch drops a
// request whose answer headers take more than 300 s (undici's Agent defaults, headersTimeout and
// bodyTimeout), whatever timeout the SDK is given, and the SDK then sent the upload again.
//
// undici's own fetch over its own Agent, both from the package (loaded on first use through
// requireShipped, so that the Lambda bundles stay small): a dispatcher of undici 7 handed to
// Node 20's fetch (undici 6) relies on compatibility shims between majors (openai/openai-node
// #1886, nodejs/undici #4827). What the package's fetch does not read, the global FormData the
// OpenAI SDK builds, is handed over as undici's own. Failures are still fetch's TypeError with
// undici's error as its cause, so callers can tell a refused connection from one that broke.
import type * as Undici from 'undici';
import { requireShipped } from '../shipped';

/** How much of an error answer (4xx, 5xx) is read: a reason, not a page of megabytes. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** A fetch the OpenAI SDK takes (its `fetch` option). */
export type PatientFetch = typeof globalThis.fetch & { Response: typeof globalThis.Response };

/**
 * A fetch without undici's own header and body timeouts (the caller's signal ends a request),
 * that reads at most ERROR_BODY_BYTES of an answer that is not a success.
 */
export function patientFetch(): PatientFetch {
  let loaded: { undici: typeof Undici; agent: Undici.Agent } | undefined;
  const load = () => {
    if (!loaded) {
      const undici = requireShipped<typeof Undici>('undici');
      loaded = { undici, agent: new undici.Agent({ headersTimeout: 0, bodyTimeout: 0 }) };
    }
    return loaded;
  };

  const patient = async (input: string | URL | Request, init?: RequestInit) => {
    const { undici, agent } = load();
    const body = init?.body instanceof FormData ? undiciForm(init.body, undici) : init?.body;
    const response = await undici.fetch(input as string | URL, {
      ...(init as Undici.RequestInit),
      body: body as Undici.RequestInit['body'],
      dispatcher: agent,
    });
    return (response.ok ? response : await errorAnswer(response)) as unknown as Response;
  };
  // The SDK checks that a fetch can send the global FormData with the fetch's own Response
  // class; this one can (undiciForm), so it names the global one.
  return Object.assign(patient, { Response: globalThis.Response }) as PatientFetch;
}

/** The global FormData as undici's own: the same entries, files not copied. */
function undiciForm(form: FormData, undici: typeof Undici): Undici.FormData {
  const own = new undici.FormData();
  for (const [name, value] of form) {
    if (typeof value === 'string') own.append(name, value);
    else own.append(name, value, value.name);
  }
  return own;
}

/** An answer that is not a success, its body cut at ERROR_BODY_BYTES (the rest not read). */
async function errorAnswer(response: Awaited<ReturnType<typeof Undici.fetch>>) {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  while (reader && total < ERROR_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.subarray(0, ERROR_BODY_BYTES - total));
    total += value.byteLength;
  }
  await reader?.cancel().catch(() => undefined);
  const headers = new Headers();
  for (const [name, value] of response.headers) {
    if (name !== 'content-length' && name !== 'content-encoding') headers.append(name, value);
  }
  return new Response(Buffer.concat(chunks), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** Connection errors that mean the request never reached a server: it may be sent again. */
const NOTHING_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Whether a failed request surely never reached the server (the connection was refused, the
 * host not found): the only failure of a connection worth sending again. A timeout or a reset
 * after the body went out is not: the server may still be working on it.
 */
export function nothingWasSent(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const { code, errors } = current as { code?: unknown; errors?: unknown };
    if (typeof code === 'string' && NOTHING_SENT.has(code)) return true;
    // Node tries each address of a host (autoSelectFamily): all of them refused.
    if (
      Array.isArray(errors) &&
      errors.length > 0 &&
      errors.every((each) => nothingWasSent(each))
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
