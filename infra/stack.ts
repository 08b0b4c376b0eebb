// The whole API in one stack, composed of one construct per concern: the table, the JWT key,
// one function for each the route table names (each with its own grants), the job queue and the
// worker behind it, the HTTP API and the alarms. Everything the code itself needs comes from
// lib/ (route table, table shape, CORS values, model catalog, queue limits), so the two cannot
// drift apart.
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { loadConfig } from '../lib/config';
import { ConfigError } from '../lib/errors';
import type { Catalog } from '../lib/models/catalog';
import { routeList } from '../lib/routes';
import { type FunctionName, type RouteDef, WORKER } from '../lib/routes/route';
import { catalogOf } from '../lib/summaries/offer';
import { bedrockModelIds } from './bedrock';
import { routeFunctionNames } from './bundling';
import { ServiceAlarms } from './constructs/alarms';
import { ApiFunction, type FunctionAccess } from './constructs/api-function';
import { AudioBucket } from './constructs/audio-bucket';
import { CredentialsSecret } from './constructs/credentials-secret';
import { DataTable } from './constructs/data-table';
import { JobQueue } from './constructs/job-queue';
import { JwtSecret } from './constructs/jwt-secret';
import { ServiceApi } from './constructs/service-api';
import { functionId } from './names';
import { PROFILES, type TableAction } from './profiles';
import { readSettings, SettingsError, type StackSettings, SUMMARY_CONTEXT } from './settings';

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
  /** Every Lambda: one per function of the route table, and the worker. */
  readonly functions: ReadonlyMap<FunctionName, ApiFunction>;
  readonly worker: ApiFunction;
  readonly jobQueue: Queue;
  readonly deadLetterQueue: Queue;
  /** Where Amazon Transcribe reads audio, with `-c transcription=amazon-transcribe`. */
  readonly audioBucket?: AudioBucket;

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

    const shared = { jwtSecret, credentials };
    // Amazon Transcribe reads the audio of videos without captions from a bucket of its own.
    if (settings.transcriptionBackend === 'amazon-transcribe') {
      this.audioBucket = new AudioBucket(this, 'Audio');
    }
    const jobs = new JobQueue(this, 'Jobs', { workerTimeout: PROFILES.worker.timeout });
    // The worker consumes the queue and sends to it too (a collection's videos and its driver).
    this.worker = this.createFunction(WORKER, routes, settings, {
      ...shared,
      jobQueue: jobs.queue,
      ...(this.audioBucket ? { audioBucket: this.audioBucket } : {}),
    });
    jobs.consumeWith(this.worker.function, settings.workerConcurrency);
    this.jobQueue = jobs.queue;
    this.deadLetterQueue = jobs.deadLetterQueue;

    const routeFunctions = new Map<FunctionName, ApiFunction>(
      routeFunctionNames(routes).map((name) => [
        name,
        this.createFunction(name, routes, settings, { ...shared, jobQueue: jobs.queue }),
      ]),
    );
    const functions = new Map<FunctionName, ApiFunction>([
      ...routeFunctions,
      [WORKER, this.worker],
    ]);
    this.functions = functions;

    const { api, stage } = new ServiceApi(this, 'Api', {
      routes,
      functions: routeFunctions,
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
      jobQueue: { queue: jobs.queue, workerTimeout: PROFILES.worker.timeout },
      deadLetterQueue: jobs.deadLetterQueue,
      ...(settings.alarmEmail === undefined ? {} : { email: settings.alarmEmail }),
    });
    this.alarmTopic = alarms.topic;

    this.addOutputs(jobs);
  }

  /** What `cdk deploy` prints: where the API, its docs, the table, the alarms and the queues are. */
  private addOutputs(jobs: JobQueue) {
    const { stage } = this;
    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'DocsUrl', {
      value: `${stage.url}docs`,
      description: 'Interactive documentation (Swagger UI)',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topicArn,
      description:
        'SNS topic every alarm notifies (subscribe with -c alarmEmail=... or the console)',
    });
    new CfnOutput(this, 'JobQueueUrl', {
      value: jobs.queue.queueUrl,
      description:
        'SQS queue of summary jobs and collection steps (POST /summarize and /collections send, the worker consumes and sends)',
    });
    new CfnOutput(this, 'DeadLetterQueueUrl', {
      value: jobs.deadLetterQueue.queueUrl,
      description: 'Jobs no worker finished: inspect them here',
    });
    new CfnOutput(this, 'DeadLetterQueueArn', {
      value: jobs.deadLetterQueue.queueArn,
      description:
        'Redrive once the cause is fixed: aws sqs start-message-move-task --source-arn <this>',
    });
  }

  /** A function, with what its profile and its routes say it may touch. */
  private createFunction(
    name: FunctionName,
    routes: readonly RouteDef[],
    settings: StackSettings,
    shared: {
      jwtSecret: JwtSecret;
      credentials: CredentialsSecret;
      jobQueue?: Queue;
      audioBucket?: AudioBucket;
    },
  ): ApiFunction {
    // Always there for the route table's names; a test's made-up function has none.
    const profile = PROFILES[name];
    if (!profile) {
      throw new Error(
        `the route table names function "${name}" but infra/profiles.ts has no profile for it (memory, timeout, permissions)`,
      );
    }
    const served = routes.filter((route) => route.function === name);
    const verifiesTokens = served.some((route) => route.auth);
    const acceptsApiKeys = served.some((route) => route.auth && !route.loginOnly);
    // The bearer authenticator loads the user of every verified token, and looks API keys up;
    // where keys are accepted, it records their last use (a conditional UpdateItem).
    const tableActions = new Set<TableAction>(profile.table);
    if (verifiesTokens) tableActions.add('dynamodb:GetItem');
    if (acceptsApiKeys) tableActions.add('dynamodb:UpdateItem');
    const environment: Record<string, string> = {
      ...profile.environment,
      ...(profile.catalog ? settings.catalog : {}),
      ...(profile.youtube ? settings.youtube : {}),
      ...(profile.youtube ? settings.transcription : {}),
      // Only /mcp checks a request's Origin against more than its own.
      ...(name === 'mcp' && settings.mcpAllowedOrigins
        ? { MCP_ALLOWED_ORIGINS: settings.mcpAllowedOrigins.join(',') }
        : {}),
      // Only the worker drives collections.
      ...(name === WORKER && settings.collectionConcurrency !== undefined
        ? { COLLECTION_CONCURRENCY: String(settings.collectionConcurrency) }
        : {}),
    };
    const access: FunctionAccess = {};
    if (tableActions.size > 0) access.table = { table: this.table, actions: [...tableActions] };
    if (verifiesTokens || profile.signsTokens) access.jwtSecret = shared.jwtSecret;
    if (profile.credentials) access.credentials = shared.credentials;
    // Only the worker transcribes: the bucket and Transcribe are its alone.
    if (name === WORKER && shared.audioBucket) access.audioBucket = shared.audioBucket;
    if (profile.queuesJobs) {
      if (!shared.jobQueue) throw new Error(`${name} queues jobs, but there is no queue yet`);
      access.jobQueue = shared.jobQueue;
    }
    // A bad catalog or YouTube setting fails the synth instead of every cold start.
    const catalog = profile.catalog || profile.youtube ? validCatalog(environment) : undefined;
    if (profile.bedrock && catalog) access.bedrockModelIds = bedrockModelIds(catalog);
    const reserved = name === 'summarize' ? settings.summarizeReservedConcurrency : undefined;
    return new ApiFunction(this, functionId(name), {
      name,
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

/**
 * The catalog a function's summary settings make, validated as its cold start would, and
 * stricter: a model its cold start would leave out (a window too small) refuses the synth, the
 * earliest an operator can hear of it.
 * @throws SettingsError naming the variable and the context keys that set it.
 */
function validCatalog(environment: Record<string, string>): Catalog {
  try {
    const catalog = catalogOf(loadConfig(environment));
    const [leftOut] = catalog.leftOut.values();
    if (leftOut !== undefined) throw new ConfigError(`invalid configuration: ${leftOut}`);
    return catalog;
  } catch (error) {
    if (error instanceof ConfigError) {
      const names = Object.entries(SUMMARY_CONTEXT)
        .map(([key, variable]) => `${key} -> ${variable}`)
        .join(', ');
      throw new SettingsError(`${error.message} (set by CDK context: ${names})`);
    }
    throw error;
  }
}
