// GET /health: liveness only. Imports nothing heavy and touches no dependency, so it answers
// while DynamoDB or Bedrock are down and its bundle stays a few KB.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { exit, requestIdOf } from '../lib/http/exit';
import { json } from '../lib/reply';

export const handler = async (event: APIGatewayProxyEventV2) =>
  exit(json(200, { status: 'healthy' }), requestIdOf(event));

/** Like every function module's; /health needs no settings, so it imports no Config. */
export const create = () => handler;
