// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, what MCP clients
// use instead of registering): a client_id that is an https URL is the address of the client's
// metadata, fetched from there. Anyone can name any URL, so the fetch is guarded as the YouTube
// fetch is, and more: https only, no credentials, no redirects, a deadline and a size cap, and
// only public addresses. The address is checked on the socket's own DNS answer (the agent of
// request-filtering-agent), so a name that resolves to a public address when checked and to a
// private one when connected (DNS rebinding) is refused too; IP literals are checked alike.

import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { OAuthClient } from './clients';
import { acceptClientMetadata, isRefusal } from './metadata';

/** Why a client ID metadata document could not be used (said to the person on the error page). */
export class ClientMetadataError extends Error {
  override name = 'ClientMetadataError';
}

export interface ClientMetadataFetchOptions {
  /** Deadline of the whole fetch: connection, answer and body. */
  timeoutMs: number;
  /** Largest document accepted, in bytes. */
  maxBytes: number;
  /** Addresses allowed although not public (tests: their local TLS server). None by default. */
  allowAddresses?: readonly string[];
  /** A CA to trust besides the system's (tests: their self-signed certificate). */
  ca?: string;
  /** Resolves host names (tests: a name for their local server); the system's by default. */
  lookup?: LookupFunction;
  /**
   * Tests only: the port to connect to instead of the URL's. A host's real client_id URL names no
   * port (https://claude.ai/oauth/mcp-oauth-client-metadata), and a test's local TLS server
   * cannot listen on 443 without privileges. Never set outside tests.
   */
  testPort?: number;
}

/** The deadline and size cap of a client ID metadata document fetch. */
export const CLIENT_METADATA_TIMEOUT_MS = 5_000;
export const CLIENT_METADATA_MAX_BYTES = 16_384;

/** Why a client_id URL cannot be a metadata document's, or undefined. */
export function metadataUrlProblem(clientId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not hold credentials';
  if (clientId.includes('#')) return 'must not have a fragment';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path';
  // The URL parser removes dot segments: the client_id must be the URL as fetched, exactly.
  if (url.href !== clientId) return 'must be written in its normal form (no dot segments)';
  if (clientId.length > 2_000) return 'is too long';
  return undefined;
}

/** The body of a GET, within the deadline and the size cap. */
function fetchDocument(url: string, options: ClientMetadataFetchOptions): Promise<string> {
  const agent = new RequestFilteringHttpsAgent({
    allowIPAddressList: [...(options.allowAddresses ?? [])],
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  const deadline = AbortSignal.timeout(options.timeoutMs);
  return new Promise((resolve, reject) => {
    const fail = (message: string, cause?: unknown) => {
      outgoing.destroy();
      agent.destroy();
      // A deadline that passes mid-answer shows as a broken connection: it was the deadline.
      const why = deadline.aborted
        ? `its client_id URL did not answer within ${options.timeoutMs / 1000} s`
        : message;
      reject(new ClientMetadataError(why, { cause }));
    };
    const outgoing = request(
      url,
      {
        method: 'GET',
        agent,
        headers: { accept: 'application/json' },
        signal: deadline,
        ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
        ...(options.testPort === undefined ? {} : { port: options.testPort }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          return fail(
            status >= 300 && status < 400
              ? `its client_id URL redirects (${status}), and redirects are not followed`
              : `its client_id URL answered ${status}`,
          );
        }
        if (!/\bjson\b/i.test(response.headers['content-type'] ?? '')) {
          response.resume();
          return fail('its client_id URL did not answer JSON');
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          return fail(`its metadata document is larger than ${options.maxBytes} bytes`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            fail(`its metadata document is larger than ${options.maxBytes} bytes`);
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          agent.destroy();
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
        response.on('error', (error) => fail('its metadata document could not be read', error));
      },
    );
    outgoing.on('error', (error: Error) => {
      fail(
        /is not allowed/.test(error.message)
          ? 'its client_id URL is not on a public address'
          : 'its client_id URL could not be reached',
        error,
      );
    });
    outgoing.end();
  });
}

/**
 * Fetches and checks the client ID metadata document at `clientId`.
 * @throws ClientMetadataError saying why it cannot be used: the URL, the address it resolves to,
 * the answer (status, type, size, time), or the document (not JSON, a client_id other than the
 * URL, metadata refused as a registration would be, a method other than "none").
 */
export async function fetchClientMetadata(
  clientId: string,
  options: ClientMetadataFetchOptions,
): Promise<OAuthClient> {
  const problem = metadataUrlProblem(clientId);
  if (problem) throw new ClientMetadataError(`its client_id ${problem}`);
  const body = await fetchDocument(clientId, options);
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw new ClientMetadataError('its metadata document is not JSON', { cause: error });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ClientMetadataError('its metadata document is not a JSON object');
  }
  const metadata = document as Record<string, unknown>;
  if (metadata.client_id !== clientId) {
    throw new ClientMetadataError('its metadata document names another client_id than its URL');
  }
  // A registration's rules: its redirect URIs that cannot be used are left out (an authorization
  // request naming one is refused as unregistered), and only when none can is the document.
  const accepted = acceptClientMetadata(metadata, { secretsAllowed: false });
  if (isRefusal(accepted)) {
    throw new ClientMetadataError(`its metadata document is refused: ${accepted.detail}`);
  }
  return { clientId, clientName: accepted.clientName, redirectUris: accepted.redirectUris };
}
