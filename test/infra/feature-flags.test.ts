// `cdk synth` warns about every feature flag aws-cdk-lib recommends that cdk.json leaves unset,
// and an unset flag keeps the old behaviour. cdk.json sets each one as `cdk init` writes them:
// the CLI copies them from the recommended-feature-flags.json that aws-cdk-lib ships
// (aws-cdk's lib/commands/init/init.js, currentlyRecommendedAwsCdkLibFlags). So an upgrade of
// aws-cdk-lib that recommends a new flag fails here until cdk.json decides it.
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { allFunctions, allStatements, cdkJsonContext, grants, synth } from '../support/synth';

// CDK synth is CPU-bound: seconds on an idle machine, a minute or more on a loaded one.
vi.setConfig({ testTimeout: 180_000 });

const require = createRequire(import.meta.url);
const recommended = require('aws-cdk-lib/recommended-feature-flags.json') as Record<
  string,
  unknown
>;
const cdkJson = { context: cdkJsonContext };

/** Flags cdk.json deliberately sets otherwise than recommended, and why (none today). */
const DELIBERATE: Record<string, string> = {};

describe('CDK feature flags', () => {
  it('sets every flag the installed aws-cdk-lib recommends', () => {
    const unset = Object.keys(recommended).filter((flag) => !(flag in cdkJson.context));

    expect(Object.keys(recommended).length).toBeGreaterThan(0);
    expect(unset).toEqual([]);
  });

  it('sets each to its recommended value unless it says why not', () => {
    const differing = Object.entries(recommended)
      .filter(([flag, value]) => JSON.stringify(cdkJson.context[flag]) !== JSON.stringify(value))
      .map(([flag]) => flag)
      .filter((flag) => !(flag in DELIBERATE));

    expect(differing).toEqual([]);
  });
});

describe('the infra tests', () => {
  // The CLI hands cdk.json's context to the app; a test app without it would assert a template
  // `cdk deploy` never sees. minimizePolicies is one flag that shows in the template: it merges
  // the statements that share actions or resources.
  it('synthesize with cdk.json’s flags, and their permissions hold whether or not statements merge', () => {
    const flag = '@aws-cdk/aws-iam:minimizePolicies';
    const asDeployed = synth();
    const unmerged = synth({ [flag]: false });

    expect(cdkJson.context[flag]).toBe(true);
    expect(asDeployed.stack.node.tryGetContext(flag)).toBe(true);
    expect(allStatements(asDeployed).length).toBeLessThan(allStatements(unmerged).length);
    for (const handler of allFunctions) {
      expect(grants(asDeployed, handler), handler).toEqual(grants(unmerged, handler));
    }
  });
});
