// GET /health: liveness only. Imports nothing heavy and touches no dependency, so it answers
// while DynamoDB or Bedrock are down and its bundle stays a few KB.
import { json } from '../lib/http/reply';

export const handler = async () => json(200, { status: 'healthy' });
