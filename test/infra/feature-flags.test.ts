// `cdk synth` warns about every feature flag aws-cdk-lib recommends that cdk.json leaves unset,
// and an unset flag keeps the old behaviour. cdk.json sets each one as `cdk init` writes them:
// the CLI copies them from the recommended-feature-flags.json that aws-cdk-lib ships
// (aws-cdk's lib/commands/init/init.js, currentlyRecommendedAwsCdkLibFlags). So an upgrade of
// aws-cdk-lib that recommends a new flag fails here until cdk.json decides it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const recommended = require('aws-cdk-lib/recommended-feature-flags.json') as Record<
  string,
  unknown
>;
const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
  context: Record<string, unknown>;
};

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
