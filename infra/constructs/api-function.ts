// One Lambda of the service (a route's, or the worker behind the job queue) with the defaults
// every function shares: Node.js 22 on arm64, an ESM bundle built by the local esbuild, source
// maps, its own log group with retention, and its own role that starts with nothing but writing
// to that log group, then gets exactly the access the function's profile asks for (the table's
// item actions, the JWT key, Bedrock models, sending to the job queue).
import { type Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { FunctionName } from '../../lib/routes/route';
import { grantBedrockModels } from '../bedrock';
import { functionCode } from '../bundling';
import { grantSendMessage, grantTableActions } from '../grants';
import type { TableAction } from '../profiles';
import type { AudioBucket } from './audio-bucket';
import type { CredentialsSecret } from './credentials-secret';
import type { JwtSecret } from './jwt-secret';

/** What a function may touch besides its log group. */
export interface FunctionAccess {
  /** The table and the item actions it may call (TABLE_NAME is set with it). */
  table?: { table: ITable; actions: readonly TableAction[] };
  /** The JWT key it reads at cold start (JWT_SECRET_ARN is set with it). */
  jwtSecret?: JwtSecret;
  /** The operator's third-party credentials it reads at cold start (CREDENTIALS_SECRET_ARN). */
  credentials?: CredentialsSecret;
  /** The Bedrock model and inference profile ids it may invoke. */
  bedrockModelIds?: readonly string[];
  /** The queue it sends jobs to (JOB_QUEUE_URL is set with it). */
  jobQueue?: IQueue;
  /** Amazon Transcribe's audio bucket (TRANSCRIPTION_BUCKET is set with it). */
  audioBucket?: AudioBucket;
}

export interface ApiFunctionProps {
  /** The function's name: bundles its `functions/` file. */
  name: FunctionName;
  description: string;
  memorySize: number;
  timeout: Duration;
  logRetention: RetentionDays;
  /** The variables its Config reads; the shared ones (Powertools, source maps) are added here. */
  environment?: Record<string, string>;
  /** POWERTOOLS_LOG_LEVEL. */
  logLevel: string;
  reservedConcurrentExecutions?: number;
  access?: FunctionAccess;
}

/** The service name in every log line (Powertools) and metric namespace. */
export const SERVICE_NAME = 'tubesum';

export class ApiFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: iam.Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const access = props.access ?? {};

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Logs are diagnostics, not user data: they go with the stack (the table stays).
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Our own role instead of AWSLambdaBasicExecutionRole, which may create any log group and
    // write to all of them: this one may only write to the function's own log group.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${props.name} function of ${SERVICE_NAME}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new LambdaFunction(this, 'Function', {
      // index.mjs and its chunks, bundled by the local esbuild (no Docker).
      code: functionCode(props.name),
      handler: 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      // Graviton: 20% cheaper per GB-second than x86; the bundles are plain JavaScript (no
      // native modules), so nothing depends on the architecture.
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      environment: {
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        // Stack traces in the logs point at functions/ and lib/, not at minified columns.
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
        ...(access.table ? { TABLE_NAME: access.table.table.tableName } : {}),
        // The ARN only: the function reads the value at cold start and caches it.
        ...(access.jwtSecret ? { JWT_SECRET_ARN: access.jwtSecret.secret.secretArn } : {}),
        ...(access.credentials
          ? { CREDENTIALS_SECRET_ARN: access.credentials.secretArnIfSet }
          : {}),
        ...(access.jobQueue ? { JOB_QUEUE_URL: access.jobQueue.queueUrl } : {}),
        ...(access.audioBucket
          ? { TRANSCRIPTION_BUCKET: access.audioBucket.bucket.bucketName }
          : {}),
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to nodejs22.x on purpose: the code is built and tested for Node 20/22 (docs/DEPENDENCIES.md), and a runtime upgrade should be a tested change, not a side effect of a CDK bump.',
    });

    if (access.table) grantTableActions(this.role, access.table.table, access.table.actions);
    access.jwtSecret?.grantRead(this.role);
    access.credentials?.grantRead(this.role);
    if (access.bedrockModelIds?.length) grantBedrockModels(this, this.role, access.bedrockModelIds);
    if (access.jobQueue) grantSendMessage(this.role, access.jobQueue);
    access.audioBucket?.grantTranscription(this.role);
  }
}
