// Collections as deployed (issue 36): their routes on two functions of their own, each with
// least privilege, the worker that drives them (it sends their videos to the job queue) and
// COLLECTION_CONCURRENCY from context. Proven on the synthesized template.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { JOBS_INDEX } from '../../lib/aws/table';
import { loadConfig } from '../../lib/config';
import { ASK_MARGIN_MS, MAX_ASK_DEADLINE_MS } from '../../lib/config/summaries';
import { collectionRoutes } from '../../lib/routes/collections';
import {
  actionsOf,
  allFunctions,
  allow,
  environment,
  fnOf,
  functionResource,
  grants,
  logicalId,
  resourcesOf,
  type Synth,
  sortGrants,
  statements,
  synth,
} from '../support/synth';

// CDK synth is CPU-bound: seconds on an idle machine, a minute or more on a loaded one; these
// bounds only end a synth that hangs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let base: Synth;
beforeAll(() => {
  base = synth();
});

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const tableArn = () => arnOf(logicalId(base, base.stack.table));
const queueArn = () => arnOf(logicalId(base, base.stack.jobQueue));
const byService = (handler: string, service: string) => grants(base, handler, service);

describe('the collections routes', () => {
  it('send each collection route to the function its handler names', () => {
    const routes = resourcesOf(base, 'AWS::ApiGatewayV2::Route');
    for (const route of Object.values(collectionRoutes)) {
      const key = `${route.method} ${route.path}`;
      const deployed = routes.find((r) => r.Properties.RouteKey === key);
      const integration = base.resources[deployed?.Properties.Target['Fn::Join'][1][1].Ref];
      const fn = logicalId(base, fnOf(base, route.function).function);

      expect(integration?.Properties.IntegrationUri, key).toEqual(arnOf(fn));
    }
    expect(new Set(Object.values(collectionRoutes).map((route) => route.function))).toEqual(
      new Set(['collections', 'collection-ask']),
    );
  });
});

describe('the collections function', () => {
  it('touches the collection item, records, jobs and the quota, and queries only the jobs index', () => {
    // The collection (put, get, conditional updates, delete), records and jobs (get), the quota
    // (update), the caller's collections (a Query on the jobs index): never a Scan.
    expect(byService('collections', 'dynamodb:')).toEqual(
      sortGrants([
        ...allow(
          tableArn(),
          'dynamodb:DeleteItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ),
        ...allow({ 'Fn::Join': ['', [tableArn(), `/index/${JOBS_INDEX.name}`]] }, 'dynamodb:Query'),
      ]),
    );
  });

  it('sends to the job queue (the first advance, a settled video) and calls no model', () => {
    expect(byService('collections', 'sqs:')).toEqual(allow(queueArn(), 'sqs:SendMessage'));
    expect(environment(base, 'collections').JOB_QUEUE_URL).toEqual({
      Ref: logicalId(base, base.stack.jobQueue),
    });
    // Reads playlists through the operator's proxy (the credentials), verifies tokens (the JWT
    // key), and nothing else.
    expect([...new Set(actionsOf(statements(base, 'collections')))].sort()).toEqual([
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
      'sqs:SendMessage',
    ]);
    expect(functionResource(base, 'collections').Properties.Timeout).toBeLessThan(30);
  });
});

describe('questions across a collection', () => {
  it('read a video and call a model as /ask does, and touch nothing of the job pipeline', () => {
    expect(byService('collection-ask', 'dynamodb:')).toEqual(
      allow(tableArn(), 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'),
    );
    expect(byService('collection-ask', 'sqs:')).toEqual([]);
    expect(environment(base, 'collection-ask')).not.toHaveProperty('JOB_QUEUE_URL');
    expect(byService('collection-ask', 'bedrock:')).toEqual(byService('worker', 'bedrock:'));
    // Within its deadline or a 504, before API Gateway's 30 s.
    const ask = functionResource(base, 'collection-ask').Properties;
    expect(Number(ask.Environment.Variables.ASK_DEADLINE_MS)).toBe(MAX_ASK_DEADLINE_MS);
    expect(ask.Timeout * 1000).toBeGreaterThanOrEqual(MAX_ASK_DEADLINE_MS + ASK_MARGIN_MS);
    expect(ask.Timeout).toBeLessThan(30);
  });
});

describe('COLLECTION_CONCURRENCY', () => {
  it('is the code’s default unless -c collectionConcurrency sets it, for the worker alone', () => {
    for (const handler of allFunctions) {
      expect(environment(base, handler), handler).not.toHaveProperty('COLLECTION_CONCURRENCY');
    }
    const set = synth({ collectionConcurrency: '6' });

    expect(environment(set, 'worker').COLLECTION_CONCURRENCY).toBe('6');
    for (const handler of allFunctions.filter((h) => h !== 'worker')) {
      expect(environment(set, handler), handler).not.toHaveProperty('COLLECTION_CONCURRENCY');
    }
  });

  it('takes 1 to 16, as the worker’s configuration does, and names the key otherwise', () => {
    expect(() => synth({ collectionConcurrency: 0 })).toThrow(
      /context collectionConcurrency .*1 to 16/,
    );
    expect(() => synth({ collectionConcurrency: 17 })).toThrow(/collectionConcurrency/);
    expect(() => synth({ collectionConcurrency: 'many' })).toThrow(/collectionConcurrency/);
    expect(environment(synth({ collectionConcurrency: 16 }), 'worker')).toMatchObject({
      COLLECTION_CONCURRENCY: '16',
    });
    // The same bounds as the worker's cold start: no value the synth takes fails it.
    expect(loadConfig({ COLLECTION_CONCURRENCY: '16' }).COLLECTION_CONCURRENCY).toBe(16);
    expect(() => loadConfig({ COLLECTION_CONCURRENCY: '17' })).toThrow(/COLLECTION_CONCURRENCY/);
  });
});

describe('alarms', () => {
  it('watch both collections functions’ errors and throttles', () => {
    const alarms = resourcesOf(base, 'AWS::CloudWatch::Alarm');
    for (const handler of ['collections', 'collection-ask']) {
      const fn = logicalId(base, fnOf(base, handler).function);
      const metrics = alarms
        .filter((a) => a.Properties.Dimensions?.[0]?.Value?.Ref === fn)
        .map((a) => a.Properties.MetricName)
        .sort();

      expect(metrics, handler).toEqual(['Errors', 'Throttles']);
    }
  });
});
