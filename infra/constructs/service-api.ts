// The HTTP API: exactly the route table's routes (and HEAD beside each GET), each to its
// function; API Gateway's `$default` route for the rest (our 404/405 problem); CORS at
// the edge; a `$default` stage with throttling and an access log in the fields the local host
// writes too.
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  CorsHttpMethod,
  type CorsPreflightOptions,
  HttpApi,
  HttpMethod,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { type CfnLogGroup, LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  CORS_ALLOW_HEADERS,
  CORS_ALLOW_METHODS,
  CORS_EXPOSE_HEADERS,
  CORS_MAX_AGE_SECONDS,
} from '../../lib/http/headers/cors';
import { UNROUTED_FUNCTION } from '../../lib/routes';
import type { FunctionName, RouteDef } from '../../lib/routes/route';
import { ACCESS_LOG_FIELDS } from '../access-log';
import { functionId } from '../names';
import type { ApiFunction } from './api-function';

export interface ServiceApiProps {
  routes: readonly RouteDef[];
  functions: ReadonlyMap<FunctionName, ApiFunction>;
  /** Origins API Gateway answers CORS for; empty means no CORS at all. */
  corsOrigins: readonly string[];
  throttleRateLimit: number;
  throttleBurstLimit: number;
  logRetention: RetentionDays;
}

// The logical IDs the stage and its access log had when they were created at the stack's top
// level: a new ID would make CloudFormation create a second `$default` stage (which fails) and
// drop the log group. Kept as they are.
const STAGE_LOGICAL_ID = 'ApiStage529D6240';
const ACCESS_LOGS_LOGICAL_ID = 'ApiAccessLogsE9DF007D';

/**
 * CORS as API Gateway answers it at the edge (the functions never add CORS headers), with the
 * same methods and headers the local host emulates; none without origins.
 */
function corsPreflightOf(origins: readonly string[]): CorsPreflightOptions | undefined {
  if (origins.length === 0) return undefined;
  return {
    allowOrigins: [...origins],
    allowMethods: CORS_ALLOW_METHODS.map((method) => CorsHttpMethod[method]),
    allowHeaders: [...CORS_ALLOW_HEADERS],
    exposeHeaders: [...CORS_EXPOSE_HEADERS],
    maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
    // Bearer tokens, not cookies: credentials mode is never needed.
    allowCredentials: false,
  };
}

export class ServiceApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  private readonly integrations = new Map<FunctionName, HttpLambdaIntegration>();
  private readonly functions: ReadonlyMap<FunctionName, ApiFunction>;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    this.functions = props.functions;
    const corsPreflight = corsPreflightOf(props.corsOrigins);
    // "Default": the logical IDs the API, its routes and integrations had before this construct.
    this.api = new HttpApi(this, 'Default', {
      apiName: Stack.of(this).stackName,
      description: 'tubesum HTTP API',
      // Requests no route takes get our 404/405 problem+json, as from the local host.
      defaultIntegration: this.integrationFor(UNROUTED_FUNCTION),
      // Our own $default stage below, with throttling and access logs.
      createDefaultStage: false,
      ...(corsPreflight ? { corsPreflight } : {}),
    });
    this.stage = this.createStage(props);
    const defaultRoute = this.api.node.tryFindChild('DefaultRoute') as HttpRoute | undefined;
    if (defaultRoute) {
      Validations.of(defaultRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'The $default route only answers 404/405 problems for requests no route takes; it reaches no data and needs no caller identity.',
      });
    }
    for (const route of props.routes) this.addRoute(route);
  }

  /** One integration per function, shared by its routes (the site function serves five, and $default). */
  private integrationFor(name: FunctionName): HttpLambdaIntegration {
    let integration = this.integrations.get(name);
    if (!integration) {
      const fn = this.functions.get(name);
      if (!fn) throw new Error(`no function ${name}`);
      integration = new HttpLambdaIntegration(`${functionId(name)}Integration`, fn.function);
      this.integrations.set(name, integration);
    }
    return integration;
  }

  /** The `$default` stage, throttled, with one JSON access line per request. */
  private createStage(props: ServiceApiProps): HttpStage {
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    (accessLogs.node.defaultChild as CfnLogGroup).overrideLogicalId(ACCESS_LOGS_LOGICAL_ID);
    const stage = new HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttleRateLimit, burstLimit: props.throttleBurstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // The fields the local host writes too, so one query reads both.
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    (stage.node.defaultChild as CfnStage).overrideLogicalId(STAGE_LOGICAL_ID);
    return stage;
  }

  private addRoute(route: RouteDef) {
    const constructs = this.api.addRoutes({
      path: route.path,
      // HEAD wherever GET is (RFC 9110 9.3.2): API Gateway's routes are per method, and the
      // function serves `HEAD /path` as `GET /path` (servingRouteKey).
      methods:
        route.method === 'GET' ? [HttpMethod.GET, HttpMethod.HEAD] : [HttpMethod[route.method]],
      integration: this.integrationFor(route.function),
    });
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
