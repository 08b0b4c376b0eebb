// The Lambda bundles themselves, built exactly as the stack builds them: each one must load in
// a fresh Node process (a bundle can break where the sources run fine, e.g. two imports of one
// name), /health must stay tiny and SDK-free, and shipped packages must sit beside the worker.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildFunction,
  esbuildOptions,
  extraFileCommands,
  functionNames,
  PROJECT_ROOT,
} from '../../infra/bundling';
import { apiGatewayEvent } from '../../infra/local/event';
import { askResponseSchema } from '../../lib/ask/schemas';
import { routeList } from '../../lib/routes';
import { schemaVersion } from '../../lib/schema-version';
import { SHIPPED_PACKAGES } from '../../lib/shipped';
import { shapeVersion } from '../../lib/summaries/store/records';
import { type BundleSize, bundleFunctions } from '../../scripts/bundle';

// Outside the repository, so that nothing resolves from the project's node_modules.
const outdir = mkdtempSync(join(tmpdir(), 'tubesum-bundles-test-'));
let sizes: BundleSize[];

beforeAll(async () => {
  sizes = await bundleFunctions({ outdir });
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('the Lambda bundles', () => {
  it('are built for every function: the route table’s handlers and the worker', () => {
    expect(sizes.map((size) => size.name)).toEqual(functionNames(routeList));
    expect(sizes.map((size) => size.name)).toContain('worker');
  });

  it('each load in a fresh Node process, as Lambda imports them, and so do their chunks', () => {
    for (const { name } of sizes) {
      const url = pathToFileURL(join(outdir, name, 'index.mjs')).href;
      const chunksDir = join(outdir, name, 'chunks');
      const chunks = existsSync(chunksDir)
        ? readdirSync(chunksDir)
            .filter((file) => file.endsWith('.mjs'))
            .map((file) => pathToFileURL(join(chunksDir, file)).href)
        : [];
      const result = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(url)}); if (typeof m.handler !== 'function') process.exit(3);
           for (const chunk of ${JSON.stringify(chunks)}) await import(chunk);`,
        ],
        {
          cwd: tmpdir(),
          env: { PATH: process.env.PATH, TABLE_NAME: 'bundle-test', AWS_REGION: 'us-east-1' },
          encoding: 'utf8',
        },
      );

      expect(result.stderr, name).toBe('');
      expect(result.status, name).toBe(0);
    }
  });

  it('serves the page for people from the files built beside the site function', () => {
    const event = (path: string, routeKey: string, file?: string) =>
      apiGatewayEvent(
        { method: 'GET', url: path, headers: { host: 'bundle.test' }, httpVersion: '1.1' },
        Buffer.alloc(0),
        routeKey,
        file ? { file } : undefined,
        'bundle-page',
      );
    const events = [
      event('/', 'GET /'),
      event('/app/app.js', 'GET /app/{file}', 'app.js'),
      event('/app/app.css', 'GET /app/{file}', 'app.css'),
    ];
    const url = pathToFileURL(join(outdir, 'site', 'index.mjs')).href;
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { handler } = await import(${JSON.stringify(url)});
         const context = { awsRequestId: 'bundle-page', getRemainingTimeInMillis: () => 10000 };
         const replies = [];
         for (const event of ${JSON.stringify(events)}) replies.push(await handler(event, context));
         console.log(JSON.stringify(replies.map((r) => ({ status: r.statusCode, type: r.headers['Content-Type'], body: r.body }))));`,
      ],
      {
        cwd: tmpdir(),
        env: {
          PATH: process.env.PATH,
          TABLE_NAME: 'bundle-test',
          AWS_REGION: 'us-east-1',
          POWERTOOLS_LOG_LEVEL: 'SILENT',
        },
        encoding: 'utf8',
      },
    );

    expect(result.stderr).toBe('');
    const [page, script, style] = JSON.parse(result.stdout) as {
      status: number;
      type: string;
      body: string;
    }[];
    expect(page).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/html/) });
    expect(page?.body).toContain('src="app/app.js?v=');
    expect(script).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/javascript/) });
    expect(script?.body.length).toBeGreaterThan(5_000);
    expect(style).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/css/) });
  });

  it('build in the versions of the stored answers’ shapes, and leave zod’s JSON Schema converter to those that describe schemas', () => {
    /** Whether a function's bundle or one of its chunks holds `text` (a boolean: a failure
     * does not print megabytes of bundle). */
    const holds = (handler: string, text: string) =>
      readdirSync(join(outdir, handler), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs') && !file.includes('node_modules'))
        .some((file) => readFileSync(join(outdir, handler, file), 'utf8').includes(text));
    // A string of the converter's own (the dialect it writes in every document).
    const converter = 'json-schema.org/draft/2020-12/schema';

    for (const handler of ['summarize', 'summaries', 'worker']) {
      expect(holds(handler, `"${shapeVersion()}"`), `${handler}: version`).toBe(true);
      expect(holds(handler, converter), `${handler}: converter`).toBe(false);
    }
    expect(holds('ask', `"${schemaVersion(askResponseSchema)}"`), 'ask: version').toBe(true);
    expect(holds('ask', converter), 'ask: converter').toBe(false);
    // The OpenAPI document and the MCP tools' schemas are JSON Schema: those keep it.
    expect(holds('site', converter), 'site: converter').toBe(true);
  });

  it('keeps /health under 5 KB and free of the AWS SDK', () => {
    const health = sizes.find((size) => size.name === 'health');

    expect(health?.minifiedBytes).toBeLessThan(5 * 1024);
    expect(health?.includesAwsSdk).toBe(false);
  });

  it('puts the packages the worker loads at run time beside its bundle, not inside it', () => {
    const worker = sizes.find((size) => size.name === 'worker');

    for (const name of SHIPPED_PACKAGES) {
      expect(existsSync(join(outdir, 'worker', 'node_modules', name, 'package.json')), name).toBe(
        true,
      );
      expect(worker?.packages.map((p) => p.name)).not.toContain(name);
    }
    // /summarize only queues jobs: nothing ships beside it.
    expect(existsSync(join(outdir, 'summarize', 'node_modules'))).toBe(false);
  });

  it('ships undici beside /ask, and neither the offline summarizer nor its language model', () => {
    const ask = join(outdir, 'ask');
    const sources = readdirSync(ask, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.mjs.map') && !file.includes('node_modules'))
      .flatMap((file) => JSON.parse(readFileSync(join(ask, file), 'utf8')).sources as string[]);

    expect(existsSync(join(ask, 'node_modules', 'undici', 'package.json'))).toBe(true);
    expect(existsSync(join(ask, 'node_modules', 'wink-eng-lite-web-model'))).toBe(false);
    // It answers offline by retrieval (minisearch), never with the extractive summarizer.
    expect(sources.filter((source) => /summaries\/extractive\//.test(source))).toEqual([]);
    expect(sources.some((source) => source.includes('node_modules/minisearch/'))).toBe(true);
    // Its size against the 400 KB target is reported by `npm run bench`, as every function's is
    // (it bundles only its own area's routes: test/infra/route-areas.test.ts).
  });

  it('puts undici beside the MCP function (get_transcript’s proxy) and none of the SDK’s HTTP frameworks, nor Ajv, in it', () => {
    const mcp = sizes.find((size) => size.name === 'mcp');
    const everything = JSON.stringify(
      readdirSync(join(outdir, 'mcp'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs.map') && !file.includes('node_modules'))
        .flatMap((file) => JSON.parse(readFileSync(join(outdir, 'mcp', file), 'utf8')).sources),
    );

    expect(existsSync(join(outdir, 'mcp', 'node_modules', 'undici', 'package.json'))).toBe(true);
    expect(existsSync(join(outdir, 'mcp', 'node_modules', 'wink-eng-lite-web-model'))).toBe(false);
    // The SDK is in the bundle, loaded with the function's code on its first event: a cold start
    // imports the entry alone.
    expect(everything).toContain('@modelcontextprotocol/sdk');
    expect(mcp?.packages.map((p) => p.name)).not.toContain('@modelcontextprotocol/sdk');
    // Only the web-standard transport and the low-level server (the SDK's maps name its src/):
    // not its Express or Hono parts, nor its Node.js transport, McpServer or client.
    expect(everything).toContain('sdk/src/server/webStandardStreamableHttp.ts');
    expect(everything).toContain('sdk/src/server/index.ts');
    // The Server's default JSON Schema validator is made of Ajv: the stub stands in for it.
    expect(everything).toContain('lib/mcp/ajv-left-out.ts');
    const left = [
      'node_modules/express/',
      'node_modules/hono/',
      '@hono/node-server',
      'sdk/src/server/streamableHttp.ts',
      'sdk/src/server/mcp.ts',
      'sdk/src/client/',
      'node_modules/ajv/',
      'node_modules/ajv-formats/',
      'node_modules/fast-uri/',
    ];
    for (const part of left) expect(everything, part).not.toContain(part);
  });

  it('answers POST /mcp from the built MCP bundle: 401 with the bearer challenge naming its https resource metadata without a token', () => {
    const event = apiGatewayEvent(
      {
        method: 'POST',
        url: '/mcp',
        headers: { host: 'bundle.test', 'content-type': 'application/json' },
        httpVersion: '1.1',
      },
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'),
      'POST /mcp',
      undefined,
      'bundle-mcp',
    );
    const url = pathToFileURL(join(outdir, 'mcp', 'index.mjs')).href;
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { handler } = await import(${JSON.stringify(url)});
         const context = { awsRequestId: 'bundle-mcp', getRemainingTimeInMillis: () => 28000 };
         const reply = await handler(${JSON.stringify(event)}, context);
         console.log(JSON.stringify({ status: reply.statusCode, challenge: reply.headers['WWW-Authenticate'] }));`,
      ],
      {
        cwd: tmpdir(),
        env: {
          PATH: process.env.PATH,
          TABLE_NAME: 'bundle-test',
          AWS_REGION: 'us-east-1',
          JWT_SECRET: 'a-bundle-test-secret-of-more-than-32-bytes-0123456789',
          JOB_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/jobs',
          POWERTOOLS_LOG_LEVEL: 'SILENT',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        encoding: 'utf8',
      },
    );

    expect(result.stderr).toBe('');
    // Deployed, the origin is the domain API Gateway was reached at, over https.
    expect(JSON.parse(result.stdout)).toEqual({
      status: 401,
      challenge:
        'Bearer realm="tubesum", resource_metadata="https://bundle.test/.well-known/oauth-protected-resource/mcp", scope="summaries:read summaries:write"',
    });
  });

  it('leave out the chunks a function can never load, as the stack builds them', () => {
    // The sources each file of a built function came from, read from its source maps.
    const sourcesOf = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs.map') && !file.includes('node_modules'))
        .flatMap((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')).sources as string[]);
    const summarize = join(outdir, 'summarize-asset');
    buildFunction('summarize', summarize);

    // /summarize reaches lib/summaries/wiring.ts, whose worker half imports these on demand.
    const lazyWorkerCode = /lib\/(youtube\/client|shipped|summaries\/extractive\/summarizer)\.ts$/;
    expect(sourcesOf(summarize).filter((source) => lazyWorkerCode.test(source))).toEqual([]);
    expect(
      sourcesOf(join(outdir, 'worker')).filter((source) => lazyWorkerCode.test(source)),
    ).toHaveLength(3);
  });
});

it('answers initialize, tools/list and tools/call through the MCP SDK in a bundle built like /mcp, without Ajv', async () => {
  const dir = join(outdir, 'mcp-check');
  const built = await build({
    ...esbuildOptions('mcp', dir),
    entryPoints: { index: join(PROJECT_ROOT, 'test/infra/fixtures/mcp-entry.ts') },
  });

  const result = spawnSync(process.execPath, [join(dir, 'index.mjs')], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH, POWERTOOLS_LOG_LEVEL: 'SILENT' },
    encoding: 'utf8',
  });

  expect(result.stderr).toBe('');
  const [initialized, listed, called] = JSON.parse(result.stdout);
  expect(initialized).toMatchObject({
    status: 200,
    body: { id: 0, result: { serverInfo: { name: 'tubesum' }, capabilities: { tools: {} } } },
  });
  expect(listed.body.result.tools).toMatchObject([
    { name: 'echo', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
  ]);
  expect(called).toMatchObject({
    status: 200,
    body: { id: 2, result: { structuredContent: { text: 'hello' } } },
  });
  expect(called.body.result.isError).toBeUndefined();
  expect(
    Object.keys(built.metafile?.inputs ?? {}).filter((path) => /node_modules\/ajv/.test(path)),
  ).toEqual([]);
});

it('runs code that loads the shipped packages from beside a bundle built like the worker', async () => {
  const dir = join(outdir, 'shipped-check');
  await build({
    ...esbuildOptions('worker', dir),
    entryPoints: { index: join(PROJECT_ROOT, 'test/infra/fixtures/shipped-entry.ts') },
  });
  for (const command of extraFileCommands('worker')(PROJECT_ROOT, dir))
    execFileSync('sh', ['-c', command]);

  const result = spawnSync(process.execPath, [join(dir, 'index.mjs')], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });

  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual({ words: expect.any(Number), proxyAgent: 'function' });
  expect(JSON.parse(result.stdout).words).toBeGreaterThan(40);
});

describe('AWS credentials', () => {
  // A machine with a profile in a credentials file and nothing in the environment: the default
  // chain finds the profile; the environment provider alone does not.
  const home = mkdtempSync(join(tmpdir(), 'tubesum-credentials-'));
  const credentialsFile = join(home, 'credentials');
  writeFileSync(
    credentialsFile,
    '[default]\naws_access_key_id = FROMFILE\naws_secret_access_key = secret\n',
  );
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const machine = {
    PATH: process.env.PATH,
    HOME: home,
    AWS_SHARED_CREDENTIALS_FILE: credentialsFile,
    AWS_CONFIG_FILE: join(home, 'no-config'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const entry = join(PROJECT_ROOT, 'test/infra/fixtures/credentials-entry.ts');
  const run = (command: string[], env: Record<string, string | undefined>) => {
    const result = spawnSync(command[0] as string, command.slice(1), {
      cwd: PROJECT_ROOT,
      env,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as { accessKeyId?: string; error?: string };
  };

  it('a Lambda bundle resolves them from the environment only, with no other provider inside', async () => {
    const dir = join(outdir, 'credentials-check');
    const built = await build({ ...esbuildOptions('token', dir), entryPoints: { index: entry } });
    const bundle = join(dir, 'index.mjs');

    const fromFileOnly = run([process.execPath, bundle], machine);
    const fromEnvironment = run([process.execPath, bundle], {
      ...machine,
      AWS_ACCESS_KEY_ID: 'FROMENV',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });

    expect(fromFileOnly.error).toBe('CredentialsProviderError');
    expect(fromEnvironment.accessKeyId).toBe('FROMENV');
    const inputs = Object.keys(built.metafile?.inputs ?? {});
    expect(
      inputs.filter((path) =>
        /credential-provider-(?!env)|client-sso|token-providers\/dist-es\/fromSso/.test(path),
      ),
    ).toEqual([]);
  });

  it('the local host, as `npm start` builds it, keeps the default chain: profiles, SSO and the rest', () => {
    const dir = join(outdir, 'credentials-local');
    const start = pathToFileURL(join(PROJECT_ROOT, 'infra/local/start.mjs')).href;
    const built = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { buildLocal } = await import(${JSON.stringify(start)});
         await buildLocal(${JSON.stringify(relative(PROJECT_ROOT, entry))}, ${JSON.stringify(dir)});`,
      ],
      { cwd: PROJECT_ROOT, encoding: 'utf8' },
    );
    expect(built.status, built.stderr).toBe(0);

    expect(run([process.execPath, join(dir, 'main.mjs')], machine).accessKeyId).toBe('FROMFILE');
  });
});
