// Synthesizes the CDK stack (bundling skipped) for the infra tests, and reads its template:
// a function's resource, environment and policy statements by the name of its handler.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll } from 'vitest';
import { functionNames, routeFunctionNames } from '../../infra/bundling';
import { TubesumStack } from '../../infra/stack';
import { routeList } from '../../lib/routes';
import type { FunctionName } from '../../lib/routes/route';

// Template JSON is untyped by nature; the assertions are what give it shape.
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
export type Json = any;
export type Resource = { Type: string; Properties: Record<string, Json>; [key: string]: Json };
export type Statement = {
  Action: string | string[];
  Effect?: string;
  Resource: unknown;
  Condition?: unknown;
};

export interface Synth {
  stack: TubesumStack;
  template: Template;
  resources: Record<string, Resource>;
}

/** The route table's functions: one Lambda each. */
export const handlers = routeFunctionNames(routeList);
/** Every Lambda: the route table's functions and the worker. */
export const allFunctions = functionNames(routeList);

// Every synth writes a cloud assembly; without an outdir the CDK leaves one per App in the
// system's temp folder. These go under one folder per test file, removed after the file.
const assemblies = mkdtempSync(join(tmpdir(), 'tubesum-cdk-test-'));
let appCount = 0;
afterAll(() => rmSync(assemblies, { recursive: true, force: true }));

/**
 * cdk.json's `context`: the CLI hands it to the app on every `cdk synth` and `cdk deploy`, and its
 * feature flags change the template (`@aws-cdk/aws-iam:minimizePolicies` merges statements), so
 * a test synthesizes with it or it asserts a template nobody deploys.
 */
export const cdkJsonContext = (
  JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;

/** A CDK app as the CLI builds it from cdk.json, skipping bundling, its assembly under `assemblies`. */
export function testApp(context: Record<string, unknown> = {}): App {
  appCount += 1;
  return new App({
    outdir: join(assemblies, String(appCount)),
    context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [], ...context },
  });
}

export function synth(context: Record<string, unknown> = {}): Synth {
  const app = testApp(context);
  const stack = new TubesumStack(app, 'Tubesum');
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources };
}

export const logicalId = (s: Synth, construct: { node: { defaultChild?: unknown } }) =>
  s.stack.getLogicalId(construct.node.defaultChild as CfnResource);

export function fnOf(s: Synth, handler: string) {
  const fn = s.stack.functions.get(handler as FunctionName);
  if (!fn) throw new Error(`no function for ${handler}`);
  return fn;
}

export function functionResource(s: Synth, handler: string): Resource {
  const resource = s.resources[logicalId(s, fnOf(s, handler).function)];
  if (!resource) throw new Error(`no template resource for ${handler}`);
  return resource;
}

export function environment(s: Synth, handler: string): Record<string, unknown> {
  return functionResource(s, handler).Properties.Environment?.Variables ?? {};
}

/** Every statement of the policies attached to a handler's role. */
export function statements(s: Synth, handler: string): Statement[] {
  const role = logicalId(s, fnOf(s, handler).role);
  return Object.values(s.resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => JSON.stringify(r.Properties.Roles) === JSON.stringify([{ Ref: role }]))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
}

export const actionsOf = (list: Statement[]) => list.flatMap((st) => [st.Action].flat());

/** One action allowed on one resource (under the statement's condition, if any). */
export interface Grant {
  action: string;
  resource: Json;
  condition?: Json;
}

const grantKey = (g: Grant) => JSON.stringify([g.action, g.resource, g.condition]);
/** Grants in a stable order, without duplicates: what two roles allow compares with toEqual. */
export const sortGrants = (list: Grant[]) =>
  [...new Map(list.map((g) => [grantKey(g), g])).values()].sort((a, b) =>
    grantKey(a) < grantKey(b) ? -1 : 1,
  );

/** `actions` on `resource`, as grants to compare with `grants()`. */
export const allow = (resource: Json, ...actions: string[]): Grant[] =>
  actions.map((action) => ({ action, resource }));

/**
 * A role's permissions as (action, resource) pairs whose action starts with `prefix`. The same
 * whether or not `@aws-cdk/aws-iam:minimizePolicies` merged statements, so a test states what a
 * function may do, not how CDK happened to group it. Every statement here allows: none denies.
 */
export function grants(s: Synth, handler: string, prefix = ''): Grant[] {
  return sortGrants(
    statements(s, handler).flatMap((st) => {
      if (st.Effect !== 'Allow') throw new Error(`not Allow: ${handler}`);
      const resources = [st.Resource].flat();
      return actionsOf([st])
        .filter((action) => action.startsWith(prefix))
        .flatMap((action) =>
          resources.map((resource) =>
            st.Condition === undefined
              ? { action, resource }
              : { action, resource, condition: st.Condition },
          ),
        );
    }),
  );
}

/** Every statement of every identity policy in the template. */
export const allStatements = (s: Synth) =>
  Object.values(s.resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::Role')
    .flatMap((r) => [
      ...(r.Properties.PolicyDocument?.Statement ?? []),
      ...(r.Properties.Policies ?? []).flatMap((p: Json) => p.PolicyDocument.Statement),
    ]) as Statement[];

/** The resources of one type. */
export const resourcesOf = (s: Synth, type: string) =>
  Object.values(s.resources).filter((r) => r.Type === type);
