// Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles: infra/bundling.ts
// aliases that package to this file. On Lambda the credentials of the function's role are in
// the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), so every SDK
// client needs only the environment provider; the rest of the default chain (SSO, INI files,
// credential processes, web identity, instance metadata, and the STS and SSO clients they
// bring) would only weigh on every cold start. The local host's build (infra/local/start.mjs)
// bundles the packages too but has no such alias: on a laptop the SDK keeps its full default
// chain (profiles, SSO, ...).
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** The default provider SDK clients build their credentials from, as the real package names it. */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
