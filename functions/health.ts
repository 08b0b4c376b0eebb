// GET /health: liveness only. Imports nothing heavy and touches no dependency, so it answers
// while DynamoDB or Bedrock are down and its bundle stays a few KB.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { json } from '../lib/http/reply';

export const handler = async (event: APIGatewayProxyEventV2) =>
  json(200, { status: 'healthy' }, { 'X-Request-Id': event.requestContext.requestId });

/** Like every function module's; /health needs no settings, so it imports no Config. */
export const create = () => handler;
