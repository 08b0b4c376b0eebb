// The whole API in one stack, composed of one construct per concern: the table, the JWT key,
// a function per handler of the route table (each with its own grants), the HTTP API and the
// alarms. Everything the code itself needs comes from lib/ (route table, table shape, CORS
// values, model catalog), so the two cannot drift apart.
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { ConfigError, loadConfig } from '../lib/config';
import { type HandlerName, type RouteDef, routeList } from '../lib/routes';
import { catalogFromConfig } from '../lib/summaries/catalog';
import { bedrockModelIds } from './bedrock';
import { handlerNames } from './bundling';
import { ServiceAlarms } from './constructs/alarms';
import { ApiFunction, type FunctionAccess } from './constructs/api-function';
import { CredentialsSecret } from './constructs/credentials-secret';
import { DataTable } from './constructs/data-table';
import { JwtSecret } from './constructs/jwt-secret';
import { ServiceApi } from './constructs/service-api';
import { pascal } from './names';
import { PROFILES, type TableAction } from './profiles';
import { readSettings, SettingsError, type StackSettings, SUMMARIZE_CONTEXT } from './settings';

export interface TubesumStackProps extends StackProps {
  /** The routes to deploy; the route table unless a test passes its own. */
  routes?: readonly RouteDef[];
}

export class TubesumStack extends Stack {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly table: Table;
  readonly jwtSecret: Secret;
  readonly credentials: CredentialsSecret;
  readonly alarmTopic: Topic;
  readonly functions: ReadonlyMap<HandlerName, ApiFunction>;

  constructor(scope: Construct, id: string, props: TubesumStackProps = {}) {
    super(scope, id, {
      description: 'tubesum: an HTTP API that summarizes YouTube videos',
      ...props,
    });
    const routes = props.routes ?? routeList;
    const settings = readSettings(this.node);

    this.table = new DataTable(this, 'Table').table;
    const jwtSecret = new JwtSecret(this, 'JwtSecret');
    this.jwtSecret = jwtSecret.secret;
    const credentials = new CredentialsSecret(this, 'Credentials');
    this.credentials = credentials;

    const functions = new Map<HandlerName, ApiFunction>();
    for (const handler of handlerNames(routes)) {
      functions.set(
        handler,
        this.createFunction(handler, routes, settings, { jwtSecret, credentials }),
      );
    }
    this.functions = functions;

    const { api, stage } = new ServiceApi(this, 'Api', {
      routes,
      functions,
      corsOrigins: settings.corsOrigins,
      throttleRateLimit: settings.throttleRateLimit,
      throttleBurstLimit: settings.throttleBurstLimit,
      logRetention: settings.logRetention,
    });
    this.api = api;
    this.stage = stage;
    const alarms = new ServiceAlarms(this, 'Alarms', {
      api,
      functions,
      ...(settings.alarmEmail === undefined ? {} : { email: settings.alarmEmail }),
    });
    this.alarmTopic = alarms.topic;

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'DocsUrl', {
      value: `${stage.url}docs`,
      description: 'Interactive documentation (Swagger UI)',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: alarms.topic.topicArn,
      description:
        'SNS topic every alarm notifies (subscribe with -c alarmEmail=... or the console)',
    });
  }

  /** A handler's function, with what its profile and its routes say it may touch. */
  private createFunction(
    handler: HandlerName,
    routes: readonly RouteDef[],
    settings: StackSettings,
    secrets: { jwtSecret: JwtSecret; credentials: CredentialsSecret },
  ): ApiFunction {
    // Always there for the route table's names; a test's made-up handler has none.
    const profile = PROFILES[handler];
    if (!profile) {
      throw new Error(
        `the route table names handler "${handler}" but infra/profiles.ts has no profile for it (memory, timeout, permissions)`,
      );
    }
    const verifiesTokens = routes.some((route) => route.handler === handler && route.auth);
    // The bearer authenticator loads the user of every verified token.
    const tableActions = new Set<TableAction>(profile.table);
    if (verifiesTokens) tableActions.add('dynamodb:GetItem');
    let environment: Record<string, string> = { ...profile.environment };
    const access: FunctionAccess = {};
    if (tableActions.size > 0) access.table = { table: this.table, actions: [...tableActions] };
    if (verifiesTokens || profile.signsTokens) access.jwtSecret = secrets.jwtSecret;
    if (profile.credentials) access.credentials = secrets.credentials;
    if (profile.bedrock) {
      environment = { ...environment, ...settings.summarize };
      access.bedrockModelIds = offeredModelIds(environment);
    }
    const reserved = handler === 'summarize' ? settings.summarizeReservedConcurrency : undefined;
    return new ApiFunction(this, pascal(handler), {
      handler,
      description: profile.description,
      memorySize: profile.memorySize,
      timeout: profile.timeout,
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      environment,
      access,
      ...(reserved === undefined ? {} : { reservedConcurrentExecutions: reserved }),
    });
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
