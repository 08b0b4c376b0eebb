// The CDK stack, proven by synthesizing it (bundling skipped) and asserting on the template.
// The job pipeline (queue, worker, /summaries) has its own file: jobs.test.ts.
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bedrockResources } from '../../infra/bedrock';
import {
  BUNDLE,
  ESM_REQUIRE_BANNER,
  esbuildOptions,
  extraFileCommands,
} from '../../infra/bundling';
import { PROFILES } from '../../infra/profiles';
import { TubesumStack } from '../../infra/stack';
import { JOBS_INDEX, TABLE_PARTITION_KEY, TABLE_TTL_ATTRIBUTE } from '../../lib/aws/table';
import {
  ASK_MARGIN_MS,
  DEFAULT_MCP_WAIT_MS,
  MAX_ASK_DEADLINE_MS,
  MAX_SUMMARIZE_WAIT_MS,
  SUMMARIZE_MARGIN_MS,
} from '../../lib/config/summaries';
import {
  CORS_ALLOW_HEADERS,
  CORS_ALLOW_METHODS,
  CORS_EXPOSE_HEADERS,
  CORS_MAX_AGE_SECONDS,
} from '../../lib/http/headers/cors';
import { BUILT_IN_MODELS } from '../../lib/models/catalog/built-in';
import { routeList, routes, STATELESS_FUNCTIONS, UNROUTED_FUNCTION } from '../../lib/routes';
import { SHIPPED_PACKAGES } from '../../lib/shipped';
import {
  actionsOf,
  allFunctions,
  allow,
  allStatements,
  environment,
  fnOf,
  functionResource,
  grants,
  handlers,
  type Json,
  logicalId,
  type Synth,
  sortGrants,
  statements,
  synth,
  testApp,
} from '../support/synth';

// CDK synth is CPU-bound: seconds on an idle machine, a minute or more on a loaded one (the
// 60 s hook time-out was missed once); these bounds only end a synth that hangs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let base: Synth;
beforeAll(() => {
  base = synth();
});

describe('functions', () => {
  it('creates one function per distinct handler of the route table, and the worker', () => {
    const functions = Object.values(base.resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function',
    );
    expect(functions).toHaveLength(handlers.length + 1);
    expect([...base.stack.functions.keys()]).toEqual([...handlers, 'worker']);
    expect(allFunctions).toEqual([...handlers, 'worker']);
  });

  it('runs every function on nodejs22.x and arm64', () => {
    const functions = Object.values(base.resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function',
    );
    for (const fn of functions) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
    }
  });

  it('gives the bcrypt-bound functions a full vCPU and /health the smallest size', () => {
    expect(functionResource(base, 'register').Properties.MemorySize).toBeGreaterThanOrEqual(1769);
    expect(functionResource(base, 'token').Properties.MemorySize).toBeGreaterThanOrEqual(1769);
    // DELETE /account checks the password with one bcrypt compare, as /token does.
    expect(functionResource(base, 'account').Properties.MemorySize).toBeGreaterThanOrEqual(1769);
    expect(functionResource(base, 'health').Properties.MemorySize).toBe(128);
  });

  it('keeps every route’s timeout below API Gateway’s 30 s, and /summarize’s above its longest wait', () => {
    for (const handler of handlers) {
      expect(functionResource(base, handler).Properties.Timeout).toBeLessThan(30);
    }
    const summarize = functionResource(base, 'summarize').Properties;
    // A request may ask for the longest wait (Prefer: wait=25); the 202 still needs its margin.
    expect(summarize.Timeout * 1000).toBeGreaterThanOrEqual(
      MAX_SUMMARIZE_WAIT_MS + SUMMARIZE_MARGIN_MS,
    );
    const wait = Number(summarize.Environment.Variables.SUMMARIZE_WAIT_MS);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(MAX_SUMMARIZE_WAIT_MS);
    expect(summarize.Environment.Variables).not.toHaveProperty('SUMMARIZE_DEADLINE_MS');
    // /mcp's summarize_video waits MCP_WAIT_MS (shorter), and answers with the job in time too.
    const mcp = functionResource(base, 'mcp').Properties;
    expect(mcp.Timeout * 1000).toBeGreaterThanOrEqual(MAX_SUMMARIZE_WAIT_MS + SUMMARIZE_MARGIN_MS);
    expect(mcp.Environment.Variables.MCP_WAIT_MS).toBe(String(DEFAULT_MCP_WAIT_MS));
    expect(DEFAULT_MCP_WAIT_MS).toBeLessThan(wait);
  });

  it('sets the Powertools service name and log level and enables source maps everywhere', () => {
    for (const handler of allFunctions) {
      expect(environment(base, handler)).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'tubesum',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      });
    }
    expect(environment(synth({ logLevel: 'debug' }), 'health').POWERTOOLS_LOG_LEVEL).toBe('DEBUG');
  });

  it('sends each function’s logs to its own log group with the configured retention', () => {
    for (const handler of allFunctions) {
      const group = functionResource(base, handler).Properties.LoggingConfig.LogGroup.Ref;
      expect(base.resources[group]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        Properties: { RetentionInDays: 30 },
      });
    }
    synth({ logRetentionDays: 90 }).template.allResourcesProperties('AWS::Logs::LogGroup', {
      RetentionInDays: 90,
    });
  });

  it('reserves concurrency for /summarize only when the context asks for it', () => {
    expect(functionResource(base, 'summarize').Properties).not.toHaveProperty(
      'ReservedConcurrentExecutions',
    );
    const capped = synth({ summarizeReservedConcurrency: '5' });
    expect(functionResource(capped, 'summarize').Properties.ReservedConcurrentExecutions).toBe(5);
    for (const handler of allFunctions.filter((h) => h !== 'summarize')) {
      expect(functionResource(capped, handler).Properties).not.toHaveProperty(
        'ReservedConcurrentExecutions',
      );
    }
  });

  it('passes the catalog and quota to /summarize, /ask, /mcp, the collections functions and the worker, the YouTube settings to all but /summarize', () => {
    const s = synth({
      youtubeClients: ['IOS@99.1.0', 'ANDROID'],
      youtubeProxyRetries: 3,
      allowedModels: 'extractive,nova-micro',
      defaultModel: 'nova-micro',
      summaryDailyQuota: 7,
    });
    const catalog = {
      ALLOWED_MODELS: 'extractive,nova-micro',
      DEFAULT_MODEL: 'nova-micro',
      SUMMARY_DAILY_QUOTA: '7',
    };
    const youtube = { YOUTUBE_CLIENTS: 'IOS@99.1.0,ANDROID', YOUTUBE_PROXY_RETRIES: '3' };
    expect(environment(s, 'worker')).toMatchObject({ ...catalog, ...youtube });
    expect(environment(s, 'ask')).toMatchObject({ ...catalog, ...youtube });
    // get_transcript and ask_video ask YouTube themselves; summarize_video only queues.
    expect(environment(s, 'mcp')).toMatchObject({ ...catalog, ...youtube });
    // /collections reads playlists and channels and checks the model and the quota; questions
    // across a collection read its videos as /ask does.
    expect(environment(s, 'collections')).toMatchObject({ ...catalog, ...youtube });
    expect(environment(s, 'collection-ask')).toMatchObject({ ...catalog, ...youtube });
    expect(environment(s, 'summarize')).toMatchObject(catalog);
    for (const variable of Object.keys(youtube)) {
      expect(environment(s, 'summarize')).not.toHaveProperty(variable);
    }
    const modelUsers = ['summarize', 'ask', 'mcp', 'collections', 'collection-ask', 'worker'];
    for (const handler of allFunctions.filter((h) => !modelUsers.includes(h))) {
      for (const variable of Object.keys({ ...catalog, ...youtube })) {
        expect(environment(s, handler), handler).not.toHaveProperty(variable);
      }
    }
  });

  it('refuses a function that has no memory, timeout and permission profile', () => {
    const app = testApp();
    const stray = { ...routeList[0], function: 'stray' } as unknown as (typeof routeList)[number];
    expect(() => new TubesumStack(app, 'Tubesum', { routes: [stray] })).toThrow(
      /function "stray" .* no profile/,
    );
  });

  it('refuses bad context values at synth time, naming the setting', () => {
    expect(() => synth({ allowedModels: 'no-such-model' })).toThrow(/ALLOWED_MODELS/);
    expect(() => synth({ youtubeClients: 'ANDROID,NOKIA' })).toThrow(/YOUTUBE_CLIENTS/);
    expect(() => synth({ throttleRateLimit: 'fast' })).toThrow(/throttleRateLimit/);
    expect(() => synth({ throttleRateLimit: 50, throttleBurstLimit: 10 })).toThrow(
      /throttleBurstLimit \(10\) must be at least throttleRateLimit \(50\)/,
    );
    expect(() => synth({ alarmEmail: 'ops-at-example.com' })).toThrow(/alarmEmail/);
    expect(() => synth({ logRetentionDays: 42 })).toThrow(/logRetentionDays/);
    expect(() => synth({ corsOrigins: 'https://app.example.com/' })).toThrow(/corsOrigins/);
    expect(() => synth({ mcpAllowedOrigins: '*' })).toThrow(/mcpAllowedOrigins/);
    expect(() => synth({ workerConcurrency: 1 })).toThrow(/workerConcurrency/);
    expect(() => synth({ collectionConcurrency: 0 })).toThrow(/collectionConcurrency/);
  });
});

describe('bundling', () => {
  it('bundles ESM with the createRequire banner, module-first fields, code splitting and the AWS SDK inside', () => {
    const options = esbuildOptions('register', '/asset-output');
    expect(options).toMatchObject({
      entryPoints: { index: expect.stringMatching(/functions\/accounts\/register\.ts$/) },
      outdir: '/asset-output',
      format: 'esm',
      splitting: true,
      outExtension: { '.js': '.mjs' },
      minify: true,
      sourcemap: true,
      target: 'node22',
      banner: { js: ESM_REQUIRE_BANNER },
      mainFields: ['module', 'main'],
      external: [],
      // The SDK's default credential chain is replaced by the environment provider on Lambda,
      // and Ajv (which the MCP SDK's Server imports but never calls here) by a stub.
      alias: {
        '@aws-sdk/credential-provider-node': './lib/aws/lambda-credentials.ts',
        ajv: './lib/mcp/ajv-left-out.ts',
        'ajv-formats': './lib/mcp/ajv-left-out.ts',
      },
    });
  });

  it('runs every function from index.mjs of an asset of its own', () => {
    for (const handler of allFunctions) {
      expect(functionResource(base, handler).Properties.Handler).toBe('index.handler');
    }
    const keys = allFunctions.map((h) => JSON.stringify(functionResource(base, h).Properties.Code));
    expect(new Set(keys).size).toBe(allFunctions.length);
  });

  it('copies the Swagger UI files beside the site bundle and nowhere else', () => {
    const commands = extraFileCommands('site')('/asset-input', '/asset-output');
    expect(commands).toEqual([
      expect.stringMatching(
        /^cp "\/asset-input\/node_modules\/swagger-ui-dist\/swagger-ui-bundle\.js" "\/asset-output"$/,
      ),
      expect.stringMatching(
        /^cp "\/asset-input\/node_modules\/swagger-ui-dist\/swagger-ui\.css" "\/asset-output"$/,
      ),
    ]);
    for (const handler of allFunctions.filter((h) => h !== 'site')) {
      expect(extraFileCommands(handler)('/asset-input', '/asset-output').join()).not.toContain(
        'swagger-ui',
      );
    }
    expect(BUNDLE.externalModules).toEqual([]);
  });

  it('ships the packages the worker loads at run time into its node_modules', () => {
    const commands = extraFileCommands('worker')('/asset-input', '/asset-output');

    for (const name of SHIPPED_PACKAGES) {
      expect(commands).toContain(
        `cp -R "/asset-input/node_modules/${name}" "/asset-output/node_modules/${name}"`,
      );
    }
    // /summarize only queues jobs: no YouTube, no offline model.
    expect(extraFileCommands('summarize')('/asset-input', '/asset-output')).toEqual([]);
    // /ask, /mcp and the collections functions read YouTube (undici, for the proxy) but never
    // run the offline summarizer.
    const readers = ['ask', 'mcp', 'collections', 'collection-ask'];
    for (const handler of readers) {
      expect(extraFileCommands(handler)('/asset-input', '/asset-output'), handler).toEqual([
        'mkdir -p "/asset-output/node_modules"',
        'cp -R "/asset-input/node_modules/undici" "/asset-output/node_modules/undici"',
      ]);
    }
    for (const handler of allFunctions.filter((h) => h !== 'worker' && !readers.includes(h))) {
      expect(
        extraFileCommands(handler)('/asset-input', '/asset-output').join(),
        handler,
      ).not.toMatch(/node_modules\/(undici|wink)/);
    }
  });
});

describe('API', () => {
  it('sends DELETE /account to a function of its own', () => {
    const route = Object.values(base.resources).find(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === 'DELETE /account',
    );
    const integration = base.resources[route?.Properties.Target['Fn::Join'][1][1].Ref];

    expect(routes.deleteAccount.function).toBe('account');
    expect(integration?.Properties.IntegrationUri).toEqual({
      'Fn::GetAtt': [logicalId(base, fnOf(base, 'account').function), 'Arn'],
    });
  });

  it('deploys exactly the routes of the route table, HEAD beside each GET, plus $default', () => {
    const keys = Object.values(base.resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties.RouteKey as string);
    const heads = routeList.filter((r) => r.method === 'GET').map((r) => `HEAD ${r.path}`);
    expect(keys.sort()).toEqual(
      ['$default', ...routeList.map((r) => `${r.method} ${r.path}`), ...heads].sort(),
    );
  });

  it('sends HEAD on each GET route to the same integration as the GET', () => {
    const routes = Object.values(base.resources).filter(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route',
    );
    const targetOf = (key: string) => routes.find((r) => r.Properties.RouteKey === key)?.Properties;
    const gets = routeList.filter((r) => r.method === 'GET');

    expect(gets.length).toBeGreaterThan(0);
    for (const def of gets) {
      const head = targetOf(`HEAD ${def.path}`);
      expect(head, `HEAD ${def.path}`).toBeDefined();
      expect(head?.Target).toEqual(targetOf(`GET ${def.path}`)?.Target);
    }
  });

  it('sends $default (requests no route takes) to the function that answers 404/405', () => {
    const defaultRoute = Object.values(base.resources).find(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === '$default',
    );
    const docsRoute = Object.values(base.resources).find(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === 'GET /docs',
    );

    expect(UNROUTED_FUNCTION).toBe('site');
    expect(defaultRoute?.Properties.Target).toEqual(docsRoute?.Properties.Target);
  });

  it('keeps the construct ids the site function was deployed with as docs', () => {
    const site = fnOf(base, 'site');

    // A new logical id would make CloudFormation replace the function, its role and logs.
    expect(logicalId(base, site.function)).toMatch(/^Docs/);
    expect(logicalId(base, site.role)).toMatch(/^Docs/);
  });

  it('sends each route to the function of its handler', () => {
    const routes = Object.values(base.resources).filter(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route',
    );
    for (const def of routeList) {
      const route = routes.find((r) => r.Properties.RouteKey === `${def.method} ${def.path}`);
      const integrationId = route?.Properties.Target['Fn::Join'][1][1].Ref;
      const integration = base.resources[integrationId];
      expect(integration?.Properties.IntegrationUri).toEqual({
        'Fn::GetAtt': [logicalId(base, fnOf(base, def.function).function), 'Arn'],
      });
      expect(integration?.Properties.PayloadFormatVersion).toBe('2.0');
    }
  });

  it('throttles the stage with defaults that context can override', () => {
    base.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
    });
    synth({ throttleRateLimit: 100, throttleBurstLimit: '200' }).template.hasResourceProperties(
      'AWS::ApiGatewayV2::Stage',
      { DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 } },
    );
    // Unset, the burst follows a raised rate instead of staying below it.
    synth({ throttleRateLimit: 300 }).template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 300, ThrottlingBurstLimit: 600 },
    });
  });

  it('writes JSON access logs without headers or bodies to a log group with retention', () => {
    const stage = Object.values(base.resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage');
    const settings = stage?.Properties.AccessLogSettings;
    const format = JSON.parse(settings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      routeKey: '$context.routeKey',
    });
    expect(settings.Format).not.toMatch(/header|requestBody|authorization/i);
    const group = base.resources[settings.DestinationArn['Fn::GetAtt'][0]];
    expect(group?.Properties.RetentionInDays).toBe(30);
  });

  it('configures no CORS by default', () => {
    const api = Object.values(base.resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Api');
    expect(api?.Properties).not.toHaveProperty('CorsConfiguration');
  });

  it('answers CORS at the edge with the values of lib/http/headers/cors.ts when origins are given', () => {
    synth({
      corsOrigins: 'https://app.example.com, https://b.example.com',
    }).template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://app.example.com', 'https://b.example.com'],
        AllowMethods: [...CORS_ALLOW_METHODS],
        AllowHeaders: [...CORS_ALLOW_HEADERS],
        ExposeHeaders: [...CORS_EXPOSE_HEADERS],
        MaxAge: CORS_MAX_AGE_SECONDS,
        AllowCredentials: false,
      },
    });
  });

  it('gives /mcp alone the browser origins it takes besides its own, when set', () => {
    const set = synth({ mcpAllowedOrigins: 'https://claude.ai, https://app.example.com' });
    const none = synth({ mcpAllowedOrigins: '' });

    expect(environment(set, 'mcp').MCP_ALLOWED_ORIGINS).toBe(
      'https://claude.ai,https://app.example.com',
    );
    expect(environment(none, 'mcp').MCP_ALLOWED_ORIGINS).toBe('');
    expect(environment(base, 'mcp').MCP_ALLOWED_ORIGINS).toBeUndefined();
    expect(environment(set, 'summarize').MCP_ALLOWED_ORIGINS).toBeUndefined();
  });

  it('outputs the API URL and the docs URL', () => {
    const outputs = base.template.toJSON().Outputs;
    expect(JSON.stringify(outputs.ApiUrl.Value)).toContain('.execute-api.');
    expect(JSON.stringify(outputs.DocsUrl.Value)).toMatch(/\/docs"\]\]\}$/);
  });
});

describe('updates of deployed stacks', () => {
  // A changed logical ID makes CloudFormation replace the resource: a new, empty table, a new
  // key (everybody logged out), a new API URL, a second $default stage (which fails). These are
  // the IDs stacks deployed so far have.
  it('keeps the logical IDs of what must never be replaced', () => {
    const ids = Object.entries(base.resources).map(([id, r]) => `${r.Type} ${id}`);

    expect(ids).toEqual(
      expect.arrayContaining([
        'AWS::DynamoDB::Table TableCD117FA1',
        'AWS::SecretsManager::Secret JwtSecretB8834B39',
        'AWS::ApiGatewayV2::Api ApiF70053CD',
        'AWS::ApiGatewayV2::Stage ApiStage529D6240',
        'AWS::Logs::LogGroup ApiAccessLogsE9DF007D',
      ]),
    );
  });
});

describe('data', () => {
  it('keeps users in an on-demand, retained, encrypted table with PITR and TTL', () => {
    base.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    base.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' }],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE_TTL_ATTRIBUTE, Enabled: true },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: true,
      },
    });
  });

  it('indexes each user’s jobs by creation time, projecting every attribute (GET /summaries)', () => {
    const table = Object.values(base.resources).find((r) => r.Type === 'AWS::DynamoDB::Table');

    expect(table?.Properties.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: JOBS_INDEX.name,
        KeySchema: [
          { AttributeName: JOBS_INDEX.partitionKey, KeyType: 'HASH' },
          { AttributeName: JOBS_INDEX.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(table?.Properties.AttributeDefinitions).toEqual([
      { AttributeName: TABLE_PARTITION_KEY, AttributeType: 'S' },
      { AttributeName: JOBS_INDEX.partitionKey, AttributeType: 'S' },
      { AttributeName: JOBS_INDEX.sortKey, AttributeType: 'S' },
    ]);
  });

  it('generates the JWT key in Secrets Manager, never in the template', () => {
    base.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { ExcludePunctuation: true, PasswordLength: Match.anyValue() },
      SecretString: Match.absent(),
    });
    const secret = Object.values(base.resources).find(
      (r) => r.Type === 'AWS::SecretsManager::Secret',
    );
    expect(secret?.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(48);
    expect(JSON.stringify(base.template.toJSON())).not.toMatch(/resolve:secretsmanager/);
  });

  it('puts no secret value in any environment variable, only the secret’s ARN', () => {
    const secretId = logicalId(base, base.stack.jwtSecret);
    for (const handler of allFunctions) {
      const env = environment(base, handler);
      expect(env).not.toHaveProperty('JWT_SECRET');
      for (const [name, value] of Object.entries(env)) {
        if (name === 'JWT_SECRET_ARN') expect(value).toEqual({ Ref: secretId });
        else expect(JSON.stringify(value)).not.toContain(secretId);
      }
    }
  });

  it('hands the secret only to functions that sign or verify tokens', () => {
    const expected: string[] = handlers.filter(
      (h) => PROFILES[h].signsTokens || routeList.some((r) => r.function === h && r.auth),
    );
    expect(expected).toEqual(
      expect.arrayContaining(['token', 'oauth-token', 'summarize', 'summaries', 'connected-apps']),
    );
    // Neither the discovery documents nor the function that fetches URLs clients name.
    expect(expected).not.toContain('oauth-metadata');
    expect(expected).not.toContain('oauth-clients');
    const secretId = logicalId(base, base.stack.jwtSecret);
    for (const handler of allFunctions) {
      const reads = statements(base, handler).some(
        (st) =>
          actionsOf([st]).includes('secretsmanager:GetSecretValue') &&
          JSON.stringify(st.Resource).includes(secretId),
      );
      expect({ handler, reads }).toEqual({ handler, reads: expected.includes(handler) });
      expect('JWT_SECRET_ARN' in environment(base, handler)).toBe(expected.includes(handler));
    }
  });
});

describe('the operator’s credentials (YouTube proxy and key, OpenAI key)', () => {
  const names = ['YoutubeProxyUrl', 'YoutubeApiKey', 'OpenaiApiKey', 'TranscriptionApiKey'];

  it('are NoEcho stack parameters stored in a secret, never in the template or an environment', () => {
    const parameters = base.template.toJSON().Parameters;
    for (const name of names) {
      expect(parameters[name]).toMatchObject({ Type: 'String', NoEcho: true, Default: '' });
    }
    const secretId = logicalId(base, base.stack.credentials.secret);
    const secret = base.resources[secretId];
    // The secret's JSON is joined from the parameters at deploy time.
    const joined = JSON.stringify(secret?.Properties.SecretString);
    for (const name of names) expect(joined).toContain(`{"Ref":"${name}"}`);
    expect(joined).toContain('youtubeProxyUrl');
    expect(secret?.Properties).not.toHaveProperty('GenerateSecretString');

    for (const handler of allFunctions) {
      const env = environment(base, handler);
      for (const variable of [
        'YOUTUBE_PROXY_URL',
        'YOUTUBE_API_KEY',
        'OPENAI_API_KEY',
        'TRANSCRIPTION_API_KEY',
      ]) {
        expect(env).not.toHaveProperty(variable);
      }
      const resources = statements(base, handler)
        .filter((st) => actionsOf([st]).includes('secretsmanager:GetSecretValue'))
        .map((st) => JSON.stringify(st.Resource));
      const reads = resources.some((resource) => resource.includes(secretId));
      // Only the worker, /ask, /mcp (get_transcript, ask_video) and the collections functions
      // (playlists and channels, questions across their videos) call YouTube and the model
      // servers; /summarize just queues.
      const calls = ['worker', 'ask', 'mcp', 'collections', 'collection-ask'].includes(handler);
      expect({ handler, reads }).toEqual({ handler, reads: calls });
      expect('CREDENTIALS_SECRET_ARN' in env).toBe(calls);
    }
    // The ARN only when a parameter is set: otherwise a cold start reads nothing.
    expect(environment(base, 'worker').CREDENTIALS_SECRET_ARN).toEqual({
      'Fn::If': [expect.any(String), { Ref: secretId }, ''],
    });
  });

  it('refuses the context keys that would carry them, pointing at the parameters', () => {
    expect(() => synth({ youtubeProxyUrl: 'http://u:p@proxy.example.com:8080' })).toThrow(
      /youtubeProxyUrl .*--parameters YoutubeProxyUrl=/,
    );
    expect(() => synth({ youtubeApiKey: 'AIza-key' })).toThrow(/--parameters YoutubeApiKey=/);
    expect(() => synth({ openaiApiKey: 'sk-123' })).toThrow(/--parameters OpenaiApiKey=/);
  });

  it('passes the OpenAI-compatible server and its models to /summarize, /ask and the worker, and needs both', () => {
    const s = synth({
      openaiBaseUrl: 'https://api.openai.com/v1',
      openaiModels: ['gpt-4o-mini', 'gpt-4.1@1000000'],
    });

    for (const handler of ['summarize', 'ask', 'worker']) {
      expect(environment(s, handler)).toMatchObject({
        OPENAI_BASE_URL: 'https://api.openai.com/v1',
        OPENAI_MODELS: 'gpt-4o-mini,gpt-4.1@1000000',
      });
    }
    expect(() => synth({ openaiModels: 'llama3.2' })).toThrow(/OPENAI_BASE_URL/);
    // A model a function would leave out (its window cannot make any summary): refused here.
    expect(() =>
      synth({
        openaiBaseUrl: 'http://models.example/v1',
        openaiModels: ['small@2048', 'tiny@700'],
      }),
    ).toThrow(/OPENAI_MODELS: "tiny@700" is left out.*openaiModels -> OPENAI_MODELS/);
  });
});

describe('least privilege', () => {
  it('lets /health and /docs write their logs and nothing else', () => {
    for (const handler of ['health', 'site']) {
      expect(actionsOf(statements(base, handler)).sort()).toEqual([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
      ]);
      expect(environment(base, handler)).not.toHaveProperty('TABLE_NAME');
    }
  });

  it('gives table access to exactly the handlers the local host makes wait for its database', () => {
    const withTable = handlers.filter((handler) =>
      actionsOf(statements(base, handler)).some((action) => action.startsWith('dynamodb:')),
    );
    expect(withTable.sort()).toEqual(handlers.filter((h) => !STATELESS_FUNCTIONS.has(h)).sort());
  });

  it('limits the account functions to the item operations the user store and the counters make', () => {
    const dynamo = (handler: string) =>
      actionsOf(statements(base, handler))
        .filter((a) => a.startsWith('dynamodb:'))
        .sort();
    // Registrations per address: a counter (UpdateItem, PutItem to start its window).
    expect(dynamo('register')).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(dynamo('token')).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect(dynamo('summarize')).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
  });

  it('gives /mcp what its tools need: /summarize’s items, the queue, the transcript cache, the proxy’s secret and the models /ask may call', () => {
    const mcp = statements(base, 'mcp');
    const credentialsId = logicalId(base, base.stack.credentials.secret);
    const jwtId = logicalId(base, base.stack.jwtSecret);

    // Jobs, records and the quota (summarize_video, get_summary), the transcript cache
    // (get_transcript): single items only, never a Query or a Scan.
    const tableArn = { 'Fn::GetAtt': [logicalId(base, base.stack.table), 'Arn'] };
    expect(grants(base, 'mcp', 'dynamodb:')).toEqual(
      allow(tableArn, 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'),
    );
    expect(grants(base, 'mcp', 'sqs:')).toEqual(
      allow({ 'Fn::GetAtt': [logicalId(base, base.stack.jobQueue), 'Arn'] }, 'sqs:SendMessage'),
    );
    const secrets = mcp
      .filter((st) => actionsOf([st]).includes('secretsmanager:GetSecretValue'))
      .map((st) => JSON.stringify(st.Resource));
    expect(secrets.some((resource) => resource.includes(jwtId))).toBe(true);
    expect(secrets.some((resource) => resource.includes(credentialsId))).toBe(true);
    expect([...new Set(actionsOf(mcp))].sort()).toEqual([
      'bedrock:InvokeModel',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
      'sqs:SendMessage',
    ]);
    expect(environment(base, 'mcp').JOB_QUEUE_URL).toEqual({
      Ref: logicalId(base, base.stack.jobQueue),
    });
  });

  it('lets the account function delete what it deletes, and query only the jobs index', () => {
    const tableArn = { 'Fn::GetAtt': [logicalId(base, base.stack.table), 'Arn'] };

    // The login counters (update, put to start a window), the user (get, the transaction that
    // marks it and frees its names, its deletion), each API key (get the list, remove a key in a
    // transaction, delete the list), each job (delete; update a run it is taken off), and the
    // user's jobs found through the index: never a Scan, never a Query of the table itself.
    expect(grants(base, 'account', 'dynamodb:')).toEqual(
      sortGrants([
        ...allow(
          tableArn,
          'dynamodb:DeleteItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ),
        ...allow({ 'Fn::Join': ['', [tableArn, `/index/${JOBS_INDEX.name}`]] }, 'dynamodb:Query'),
      ]),
    );
    // It verifies tokens (the secret), and touches no queue, no model and no third party.
    expect([...new Set(actionsOf(statements(base, 'account')))].sort()).toEqual([
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
    ]);
    expect(environment(base, 'account')).toHaveProperty('JWT_SECRET_ARN');
    expect(environment(base, 'account')).not.toHaveProperty('JOB_QUEUE_URL');
    expect(functionResource(base, 'account').Properties.Timeout).toBeLessThan(30);
  });

  it('gives the OAuth functions least privilege: discovery nothing, the URL-fetching one no secret and no deletes', () => {
    const tableActions = (
      handler: 'oauth-metadata' | 'oauth-clients' | 'oauth-token' | 'connected-apps',
    ) =>
      actionsOf(statements(base, handler))
        .filter((a) => a.startsWith('dynamodb:'))
        .sort();

    expect(tableActions('oauth-metadata')).toEqual([]);
    expect(environment(base, 'oauth-metadata')).not.toHaveProperty('TABLE_NAME');
    // Registration and authorization requests: it fetches the URLs clients name, so it holds
    // no signing key and cannot delete anything.
    expect(tableActions('oauth-clients')).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect(environment(base, 'oauth-clients')).not.toHaveProperty('JWT_SECRET_ARN');
    for (const handler of ['oauth-token', 'connected-apps'] as const) {
      expect(tableActions(handler), handler).toEqual([
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
      ]);
      expect(environment(base, handler)).toHaveProperty('JWT_SECRET_ARN');
    }
    for (const handler of ['oauth-metadata', 'oauth-clients', 'oauth-token', 'connected-apps']) {
      expect(actionsOf(statements(base, handler)), handler).not.toContain('dynamodb:Query');
    }
  });

  it('limits the API keys function to item operations on the table, no Query', () => {
    // The key list (get, made on first use, entries added and removed in transactions) and the
    // key lookup items (put when made, deleted with the key).
    expect(grants(base, 'api-keys', 'dynamodb:')).toEqual(
      allow(
        { 'Fn::GetAtt': [logicalId(base, base.stack.table), 'Arn'] },
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
      ),
    );
    expect(environment(base, 'api-keys')).toHaveProperty('JWT_SECRET_ARN');
  });

  it('lets every function that accepts API keys record their last use (UpdateItem)', () => {
    const accepting = handlers.filter((handler) =>
      routeList.some((route) => route.function === handler && route.auth && !route.loginOnly),
    );
    expect(accepting).toEqual(expect.arrayContaining(['summarize', 'summaries']));
    for (const handler of accepting) {
      expect(actionsOf(statements(base, handler)), handler).toEqual(
        expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:UpdateItem']),
      );
    }
    // Derived from the routes, not the profiles: a function whose profile grants no table access
    // gets GetItem behind a protected route, and UpdateItem only where keys are accepted.
    const dynamoOf = (route: (typeof routeList)[number]) => {
      const app = testApp();
      const moved = { ...route, function: 'health' } as (typeof routeList)[number];
      // The docs function answers $default, which every stack has.
      const stack = new TubesumStack(app, 'Tubesum', { routes: [moved, routes.docs] });
      const template = Template.fromStack(stack);
      const s = { stack, template, resources: template.toJSON().Resources };
      return actionsOf(statements(s, 'health'))
        .filter((action) => action.startsWith('dynamodb:'))
        .sort();
    };
    expect(dynamoOf(routes.listSummaries)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(dynamoOf(routes.listApiKeys)).toEqual(['dynamodb:GetItem']);
  });

  it('grants item actions on the table itself, never on its indexes', () => {
    const tableArn = { 'Fn::GetAtt': [logicalId(base, base.stack.table), 'Arn'] };
    for (const handler of allFunctions) {
      const items = grants(base, handler, 'dynamodb:').filter((g) => g.action !== 'dynamodb:Query');
      for (const g of items) expect(g.resource, `${handler} ${g.action}`).toEqual(tableArn);
    }
    // table.grant() would add `<table>/index/*` to every grant now that the table has an index.
    expect(JSON.stringify(allStatements(base))).not.toContain('/index/*');
  });

  it('never grants bedrock:* nor Bedrock on every resource', () => {
    const bedrock = allStatements(base).filter((st) =>
      [st.Action].flat().some((a) => a.startsWith('bedrock:')),
    );
    expect(bedrock.length).toBeGreaterThan(0);
    for (const st of bedrock) {
      expect([st.Action].flat()).toEqual(['bedrock:InvokeModel']);
      const resources = [st.Resource].flat();
      expect(resources).not.toContain('*');
      for (const resource of resources) {
        expect(JSON.stringify(resource)).not.toMatch(/(foundation-model|inference-profile)\/\*/);
      }
    }
  });

  it('grants Bedrock to the worker, /ask, /mcp (ask_video) and questions across a collection only, the same models to all', () => {
    for (const handler of allFunctions) {
      const invokes = actionsOf(statements(base, handler)).includes('bedrock:InvokeModel');
      const calls = ['worker', 'ask', 'mcp', 'collection-ask'].includes(handler);
      expect({ handler, invokes }).toEqual({ handler, invokes: calls });
    }
    const bedrock = (handler: string) => grants(base, handler, 'bedrock:');
    expect(bedrock('ask')).toEqual(bedrock('worker'));
    expect(bedrock('mcp')).toEqual(bedrock('worker'));
    expect(bedrock('collection-ask')).toEqual(bedrock('worker'));
  });

  it('gives /ask what it needs to read a video and call a model, and nothing of the job pipeline', () => {
    const actions = actionsOf(statements(base, 'ask'));

    // The answer and transcript caches (get, put) and the quota's counter (update).
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect(actions.filter((a) => a.startsWith('sqs:'))).toEqual([]);
    expect(environment(base, 'ask')).not.toHaveProperty('JOB_QUEUE_URL');
    // It answers within its deadline or gives up with a 504, before API Gateway's 30 s.
    const ask = functionResource(base, 'ask').Properties;
    const deadline = Number(ask.Environment.Variables.ASK_DEADLINE_MS);
    expect(deadline).toBe(MAX_ASK_DEADLINE_MS);
    expect(ask.Timeout * 1000).toBeGreaterThanOrEqual(deadline + ASK_MARGIN_MS);
    expect(ask.Timeout).toBeLessThan(30);
  });

  it('grants exactly the catalog’s inference profiles and the models behind them', () => {
    const bedrock = grants(base, 'worker', 'bedrock:');
    const named = (part: string) =>
      bedrock.filter((g) => JSON.stringify(g.resource).includes(part));
    const profiles = named(':inference-profile/');
    const models = named(':bedrock:*::foundation-model/');
    for (const model of BUILT_IN_MODELS) {
      const foundation = model.modelId.replace(/^[a-z-]+\./, '');
      expect(named(`:inference-profile/${model.modelId}"`), model.name).toHaveLength(1);
      expect(named(`:bedrock:*::foundation-model/${foundation}"`), model.name).toHaveLength(1);
    }
    expect(profiles).toHaveLength(BUILT_IN_MODELS.length);
    expect(models).toHaveLength(BUILT_IN_MODELS.length);
    expect(bedrock).toHaveLength(profiles.length + models.length);
  });

  it('narrows Bedrock to ALLOWED_MODELS, and grants none when only the offline model is offered', () => {
    const one = JSON.stringify(
      statements(synth({ allowedModels: 'extractive,nova-micro' }), 'worker'),
    );
    expect(one).toContain('inference-profile/us.amazon.nova-micro-v1:0');
    expect(one).not.toContain('nova-pro');
    const offline = statements(synth({ allowedModels: 'extractive' }), 'worker');
    expect(actionsOf(offline).filter((a) => a.startsWith('bedrock:'))).toEqual([]);
  });

  it('grants extra catalog models and warns when one hides its foundation model', () => {
    const arn = 'arn:aws:bedrock:us-east-1:111122223333:application-inference-profile/abc123';
    const s = synth({
      allowedModels: 'mine',
      defaultModel: 'mine',
      // As cdk.json holds it: a JSON array, not a string.
      modelCatalogJson: [
        { name: 'mine', modelId: arn, contextTokens: 100_000, maxOutputTokens: 4_000 },
      ],
    });
    expect(grants(s, 'worker', 'bedrock:')).toEqual(allow(arn, 'bedrock:InvokeModel'));
    Annotations.fromStack(s.stack).hasWarning(
      '/Tubesum/Worker',
      Match.stringLikeRegexp('Cannot tell which foundation model'),
    );
  });

  it('allows the cross-region foundation models only through the granted profiles', () => {
    const bedrock = grants(base, 'worker', 'bedrock:');
    const models = bedrock.filter((g) =>
      JSON.stringify(g.resource).includes(':bedrock:*::foundation-model/'),
    );
    expect(models.length).toBeGreaterThan(0);
    for (const g of models) {
      expect(JSON.stringify(g.condition)).toMatch(
        /^\{"ArnLike":\{"bedrock:InferenceProfileArn":\[.*inference-profile\//,
      );
    }
    // The profiles themselves are granted without a condition.
    const profiles = bedrock.filter((g) => !models.includes(g));
    for (const g of profiles) expect(g.condition).toBeUndefined();
  });
});

describe('bedrock resources', () => {
  const scope = { partition: 'aws', region: 'us-east-1', account: '111122223333' };

  it('maps a geographic profile id to its profile and its model in every region', () => {
    expect(bedrockResources(['eu.amazon.nova-lite-v1:0'], scope)).toEqual({
      direct: [],
      profiles: [
        'arn:aws:bedrock:us-east-1:111122223333:inference-profile/eu.amazon.nova-lite-v1:0',
      ],
      viaProfile: ['arn:aws:bedrock:*::foundation-model/amazon.nova-lite-v1:0'],
      opaque: [],
    });
  });

  it('adds the region-less model ARN for global profiles', () => {
    expect(bedrockResources(['global.anthropic.claude-x'], scope).viaProfile).toEqual([
      'arn:aws:bedrock:*::foundation-model/anthropic.claude-x',
      'arn:aws:bedrock:::foundation-model/anthropic.claude-x',
    ]);
  });

  it('grants a plain model id in the stack’s region only', () => {
    expect(bedrockResources(['amazon.nova-micro-v1:0'], scope).direct).toEqual([
      'arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-micro-v1:0',
    ]);
  });

  it('keeps ARNs as given and flags application profiles as opaque', () => {
    const app = 'arn:aws:bedrock:us-west-2:111122223333:application-inference-profile/abc123';
    const profile = 'arn:aws:bedrock:us-west-2:111122223333:inference-profile/us.meta.llama-x';
    const result = bedrockResources([app, profile], scope);
    expect(result.direct).toEqual([app]);
    expect(result.opaque).toEqual([app]);
    expect(result.profiles).toEqual([profile]);
    expect(result.viaProfile).toEqual(['arn:aws:bedrock:*::foundation-model/meta.llama-x']);
  });
});

describe('operations', () => {
  it('alarms on the API’s 5xx rate and on each function’s (the worker’s too) errors and throttles', () => {
    const alarms = Object.values(base.resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    const rate = alarms.filter((a) =>
      (a.Properties.Metrics ?? []).some((m: Json) => m.Expression?.includes('errors / requests')),
    );
    expect(rate).toHaveLength(1);
    expect(JSON.stringify(rate[0]?.Properties.Metrics)).toContain('"MetricName":"5xx"');
    for (const metric of ['Errors', 'Throttles']) {
      const perFunction = alarms.filter((a) => a.Properties.MetricName === metric);
      const targets = perFunction.map((a) => a.Properties.Dimensions[0].Value.Ref).sort();
      expect(targets).toEqual(
        allFunctions.map((h) => logicalId(base, fnOf(base, h).function)).sort(),
      );
      expect(targets).toContain(logicalId(base, base.stack.worker.function));
    }
  });

  it('notifies one SNS topic (TLS only) when any alarm fires and when it clears', () => {
    const topicId = logicalId(base, base.stack.alarmTopic);
    const alarms = Object.values(base.resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    // The 5xx rate, errors and throttles of each function, the job queue's backlog and the
    // dead-letter queue.
    expect(alarms.length).toBe(1 + 2 * allFunctions.length + 2);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
    base.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
    base.template.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(base.template.toJSON().Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
  });

  it('subscribes -c alarmEmail to the topic', () => {
    const s = synth({ alarmEmail: 'ops@example.com' });
    s.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: logicalId(s, s.stack.alarmTopic) },
    });
  });

  it('passes cdk-nag’s AwsSolutions pack with every finding acknowledged for a reason', () => {
    const app = testApp();
    const stack = new TubesumStack(app, 'Tubesum');
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    const errors = report.violations
      .filter((v) => v.severity === 'error')
      .map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath)}`);
    expect(errors).toEqual([]);

    const reasons = stack.node
      .findAll()
      .flatMap((c) => c.node.metadata)
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) => Object.values(m.data as Record<string, string>));
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason.length).toBeGreaterThan(60);
  });
});
