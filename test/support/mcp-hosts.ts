// The MCP hosts people connect tubesum to, as they are in the world (test/e2e/hosts.test.ts says
// where each comes from): what they register or publish, field for field, where they send from
// and with which headers, and how their MCP client is built. claude.ai's and ChatGPT's client ID
// metadata documents are served by a local https server with a test certificate for those two
// names (test/fixtures/tls/mcp-hosts.crt), to which a resolver sends them. What the hosts do
// with all this is test/support/mcp-host-flow.ts.
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { type MetadataServer, startMetadataServer } from './client-metadata-server';

const TLS_DIR = new URL('../fixtures/tls/', import.meta.url);
const HOSTS_CERT = readFileSync(new URL('mcp-hosts.crt', TLS_DIR), 'utf8');
const HOSTS_KEY = readFileSync(new URL('mcp-hosts.key', TLS_DIR), 'utf8');

export const BOTH = 'summaries:read summaries:write';

/** Where the hosts' answers come back, and their metadata documents. */
export const CLAUDE_CALLBACK = 'https://claude.ai/api/mcp/auth_callback';
export const CLAUDE_DOCUMENT = 'https://claude.ai/oauth/mcp-oauth-client-metadata';
export const CLAUDE_CODE_DOCUMENT = 'https://claude.ai/oauth/claude-code-client-metadata';
/** A ChatGPT connector's id: its document and its callback are named by it. */
const CHATGPT_ID = 'tUb3sUmT3st1';
export const CHATGPT_DOCUMENT = `https://chatgpt.com/oauth/${CHATGPT_ID}/client.json`;
export const CHATGPT_CALLBACK = `https://chatgpt.com/connector/oauth/${CHATGPT_ID}`;
export const CURSOR_APP = 'cursor://anysphere.cursor-mcp/oauth/callback';
/** `claude mcp add --callback-port 8080 …` */
export const CLAUDE_CODE_CALLBACK = 'http://localhost:8080/callback';

/** What each host registers or publishes, field for field. */
export const METADATA = {
  claude: {
    redirect_uris: [CLAUDE_CALLBACK],
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_name: 'Claude',
  },
  claudeDocument: {
    client_id: CLAUDE_DOCUMENT,
    client_name: 'Claude',
    client_uri: 'https://claude.ai',
    redirect_uris: [CLAUDE_CALLBACK],
    grant_types: [
      'authorization_code',
      'refresh_token',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  },
  chatgptDocument: {
    client_id: CHATGPT_DOCUMENT,
    client_uri: 'https://chatgpt.com/',
    redirect_uris: [CHATGPT_CALLBACK],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_name: 'ChatGPT',
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg: 'RS256',
    jwks_uri: 'https://chatgpt.com/oauth/jwks.json',
  },
  cursor: {
    redirect_uris: [
      CURSOR_APP,
      'https://www.cursor.com/agents/mcp/oauth/callback',
      'http://localhost:8787/callback',
    ],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_name: 'Cursor',
  },
  /** VS Code's fetchDynamicRegistration, its grant types cut to the server's. */
  vscode: {
    client_name: 'Visual Studio Code',
    client_uri: 'https://code.visualstudio.com',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [
      'https://insiders.vscode.dev/redirect',
      'https://vscode.dev/redirect',
      'http://127.0.0.1/',
      'http://127.0.0.1:33418/',
    ],
    scope: BOTH,
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  },
  claudeCode: {
    client_name: 'Claude Code (tubesum)',
    redirect_uris: [CLAUDE_CODE_CALLBACK],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  },
  claudeCodeDocument: {
    client_id: CLAUDE_CODE_DOCUMENT,
    client_name: 'Claude Code',
    client_uri: 'https://claude.ai',
    redirect_uris: ['http://localhost/callback', 'http://127.0.0.1/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  },
} as const;

/** How a host speaks: from where, with which headers, and its MCP client. */
export interface HostProfile {
  /** The address it sends from (a loopback one standing for its own). */
  from: string;
  /** Headers of its requests to the registration and token endpoints. */
  oauth: Record<string, string>;
  /** Headers of its requests to /mcp. */
  mcp: Record<string, string>;
  /** The clientInfo its MCP client says it is. */
  client: { name: string; version: string };
  /** Whether its MCP client is the official SDK's (else its own, over plain HTTP). */
  sdk: boolean;
}

export const PROFILES = {
  /** Anthropic's servers: OAuth from python-httpx, MCP as Claude-User. */
  claudeAi: {
    from: '127.0.0.2',
    oauth: { 'user-agent': 'python-httpx/0.28.1' },
    mcp: { 'user-agent': 'Claude-User' },
    client: { name: 'claude-ai', version: '0.1.0' },
    sdk: false,
  },
  /** OpenAI's servers, naming their origin to /mcp. */
  chatgpt: {
    from: '127.0.0.3',
    oauth: { 'user-agent': 'Python/3.12 aiohttp/3.13.3' },
    mcp: { origin: 'https://chatgpt.com', 'user-agent': 'openai-mcp/1.0.0 (ChatGPT)' },
    client: { name: 'openai-mcp', version: '1.0.0' },
    sdk: false,
  },
  cursor: {
    from: '127.0.0.4',
    oauth: {},
    mcp: {},
    client: { name: 'cursor-vscode', version: '1.0.0' },
    sdk: true,
  },
  vscode: {
    from: '127.0.0.5',
    oauth: {},
    mcp: {},
    client: { name: 'Visual Studio Code', version: '1.106.0' },
    sdk: false,
  },
  claudeCode: {
    from: '127.0.0.6',
    oauth: { 'user-agent': 'Bun/1.3.11' },
    mcp: {},
    client: { name: 'claude-code', version: '2.1.81' },
    sdk: true,
  },
} satisfies Record<string, HostProfile>;

/** Resolves claude.ai and chatgpt.com to this machine (their sites' stand-in); nothing else. */
const hostsLookup = ((
  hostname: string,
  options: { all?: boolean },
  callback: (...args: unknown[]) => void,
) => {
  if (hostname !== 'claude.ai' && hostname !== 'chatgpt.com') {
    callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  } else if (options?.all) {
    callback(null, [{ address: '127.0.0.1', family: 4 }]);
  } else {
    callback(null, '127.0.0.1', 4);
  }
}) as unknown as LookupFunction;

/** claude.ai's and ChatGPT's sites, as far as the service reads them: their metadata documents. */
export async function startHostSites(): Promise<MetadataServer> {
  const sites = await startMetadataServer({ cert: HOSTS_CERT, key: HOSTS_KEY });
  for (const document of [
    METADATA.claudeDocument,
    METADATA.chatgptDocument,
    METADATA.claudeCodeDocument,
  ]) {
    sites.document(new URL(document.client_id).pathname, document);
  }
  return sites;
}

/**
 * What the test host is handed to fetch those documents from `sites`: their names resolved to it,
 * its certificate trusted, its address taken as if public, its port in place of 443.
 */
export const fetchingFrom = (sites: MetadataServer) => ({
  clientMetadata: {
    lookup: hostsLookup,
    ca: HOSTS_CERT,
    allowAddresses: ['127.0.0.1'],
    testPort: sites.port,
  },
});
