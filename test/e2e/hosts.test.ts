// Each MCP host people use connects to tubesum as it does in the world, at the HTTP level, with a
// person answering the consent screen in Chromium, and ends in tools/list and a tool call. The
// bodies and headers are the hosts' own, from public reports (test/support/mcp-hosts.ts):
// - claude.ai and Claude Desktop (connectors run on Anthropic's servers, 160.79.104.0/21):
//   register with client_secret_post from python-httpx (anthropics/claude-ai-mcp #1043; the body
//   as captured in PostHog/posthog PR #48397), twice per connect attempt (#966), ask
//   scope=claudeai with the callback https://claude.ai/api/mcp/auth_callback (#124,
//   PrefectHQ/fastmcp #1564); offered client ID metadata documents, they send
//   https://claude.ai/oauth/mcp-oauth-client-metadata (#650, #518), whose content, a jwt-bearer
//   grant included, is quoted in sebadob/rauthy #1644 (and #487); MCP requests say Claude-User (#82).
// - ChatGPT: its document https://chatgpt.com/oauth/<id>/client.json prefers private_key_jwt and
//   lists none (quoted in Altinity/altinity-mcp #118 and tableau/tableau-mcp #814; none used with
//   PKCE, gamedevpl/www.gamedev.pl PR #641), its callback is https://chatgpt.com/connector/oauth/<id>,
//   and it calls /mcp with Origin https://chatgpt.com (koala73/worldmonitor #4802); User-Agents
//   as in anthropics/claude-ai-mcp #82.
// - Cursor registers cursor://anysphere.cursor-mcp/oauth/callback,
//   https://www.cursor.com/agents/mcp/oauth/callback and http://localhost:8787/callback in one
//   request (soflyy/agent-connector-for-wp #111, erp-mafia/accounted PR #2225) as a public client
//   (different-ai/openwork PR #3059), and is sent back to the cursor:// one
//   (makeplane/plane-mcp-server #159).
// - VS Code registers four redirect URIs, http://127.0.0.1/ among them, and comes back on a random
//   port when 33418 is taken (microsoft/vscode #278512); the body is its fetchDynamicRegistration's
//   (microsoft/vscode src/vs/base/common/oauth.ts), which does send token_endpoint_auth_method
//   "none", and application_type native.
// - Claude Code registers "Claude Code (<server name>)" (freelawproject/courtlistener #7938) with
//   http://localhost:<port>/callback, the port fixed by `claude mcp add --callback-port 8080`
//   (anthropics/claude-code #42301, #36861); since 2.1.81 it sends
//   https://claude.ai/oauth/claude-code-client-metadata when offered (#36861), whose port-less
//   redirect URIs are quoted in #41011. OAuth from Bun, as #82 saw.
// Redirects to https and loopback URIs are answered inside the browser (nothing leaves the
// machine); the metadata documents come from a local https server that stands for claude.ai and
// chatgpt.com. The host runs in this process, which is what lets it be handed that server's
// resolver and certificate (npm start in a child process would need production switches for it).
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  RESULTS_DIR,
  skipWithoutChromium,
  type Watched,
  watchedPage,
  step as watchedStep,
  watchPage,
} from '../support/browser';
import type { MetadataServer } from '../support/client-metadata-server';
import { type FakeYouTube, startFakeYouTube } from '../support/fake-youtube';
import { newUser, startTestHost, type TestHost } from '../support/host';
import {
  type Authorization,
  authorizationFor,
  challengedScope,
  exchange,
  register,
  type ToolsUsed,
  tokenRequest,
  unusedPort,
  useTools,
} from '../support/mcp-host-flow';
import {
  BOTH,
  CHATGPT_CALLBACK,
  CHATGPT_DOCUMENT,
  CLAUDE_CALLBACK,
  CLAUDE_CODE_CALLBACK,
  CLAUDE_CODE_DOCUMENT,
  CLAUDE_DOCUMENT,
  CURSOR_APP,
  fetchingFrom,
  METADATA,
  PROFILES,
  startHostSites,
} from '../support/mcp-hosts';

const SKIPPED = skipWithoutChromium('the MCP hosts connecting with OAuth');
const FAILURE_SCREENSHOT = resolve(RESULTS_DIR, 'hosts-e2e-failure.png');
const UI_TIMEOUT = 45_000;
const { claudeAi, chatgpt, cursor, vscode, claudeCode } = PROFILES;

let youtube: FakeYouTube;
let sites: MetadataServer;
let host: TestHost;
let browser: Browser;
let watched: Watched;
let vscodeCallback: string;
const person = newUser();
/** The redirect URIs answered in the browser, as each app's own page or listener would. */
const callbacks: string[] = [];
const resource = () => `${host.url}/mcp`;

const step = <T>(name: string, run: () => Promise<T>) =>
  watchedStep(watched, FAILURE_SCREENSHOT, name, run);

/**
 * The person's part, the same for every host, in a new tab (as a host opens one): the host's
 * authorization URL, a sign-in (the page's session is the tab's), the consent screen read (the
 * app, where the answer goes, one line per scope), Allow. Returns the URL the browser was then
 * sent to, as its navigation request carried it: an https or loopback redirect URI is answered
 * by a route and loaded; an app's own scheme (cursor://) cannot be loaded nor fulfilled, and the
 * page never reaches it, but the navigation is still a request Playwright sees (watchedPage's
 * catch-all route aborts it), so the request is the witness for every host alike. A tab sent to
 * cursor:// takes no more clicks afterwards (seen: Allow did nothing), hence a tab per host.
 */
async function personAllows(auth: Authorization, app: string, sendsTo: string): Promise<URL> {
  const page = await watched.context.newPage();
  watchPage(watched, page, new URL(host.url).origin);
  page.setDefaultTimeout(UI_TIMEOUT);
  watched.page = page;
  await step('open the authorization URL', () => page.goto(auth.url));
  const signIn = page.getByRole('form', { name: 'Sign in' });
  const title = `Connect “${app}” to your account?`;
  await step('sign in, or find the consent screen', async () => {
    await signIn
      .or(page.getByRole('heading', { name: title }))
      .first()
      .waitFor();
    if (await signIn.isVisible()) {
      await signIn.getByLabel('Username or email').fill(person.username);
      await signIn.getByLabel('Password', { exact: true }).fill(person.password);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.getByRole('heading', { name: title }).waitFor();
  });
  await step('read the consent screen', async () => {
    const screen = page.getByRole('region', { name: title });
    await expect(screen.locator('.host').textContent()).resolves.toBe(sendsTo);
    const lines = screen.getByRole('list', { name: 'What it may do' }).getByRole('listitem');
    await expect(lines.allTextContents()).resolves.toEqual(
      BOTH.split(' ').map((scope) => expect.stringMatching(new RegExp(`\\w.* ${scope}$`))),
    );
  });
  const sent = page.waitForRequest((request) => request.url().startsWith(auth.redirectUri));
  await step('press Allow', () => page.getByRole('button', { name: 'Allow' }).click());
  const back = new URL((await step('be sent to the app', () => sent)).url());
  if (/^https?:/.test(back.protocol)) {
    await step('reach the app’s redirect URI', () => page.waitForURL(back.href));
  }
  await page.close();
  expect(watched.pageErrors, JSON.stringify(watched.pageErrors)).toEqual([]);
  const elsewhere = [...watched.foreign].filter(
    (request) => ![...callbacks, CURSOR_APP].some((uri) => request.startsWith(`GET ${uri}?`)),
  );
  expect(elsewhere).toEqual([]);
  expect(back.searchParams.get('state')).toBe(auth.state);
  expect(back.searchParams.get('iss')).toBe(host.url);
  return back;
}

/** What every host must end with: the tools listed, and a transcript read through one. */
function expectToolsUsed(used: ToolsUsed) {
  expect(used.names).toEqual(expect.arrayContaining(['get_transcript', 'summarize_video']));
  expect(used.transcript.isError, JSON.stringify(used.transcript.content)).toBeFalsy();
  expect(used.transcript.structuredContent?.segments?.length).toBeGreaterThan(0);
}

beforeAll(async () => {
  if (SKIPPED) return;
  youtube = await startFakeYouTube();
  sites = await startHostSites();
  host = await startTestHost(
    {
      YOUTUBE_BASE_URL: youtube.baseUrl,
      YOUTUBE_API_BASE_URL: youtube.baseUrl,
      YOUTUBE_TIMEOUT_MS: '8000',
      YOUTUBE_CAPTION_TIMEOUT_MS: '4000',
      SUMMARY_DAILY_QUOTA: '0',
      // One distinct registration an hour per address: what a repeat costs shows.
      OAUTH_REGISTER_MAX_PER_IP: '1',
    },
    { services: fetchingFrom(sites) },
  );
  expect((await host.request('POST', '/register', { json: person })).status).toBe(201);
  vscodeCallback = `http://127.0.0.1:${await unusedPort()}/`;
  callbacks.push(CLAUDE_CALLBACK, CHATGPT_CALLBACK, vscodeCallback, CLAUDE_CODE_CALLBACK);
  browser = await launchChromium();
  watched = await watchedPage(browser, new URL(host.url).origin);
  for (const uri of callbacks) {
    await watched.context.route(`${uri}**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' }),
    );
  }
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await sites?.close();
  await youtube?.close();
});

describe.skipIf(SKIPPED)('claude.ai and Claude Desktop (connectors, run by Anthropic)', () => {
  it('registers twice at once with client_secret_post: two confidential clients for one registration of the budget; one connects, lists and calls tools', async () => {
    const twice = await Promise.all([1, 2].map(() => register(host, claudeAi, METADATA.claude)));
    const another = await register(host, claudeAi, { ...METADATA.claude, client_name: 'Claude 2' });
    const [first, second] = twice.map((answer) => answer.body);
    const auth = authorizationFor(host, second.client_id, CLAUDE_CALLBACK, 'claudeai');
    const back = await personAllows(auth, 'Claude', 'claude.ai');
    const tokens = await exchange(host, claudeAi, auth, back, {
      client_id: second.client_id,
      client_secret: second.client_secret,
      resource: resource(),
    });
    // The other one's secret is good too: a refresh token it never had is invalid_grant.
    const other = await tokenRequest(host, claudeAi, {
      grant_type: 'refresh_token',
      refresh_token: 'tsr_never',
      client_id: first.client_id,
      client_secret: first.client_secret,
    });
    const used = await useTools(host, claudeAi, tokens.body.access_token);

    expect(twice.map((answer) => answer.status)).toEqual([201, 201]);
    expect(first.client_id).not.toBe(second.client_id);
    for (const client of [first, second]) {
      expect(client).toMatchObject({
        client_secret: expect.stringMatching(/^tsc_/),
        token_endpoint_auth_method: 'client_secret_post',
        redirect_uris: [CLAUDE_CALLBACK],
      });
    }
    // The pair took one registration of the address's hour (1 here): a distinct one is refused.
    expect(another.status).toBe(429);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.scope).toBe(BOTH);
    expect(other.body.error).toBe('invalid_grant');
    expectToolsUsed(used);
  });

  it('uses its client ID metadata document when offered: fetched from claude.ai, nothing registered, the 401’s scope asked; lists and calls tools', async () => {
    const metadata = await host.request('GET', '/.well-known/oauth-authorization-server');
    const scope = await challengedScope(host);
    const auth = authorizationFor(host, CLAUDE_DOCUMENT, CLAUDE_CALLBACK, scope);
    const back = await personAllows(auth, 'Claude', 'claude.ai');
    const tokens = await exchange(host, claudeAi, auth, back, {
      client_id: CLAUDE_DOCUMENT,
      resource: resource(),
    });
    const used = await useTools(host, claudeAi, tokens.body.access_token);

    // What makes claude.ai choose its document over registering (both must hold).
    expect(metadata.body).toMatchObject({
      client_id_metadata_document_supported: true,
      token_endpoint_auth_methods_supported: expect.arrayContaining(['none']),
    });
    expect(scope).toBe(BOTH);
    expect(sites.requests).toContain(new URL(CLAUDE_DOCUMENT).pathname);
    expect(tokens.status, tokens.text).toBe(200);
    expectToolsUsed(used);
  });
});

describe.skipIf(SKIPPED)('ChatGPT (connectors, run by OpenAI)', () => {
  it('uses its client ID metadata document (private_key_jwt preferred, none listed) as a public client, and calls /mcp with Origin https://chatgpt.com', async () => {
    const auth = authorizationFor(host, CHATGPT_DOCUMENT, CHATGPT_CALLBACK, BOTH);
    const back = await personAllows(auth, 'ChatGPT', 'chatgpt.com');
    const tokens = await exchange(host, chatgpt, auth, back, {
      client_id: CHATGPT_DOCUMENT,
      resource: resource(),
    });
    const used = await useTools(host, chatgpt, tokens.body.access_token);

    expect(sites.requests).toContain(new URL(CHATGPT_DOCUMENT).pathname);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.scope).toBe(BOTH);
    // initialize, the notification, tools/list, tools/call: each taken with that Origin.
    expect(chatgpt.mcp.origin).toBe('https://chatgpt.com');
    expect(used.statuses).toEqual([200, 202, 200, 200]);
    expectToolsUsed(used);
  });
});

describe.skipIf(SKIPPED)('Cursor', () => {
  it('registers three redirect URIs in one request, all kept; its cursor:// one gets the code, state and iss; lists and calls tools', async () => {
    const registered = await register(host, cursor, METADATA.cursor);
    const { client_id } = registered.body;
    const auth = authorizationFor(host, client_id, CURSOR_APP, await challengedScope(host));
    const back = await personAllows(auth, 'Cursor', 'cursor: (an app on this device)');
    const tokens = await exchange(host, cursor, auth, back, { client_id, resource: resource() });
    const used = await useTools(host, cursor, tokens.body.access_token);

    expect(registered.status).toBe(201);
    expect(registered.body.redirect_uris).toEqual(METADATA.cursor.redirect_uris);
    expect(registered.body.token_endpoint_auth_method).toBe('none');
    expect(registered.body.client_secret).toBeUndefined();
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(CURSOR_APP);
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(tokens.status, tokens.text).toBe(200);
    expectToolsUsed(used);
  });
});

describe.skipIf(SKIPPED)('VS Code', () => {
  it('registers http://127.0.0.1/ among four URIs and comes back on a random port; both scopes granted; lists and calls tools', async () => {
    const registered = await register(host, vscode, METADATA.vscode);
    const { client_id } = registered.body;
    const auth = authorizationFor(host, client_id, vscodeCallback, BOTH);
    const back = await personAllows(auth, 'Visual Studio Code', new URL(vscodeCallback).host);
    // No resource here: the code is for this deployment's /mcp all the same.
    const tokens = await exchange(host, vscode, auth, back, { client_id });
    const used = await useTools(host, vscode, tokens.body.access_token);

    expect(registered.status).toBe(201);
    expect(registered.body.redirect_uris).toEqual(METADATA.vscode.redirect_uris);
    expect(registered.body.token_endpoint_auth_method).toBe('none');
    expect(new URL(vscodeCallback).port).not.toBe('33418');
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.scope).toBe(BOTH);
    expectToolsUsed(used);
  });
});

describe.skipIf(SKIPPED)('Claude Code', () => {
  it('registers with its fixed callback port (--callback-port 8080), is answered there, and lists and calls tools', async () => {
    const registered = await register(host, claudeCode, METADATA.claudeCode);
    const { client_id } = registered.body;
    const auth = authorizationFor(
      host,
      client_id,
      CLAUDE_CODE_CALLBACK,
      await challengedScope(host),
    );
    const back = await personAllows(auth, 'Claude Code (tubesum)', 'localhost:8080');
    const tokens = await exchange(host, claudeCode, auth, back, {
      client_id,
      resource: resource(),
    });
    const used = await useTools(host, claudeCode, tokens.body.access_token);

    expect(registered.status).toBe(201);
    expect(registered.body.redirect_uris).toEqual([CLAUDE_CODE_CALLBACK]);
    expect(back.href.startsWith(`${CLAUDE_CODE_CALLBACK}?`)).toBe(true);
    expect(tokens.status, tokens.text).toBe(200);
    expectToolsUsed(used);
  });

  it('uses its client ID metadata document when offered (2.1.81 on): its port-less localhost URI takes the fixed port', async () => {
    const auth = authorizationFor(host, CLAUDE_CODE_DOCUMENT, CLAUDE_CODE_CALLBACK, BOTH);
    const back = await personAllows(auth, 'Claude Code', 'localhost:8080');
    const tokens = await exchange(host, claudeCode, auth, back, {
      client_id: CLAUDE_CODE_DOCUMENT,
      resource: resource(),
    });
    const used = await useTools(host, claudeCode, tokens.body.access_token);

    expect(sites.requests).toContain(new URL(CLAUDE_CODE_DOCUMENT).pathname);
    expect(tokens.status, tokens.text).toBe(200);
    expectToolsUsed(used);
  });
});
