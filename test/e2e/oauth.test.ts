// An agent connects the way claude.ai, Claude Desktop and ChatGPT do: the official MCP SDK
// client's own OAuth flow (its OAuthClientProvider; discovery from /mcp's 401, dynamic
// registration, PKCE, finishAuth) against `npm start` in a child process, with the person in a
// real browser (Debian's chromium, driven by playwright-core) signing in on the page and pressing
// Allow; the agent then lists and calls tools. The same with Deny gives it nothing. Then the
// person disconnects the app on the page, and the agent is refused from its next request.
// The SDK asks for the scope of /mcp's 401 (both scopes), the consent screen says what each
// allows, and every answer carries `iss` (RFC 9207). An app allowed to read only gets 403
// insufficient_scope for summarize_video (MCP authorization 2025-11-25, "Scope Challenge
// Handling"); what the SDK's client (1.x) then does by itself is shown: with a refresh token it
// refreshes, which keeps the grant's scope (RFC 6749 6), and gives up; without one it sends the
// person to allow both scopes, and its new token summarises.
// Nothing leaves the machine: the app's redirect URI is answered inside the browser.
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  type OAuthClientProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  RESULTS_DIR,
  skipWithoutChromium,
  type Watched,
  watchedPage,
  step as watchedStep,
} from '../support/browser';
import { FAKE_VIDEO_IDS, type FakeYouTube, startFakeYouTube } from '../support/fake-youtube';
import { newUser } from '../support/host';
import { type LocalProcess, startLocalProcess } from '../support/local-process';

const SKIPPED = skipWithoutChromium('connecting an MCP client with OAuth');
const FAILURE_SCREENSHOT = resolve(RESULTS_DIR, 'oauth-e2e-failure.png');
const UI_TIMEOUT = 45_000;
const APP_NAME = 'SDK test agent';
const BOTH = 'summaries:read summaries:write';

let youtube: FakeYouTube;
let service: LocalProcess;
let browser: Browser;
let watched: Watched;
let callback: string;
const person = newUser();

/** A port nothing listens on: the app's loopback redirect URI, answered in the browser. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address ? address.port : 0;
}

/** An MCP client's OAuth state, kept in memory as a desktop app would keep it on disk. */
class MemoryProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** Where the SDK asked to send the person (its redirectToAuthorization). */
  authorizationUrl?: URL;

  constructor(
    readonly expectedState: string,
    readonly name = APP_NAME,
  ) {}

  get redirectUrl() {
    return callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [callback],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
  }
}

const transportFor = (provider: MemoryProvider) =>
  new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { authProvider: provider });

const step = <T>(name: string, run: () => Promise<T>) =>
  watchedStep(watched, FAILURE_SCREENSHOT, name, run);

/**
 * The person's part: the SDK's authorization URL opened in the browser, signed in if the page
 * asks, the consent screen checked (the app, the host, the scopes it would get), `button`
 * pressed; the app's redirect URI the browser reached.
 */
async function personAnswers(
  provider: MemoryProvider,
  button: 'Allow' | 'Deny',
  scopes = BOTH,
): Promise<URL> {
  const { page } = watched;
  await step('open the authorization URL', () => page.goto(String(provider.authorizationUrl)));
  const signIn = page.getByRole('form', { name: 'Sign in' });
  const title = `Connect “${provider.name}” to your account?`;
  const consent = page.getByRole('heading', { name: title });
  await step('sign in, or find the consent screen', async () => {
    await signIn.or(consent).first().waitFor();
    if (await signIn.isVisible()) {
      await signIn.getByLabel('Username or email').fill(person.username);
      await signIn.getByLabel('Password', { exact: true }).fill(person.password);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
    }
    await consent.waitFor();
  });
  await step('read the consent screen', async () => {
    const screen = page.getByRole('region', { name: title });
    await expect(screen.textContent()).resolves.toContain(new URL(callback).host);
    await expect(screen.textContent()).resolves.toContain(person.username);
    // One line per scope it would get, in words, its name after.
    const lines = screen.getByRole('list', { name: 'What it may do' }).getByRole('listitem');
    await expect(lines.allTextContents()).resolves.toEqual(
      scopes.split(' ').map((scope) => expect.stringMatching(new RegExp(`\\w.* ${scope}$`))),
    );
  });
  await step('see Allow as the primary action and Deny as the secondary one', async () => {
    // Filled with the accent colour, as every primary button is; Deny outlined, as Keep is.
    const look = (name: string) =>
      page.evaluate(
        `getComputedStyle(document.getElementById(${JSON.stringify(`consent-${name.toLowerCase()}`)})).backgroundColor`,
      );
    await expect(look('Allow')).resolves.not.toBe('rgba(0, 0, 0, 0)');
    await expect(look('Deny')).resolves.toBe('rgba(0, 0, 0, 0)');
  });
  await step(`press ${button}`, () => page.getByRole('button', { name: button }).click());
  // Loaded, not only asked for: a navigation still under way would cut off the test's next one.
  await step('reach the app’s redirect URI', () =>
    page.waitForURL((url) => url.href.startsWith(callback)),
  );
  return new URL(page.url());
}

beforeAll(async () => {
  if (SKIPPED) return;
  youtube = await startFakeYouTube();
  service = await startLocalProcess({
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_API_BASE_URL: youtube.baseUrl,
    SUMMARY_DAILY_QUOTA: '0',
  });
  const registered = await fetch(`${service.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  expect(registered.status).toBe(201);
  callback = `http://127.0.0.1:${await unusedPort()}/callback`;
  browser = await launchChromium();
  watched = await watchedPage(browser, new URL(service.url).origin);
  watched.page.setDefaultTimeout(UI_TIMEOUT);
  // The app's redirect URI: answered here, as the app's own listener would.
  await watched.context.route(`${callback}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' }),
  );
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await youtube?.close();
});

describe.skipIf(SKIPPED)('an MCP client connecting with OAuth', () => {
  const allowing = new MemoryProvider('state-allow');
  let client: Client;

  it('is sent to the person, who signs in and presses Allow; it then lists and calls tools', async () => {
    // Discovery, registration and PKCE: the SDK's own, from /mcp's 401.
    await expect(
      new Client({ name: 'agent', version: '1' }).connect(transportFor(allowing)),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(allowing.information?.client_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(allowing.authorizationUrl?.href).toMatch(
      new RegExp(`^${service.url}/oauth/authorize\\?`),
    );
    expect(allowing.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(allowing.authorizationUrl?.searchParams.get('resource')).toBe(`${service.url}/mcp`);
    // The scope of /mcp's 401, as the SDK's scope selection reads it first.
    expect(allowing.authorizationUrl?.searchParams.get('scope')).toBe(BOTH);

    const back = await personAnswers(allowing, 'Allow');
    expect(back.searchParams.get('state')).toBe('state-allow');
    expect(back.searchParams.get('iss')).toBe(service.url);
    const code = back.searchParams.get('code') ?? '';
    await transportFor(allowing).finishAuth(code);
    client = new Client({ name: 'agent', version: '1' });
    await client.connect(transportFor(allowing));
    const { tools } = await client.listTools();
    const transcript = (await client.callTool({
      name: 'get_transcript',
      arguments: { video_url: FAKE_VIDEO_IDS.normal, end_seconds: 30 },
    })) as CallToolResult & { structuredContent: { segments: unknown[] } };

    expect(tools.map((tool) => tool.name)).toContain('summarize_video');
    expect(transcript.isError).toBeFalsy();
    expect(transcript.structuredContent.segments.length).toBeGreaterThan(0);
    expect(allowing.saved?.refresh_token).toMatch(/^tsr_/);
    expect(allowing.saved?.scope).toBe(BOTH);
  });

  it('gets nothing when the person presses Deny', async () => {
    const denying = new MemoryProvider('state-deny');
    await expect(
      new Client({ name: 'agent', version: '1' }).connect(transportFor(denying)),
    ).rejects.toBeInstanceOf(UnauthorizedError);

    const back = await personAnswers(denying, 'Deny');

    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-deny');
    expect(back.searchParams.get('iss')).toBe(service.url);
    expect(back.searchParams.get('code')).toBeNull();
    expect(denying.saved).toBeUndefined();
    await expect(
      new Client({ name: 'agent', version: '1' }).connect(transportFor(denying)),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('is refused from its next request once the person disconnects it on the page', async () => {
    const { page } = watched;
    const access = allowing.saved?.access_token ?? '';
    await step('open the page', () => page.goto(`${service.url}/`));
    const apps = page.getByRole('region', { name: 'Connected apps' });
    // Behind "Show connected apps", as API keys are behind "Show API keys".
    await step('open Connected apps', () =>
      apps.getByRole('button', { name: 'Show connected apps' }).click(),
    );
    const item = apps.getByRole('listitem').filter({ hasText: APP_NAME });
    await step('find the app, used', () => item.getByText(/last used/).waitFor());
    // What it may do: the scope the person allowed.
    await expect(item.textContent()).resolves.toContain('summaries:read, summaries:write');

    await step('press Disconnect: it asks first, as deleting a key does', () =>
      item.getByRole('button', { name: /^Disconnect/ }).click(),
    );
    const question = item.getByRole('group', { name: /^Disconnect .*\?/ });
    await step('the question has Keep it connected focused', async () => {
      await question.waitFor();
      await expect
        .poll(() => page.evaluate('document.activeElement?.textContent'))
        .toBe('Keep it connected');
    });
    await step('confirm', () => question.getByRole('button', { name: 'Disconnect' }).click());
    await step('see it gone', () =>
      apps
        .getByRole('status')
        .getByText(/Disconnected/)
        .waitFor(),
    );

    const refused = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    // The SDK's refresh is refused too (the connection ended): it would need the person again.
    await expect(client.listTools()).rejects.toThrow();
    expect(watched.pageErrors, JSON.stringify(watched.pageErrors)).toEqual([]);
    // Nothing left the machine but the page's answers to the app (its redirect URI).
    expect(
      [...watched.foreign].filter((request) => !request.startsWith(`GET ${callback}?`)),
    ).toEqual([]);
  });
});

describe.skipIf(SKIPPED)('an MCP client allowed to read only', () => {
  const SUMMARIZE = {
    name: 'summarize_video',
    arguments: { video_url: FAKE_VIDEO_IDS.normal, used_model: 'extractive' },
  };
  /** The scope of the authorization URL the SDK last sent the person to. */
  const scopeAsked = (provider: MemoryProvider) =>
    provider.authorizationUrl?.searchParams.get('scope');
  const connected = async (provider: MemoryProvider) => {
    const client = new Client({ name: 'reader', version: '1' });
    await client.connect(transportFor(provider));
    return client;
  };

  it('reads, is refused summarize_video with 403 insufficient_scope, and summarises once the person allows both scopes', async () => {
    const reader = new MemoryProvider('state-read', 'SDK reader');
    await expect(
      new Client({ name: 'reader', version: '1' }).connect(transportFor(reader)),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    // An app that asks for reading only (the SDK would ask for the 401's scope, both).
    reader.authorizationUrl?.searchParams.set('scope', 'summaries:read');
    const back = await personAnswers(reader, 'Allow', 'summaries:read');
    await transportFor(reader).finishAuth(back.searchParams.get('code') ?? '');
    expect(reader.saved?.scope).toBe('summaries:read');

    const client = await connected(reader);
    const { tools } = await client.listTools();
    const transcript = (await client.callTool({
      name: 'get_transcript',
      arguments: { video_url: FAKE_VIDEO_IDS.normal, end_seconds: 30 },
    })) as CallToolResult;
    expect(tools.map((tool) => tool.name)).toContain('summarize_video');
    expect(transcript.isError).toBeFalsy();

    // The SDK (1.x) answers the 403 with a refresh, which keeps the grant's scope (RFC 6749 6):
    // the same 403 again, and it gives up (typescript-sdk issue #2255).
    const refreshToken = reader.saved?.refresh_token;
    await expect(client.callTool(SUMMARIZE)).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('after trying upscoping'),
    });
    expect(reader.saved?.refresh_token).not.toBe(refreshToken);
    expect(reader.saved?.scope).toBe('summaries:read');
    await client.close();

    // Without a refresh token, its step-up sends the person to allow the challenge's scope.
    reader.saved = { ...(reader.saved as OAuthTokens), refresh_token: undefined };
    reader.authorizationUrl = undefined;
    const stepping = await connected(reader);
    await expect(stepping.callTool(SUMMARIZE)).rejects.toBeInstanceOf(UnauthorizedError);
    await stepping.close();
    expect(scopeAsked(reader)).toBe(BOTH);
    const again = await personAnswers(reader, 'Allow', BOTH);
    expect(again.searchParams.get('iss')).toBe(service.url);
    await transportFor(reader).finishAuth(again.searchParams.get('code') ?? '');
    expect(reader.saved?.scope).toBe(BOTH);

    const writer = await connected(reader);
    const summary = (await writer.callTool(SUMMARIZE)) as CallToolResult;
    await writer.close();

    expect(summary.isError, JSON.stringify(summary.content)).toBeFalsy();
    expect(watched.pageErrors, JSON.stringify(watched.pageErrors)).toEqual([]);
  });
});
