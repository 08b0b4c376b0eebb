// The whole API in one stack: a Lambda per handler of the route table behind an HTTP API, the
// DynamoDB table, the JWT signing secret, alarms. Everything else the code needs comes from
// lib/ (route table, table shape, CORS values, model catalog), so the two cannot drift apart.
import {
  Annotations,
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  type CorsPreflightOptions,
  HttpApi,
  HttpMethod,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { TABLE_PARTITION_KEY, TABLE_TTL_ATTRIBUTE } from '../lib/aws/table';
import { ConfigError, loadConfig } from '../lib/config';
import { ACCESS_LOG_FIELDS } from '../lib/http/access-log';
import {
  CORS_ALLOW_HEADERS,
  CORS_ALLOW_METHODS,
  CORS_EXPOSE_HEADERS,
  CORS_MAX_AGE_SECONDS,
} from '../lib/http/cors';
import { type RouteDef, routeList, UNROUTED_HANDLER } from '../lib/routes';
import { catalogFromConfig } from '../lib/summaries/catalog';
import { bedrockModelIds, bedrockResources } from './bedrock';
import { handlerNames } from './bundling';
import { ApiFunction } from './constructs/api-function';
import { readSettings, SettingsError, type StackSettings, SUMMARIZE_CONTEXT } from './settings';

/** DynamoDB actions a function may call on the table (item-level only: no Scan, no Query). */
type TableAction = 'dynamodb:GetItem' | 'dynamodb:PutItem' | 'dynamodb:UpdateItem';

/** What one handler needs: its size and deadline, and every resource it touches. */
interface FunctionProfile {
  description: string;
  memorySize: number;
  timeout: Duration;
  /** Table actions; handlers behind `auth: true` routes also get GetItem (the user lookup). */
  table: readonly TableAction[];
  /** Signs tokens without serving an auth route (verifying routes get the secret anyway). */
  signsTokens?: boolean;
  /** May call Bedrock, limited to the models of the configured catalog. */
  bedrock?: boolean;
  environment?: Record<string, string>;
}

/** /summarize's own deadline: the work stops 3 s before the Lambda timeout below. */
export const SUMMARIZE_DEADLINE_MS = 25_000;

// Lambda gives CPU in proportion to memory: 1,769 MB is one full vCPU, 128 MB about 1/14.
// Work that is pure CPU costs about the same GB-seconds at any size up to one vCPU, so
// CPU-bound functions get a full vCPU (same bill, lower latency); waiting functions stay small.
// Timeouts are all below API Gateway's 30 s integration limit, after which the client already
// has a 503 and any further work is paid for nothing.
const PROFILES: Record<string, FunctionProfile> = {
  health: {
    description: 'GET /health: liveness, touches nothing',
    // Returns a constant; the smallest size is plenty and the bundle is a few KB.
    memorySize: 128,
    // Nothing to wait for: a health check that takes longer than 3 s is a failed one.
    timeout: Duration.seconds(3),
    table: [],
  },
  register: {
    description: 'POST /register: create an account',
    // bcrypt at cost 12 is ~340 ms of pure CPU on a full vCPU (1,769 MB) and ~4.7 s at 128 MB.
    // A second vCPU (above 1,769 MB) would sit idle: bcryptjs is single-threaded.
    memorySize: 1769,
    // bcrypt (~0.35 s) + a cold-start (~1 s) + a transaction with up to 3 attempts of at most
    // 2 s each (DYNAMODB_TIMEOUT_MS): 10 s covers the worst case with room to spare.
    timeout: Duration.seconds(10),
    // One TransactWriteItems of three conditional Puts (username, email, user). IAM checks each
    // Put as a PutItem; ConditionCheckItem would only be needed for ConditionCheck items, which
    // the store does not use, and it never reads (the conditions do the duplicate check).
    table: ['dynamodb:PutItem'],
  },
  token: {
    description: 'POST /token: log in and get an access token',
    // Same bcrypt compare as /register (also for unknown users, to keep timing equal).
    memorySize: 1769,
    // bcrypt + the secret fetch on a cold start + user lookup and login-guard writes, each
    // bounded by the 2 s DynamoDB deadline with retries.
    timeout: Duration.seconds(10),
    // Login guard: GetItem/PutItem/UpdateItem on the failure counter; lookup: GetItem.
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    signsTokens: true,
  },
  summarize: {
    description: 'POST /summarize: summarize a YouTube video',
    // Mostly waiting on YouTube and Bedrock, but the bundle is the largest (SDK, wink-nlp and
    // its model) and the extractive summarizer splits sentences on the CPU: 1 GB (~0.6 vCPU)
    // keeps the cold start and the offline summarizer short without paying for an idle vCPU.
    memorySize: 1024,
    // Below API Gateway's 30 s limit; SUMMARIZE_DEADLINE_MS (25 s) stops the work first, so the
    // function answers a clean 503/504 itself and has 3 s left for a cold start and the reply.
    timeout: Duration.seconds(28),
    // Summary cache and daily quota items (get, put, counter updates).
    table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    bedrock: true,
    environment: { SUMMARIZE_DEADLINE_MS: String(SUMMARIZE_DEADLINE_MS) },
  },
  docs: {
    description: 'GET /docs, /docs/{file}, /openapi.json: interactive documentation',
    // Builds the OpenAPI document and gzips the 1.7 MB Swagger UI bundle once per cold start:
    // 512 MB (~0.3 vCPU) makes that a few hundred ms instead of over a second at 128 MB.
    memorySize: 512,
    // Only the first request of a cold start does real work (read + gzip), well under 10 s.
    timeout: Duration.seconds(10),
    table: [],
  },
};

export interface TubesumStackProps extends StackProps {
  /** The routes to deploy; the route table unless a test passes its own. */
  routes?: readonly RouteDef[];
}

export class TubesumStack extends Stack {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly table: Table;
  readonly jwtSecret: Secret;
  readonly functions: ReadonlyMap<string, ApiFunction>;

  constructor(scope: Construct, id: string, props: TubesumStackProps = {}) {
    super(scope, id, {
      description: 'tubesum: an HTTP API that summarizes YouTube videos',
      ...props,
    });
    const routes = props.routes ?? routeList;
    const settings = readSettings(this.node);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
      timeToLiveAttribute: TABLE_TTL_ATTRIBUTE,
      // On-demand: nothing to pay at rest and no capacity to plan for spiky traffic.
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The AWS-managed key (aws/dynamodb): no monthly key fee, and unlike the default
      // AWS-owned key its use shows up in CloudTrail. A customer key ($1/month) only pays off
      // if you must control the key policy or revoke access by disabling the key.
      encryption: TableEncryption.AWS_MANAGED,
      // Users must not vanish with `cdk destroy`: the table stays and cannot be deleted by
      // accident (turn deletion protection off first; see the README).
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });

    this.jwtSecret = new Secret(this, 'JwtSecret', {
      description: 'HS256 key that signs tubesum access tokens',
      // 64 characters from 62 letters and digits: ~381 bits, 64 bytes (the code wants >= 32).
      // Generated by Secrets Manager at deploy time: the value is never in the template.
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      // Losing the key only logs everybody out; a retained secret would keep costing money.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const functions = new Map<string, ApiFunction>();
    for (const handler of handlerNames(routes)) {
      functions.set(handler, this.createFunction(handler, routes, settings));
    }
    this.functions = functions;

    ({ api: this.api, stage: this.stage } = this.createApi(routes, functions, settings));
    this.createAlarms(functions);

    new CfnOutput(this, 'ApiUrl', { value: this.stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'DocsUrl', {
      value: `${this.stage.url}docs`,
      description: 'Interactive documentation (Swagger UI)',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });

    this.acknowledgeNagFindings();
  }

  private createFunction(
    handler: string,
    routes: readonly RouteDef[],
    settings: StackSettings,
  ): ApiFunction {
    const profile = PROFILES[handler];
    if (!profile) {
      throw new Error(
        `the route table names handler "${handler}" but infra/stack.ts has no profile for it (memory, timeout, permissions)`,
      );
    }
    const verifiesTokens = routes.some((route) => route.handler === handler && route.auth);
    const needsSecret = verifiesTokens || profile.signsTokens === true;
    // The auth middleware loads the user of every verified token.
    const tableActions = new Set<TableAction>(profile.table);
    if (verifiesTokens) tableActions.add('dynamodb:GetItem');

    let environment: Record<string, string> = { ...profile.environment };
    if (tableActions.size > 0) environment.TABLE_NAME = this.table.tableName;
    // The ARN only: the function reads the value at cold start and caches it.
    if (needsSecret) environment.JWT_SECRET_ARN = this.jwtSecret.secretArn;
    let modelIds: string[] = [];
    if (profile.bedrock) {
      environment = { ...environment, ...settings.summarize };
      modelIds = offeredModelIds(environment);
    }

    const reserved = handler === 'summarize' ? settings.summarizeReservedConcurrency : undefined;
    const fn = new ApiFunction(this, pascal(handler), {
      handler,
      description: profile.description,
      memorySize: profile.memorySize,
      timeout: profile.timeout,
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      environment,
      ...(reserved === undefined ? {} : { reservedConcurrentExecutions: reserved }),
    });

    if (tableActions.size > 0) this.table.grant(fn.role, ...tableActions);
    if (needsSecret) {
      // GetSecretValue only (grantRead would add DescribeSecret, which the code never calls).
      fn.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [this.jwtSecret.secretArn],
        }),
      );
    }
    if (modelIds.length > 0) this.grantBedrock(fn, modelIds);
    return fn;
  }

  /** InvokeModel (which Converse needs) on the catalog's models and profiles, nothing else. */
  private grantBedrock(fn: ApiFunction, modelIds: string[]): void {
    const resources = bedrockResources(modelIds, {
      partition: this.partition,
      region: this.region,
      account: this.account,
    });
    if (resources.opaque.length > 0) {
      Annotations.of(fn).addWarningV2(
        'tubesum:bedrock-opaque-model',
        `Cannot tell which foundation model ${resources.opaque.join(', ')} serves: only the ARN itself is granted. Add the underlying foundation-model ARNs to the summarize role if Bedrock answers AccessDenied.`,
      );
    }
    const direct = [...resources.profiles, ...resources.direct];
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: direct }),
    );
    // The same resources with CloudFormation's pseudo parameters spelled the way cdk-nag does.
    const printed = bedrockResources(modelIds, {
      partition: '<AWS::Partition>',
      region: '<AWS::Region>',
      account: '<AWS::AccountId>',
    });
    this.openRegionModelArns.set(
      fn,
      printed.viaProfile.filter((arn) => arn.includes('*')),
    );
    if (resources.viaProfile.length > 0) {
      // The foundation models in the profiles' destination regions, usable only through one
      // of the granted profiles, never called directly in another region.
      fn.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: resources.viaProfile,
          conditions: { ArnLike: { 'bedrock:InferenceProfileArn': resources.profiles } },
        }),
      );
    }
  }

  private createApi(
    routes: readonly RouteDef[],
    functions: ReadonlyMap<string, ApiFunction>,
    settings: StackSettings,
  ): { api: HttpApi; stage: HttpStage } {
    // CORS is answered by API Gateway at the edge (the functions never add CORS headers), with
    // the same methods and headers the local host emulates (lib/http/cors.ts).
    const corsPreflight: CorsPreflightOptions | undefined =
      settings.corsOrigins.length === 0
        ? undefined
        : {
            allowOrigins: settings.corsOrigins,
            allowMethods: CORS_ALLOW_METHODS.map((method) => CorsHttpMethod[method]),
            allowHeaders: [...CORS_ALLOW_HEADERS],
            exposeHeaders: [...CORS_EXPOSE_HEADERS],
            maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
            // Bearer tokens, not cookies: credentials mode is never needed.
            allowCredentials: false,
          };

    const unrouted = functions.get(UNROUTED_HANDLER);
    if (!unrouted) throw new Error(`no function for the $default handler ${UNROUTED_HANDLER}`);
    const api = new HttpApi(this, 'Api', {
      apiName: this.stackName,
      description: 'tubesum HTTP API',
      // Requests no route takes get our 404/405 problem+json, as from the local host.
      defaultIntegration: this.integrationFor(UNROUTED_HANDLER, unrouted),
      // Our own $default stage below, with throttling and access logs.
      createDefaultStage: false,
      ...(corsPreflight ? { corsPreflight } : {}),
    });

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = new HttpStage(this, 'ApiStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.throttleRateLimit, burstLimit: settings.throttleBurstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // One JSON object per request, the fields the local host writes too.
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    const defaultRoute = api.node.tryFindChild('DefaultRoute');
    if (defaultRoute) this.defaultRoute = defaultRoute as HttpRoute;

    for (const route of routes) {
      const fn = functions.get(route.handler);
      if (!fn) throw new Error(`no function for handler ${route.handler}`);
      const constructs = api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: this.integrationFor(route.handler, fn),
      });
      this.httpRoutes.push({ route, constructs });
    }
    return { api, stage };
  }

  private readonly integrations = new Map<string, HttpLambdaIntegration>();
  private readonly httpRoutes: { route: RouteDef; constructs: HttpRoute[] }[] = [];
  /** The `$default` route, which only ever answers 404/405. */
  private defaultRoute: HttpRoute | undefined;
  /** Per function, the open-region foundation-model ARNs as cdk-nag prints them. */
  private readonly openRegionModelArns = new Map<ApiFunction, string[]>();

  /** One integration per function, shared by its routes (the docs function serves three). */
  private integrationFor(handler: string, fn: ApiFunction): HttpLambdaIntegration {
    let integration = this.integrations.get(handler);
    if (!integration) {
      integration = new HttpLambdaIntegration(`${pascal(handler)}Integration`, fn.function);
      this.integrations.set(handler, integration);
    }
    return integration;
  }

  /**
   * Alarms without actions: they show in the console and can be wired to SNS or chat later.
   * Every one treats missing data as fine, since an idle API emits no data points at all.
   */
  private createAlarms(functions: ReadonlyMap<string, ApiFunction>): void {
    const period = Duration.minutes(5);
    // The share of 5xx answers, once there is enough traffic for a rate to mean something.
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests >= 10, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: this.api.metricServerError({ period, statistic: 'Sum' }),
        requests: this.api.metricCount({ period, statistic: 'Sum' }),
      },
      period,
      label: '5xx rate (%)',
    });
    new Alarm(this, 'Api5xxRateAlarm', {
      alarmDescription: 'More than 5% of API requests answered 5xx in 5 minutes',
      metric: serverErrorRate,
      threshold: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    for (const [handler, fn] of functions) {
      const name = pascal(handler);
      // A handled error is a 4xx/5xx response; an invocation error is a crash or a timeout.
      new Alarm(this, `${name}ErrorsAlarm`, {
        alarmDescription: `The ${handler} function crashed or timed out`,
        metric: fn.function.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      // A throttled invocation fails the request: the account's concurrency (or summarize's
      // reserved concurrency) is exhausted.
      new Alarm(this, `${name}ThrottlesAlarm`, {
        alarmDescription: `The ${handler} function was throttled`,
        metric: fn.function.metricThrottles({ period, statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }
  }

  /**
   * cdk-nag AwsSolutions findings that are deliberate, each acknowledged with its reason
   * (cdk-nag 3 reads CDK's own `Validations.acknowledge`; one finding per call).
   */
  private acknowledgeNagFindings(): void {
    for (const fn of this.functions.values()) {
      Validations.of(fn.function).acknowledge({
        id: 'AwsSolutions-L1',
        reason:
          'Pinned to nodejs22.x on purpose: the code is built and tested for Node 20/22 (TOOLCHAIN.md), and a runtime upgrade should be a tested change, not a side effect of a CDK bump.',
      });
    }

    // The foundation-model ARNs with an open region (see grantBedrock), written as cdk-nag
    // prints them: one finding per resource.
    for (const [fn, arns] of this.openRegionModelArns) {
      for (const arn of arns) {
        Validations.of(fn.role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${arn}]`,
          reason:
            'A cross-region inference profile sends each call to the model in one of several regions chosen by Bedrock, so the region of the foundation-model ARN must be open; the model id is fixed and a condition allows it only through the granted inference profile.',
        });
      }
    }

    Validations.of(this.jwtSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'No automatic rotation: the functions cache one key per cold start and verify with that key only, so a rotation would log everybody out and briefly split instances between keys. Rotate by hand (README) when needed; tokens live 30 minutes.',
    });

    if (this.defaultRoute) {
      Validations.of(this.defaultRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'The $default route only answers 404/405 problems for requests no route takes; it reaches no data and needs no caller identity.',
      });
    }
    for (const { route, constructs } of this.httpRoutes) {
      for (const construct of constructs) {
        Validations.of(construct).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: route.auth
            ? 'The function verifies the bearer token itself (HS256 JWT, key in Secrets Manager, then the user lookup); API Gateway JWT authorizers need an OIDC issuer with a JWKS endpoint, which a self-issued HS256 token does not have.'
            : 'Public by design: liveness, registration, login and the documentation must be reachable without a token.',
        });
      }
    }
  }
}

/** The Bedrock model ids the summarize function may call, from its (validated) settings. */
function offeredModelIds(environment: Record<string, string>): string[] {
  try {
    return bedrockModelIds(catalogFromConfig(loadConfig(environment)));
  } catch (error) {
    if (error instanceof ConfigError) {
      const names = Object.entries(SUMMARIZE_CONTEXT)
        .map(([key, variable]) => `${key} -> ${variable}`)
        .join(', ');
      throw new SettingsError(`${error.message} (set by CDK context: ${names})`);
    }
    throw error;
  }
}

function pascal(name: string): string {
  return name.replace(/(^|[-_])([a-z])/g, (_, _sep: string, letter: string) =>
    letter.toUpperCase(),
  );
}
