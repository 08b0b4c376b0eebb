// Where each Lambda's entry is: `functions/<area>/<name>.ts`, or `functions/<name>.ts` for the
// functions of no area. Read by the bundler (infra/bundling.ts) and the local host
// (infra/local/server.ts), so a function moved to another folder is found by both.
import type { FunctionName } from './profiles';

const AREAS: Record<FunctionName, string | undefined> = {
  health: undefined,
  site: undefined,
  mcp: undefined,
  ask: undefined,
  register: 'accounts',
  token: 'accounts',
  account: 'accounts',
  'api-keys': 'accounts',
  'oauth-metadata': 'oauth',
  'oauth-clients': 'oauth',
  'oauth-token': 'oauth',
  'connected-apps': 'oauth',
  summarize: 'summaries',
  summaries: 'summaries',
  worker: 'summaries',
};

/** The entry of a Lambda inside functions/, without `.ts` (`accounts/token`). */
export function functionPath(name: FunctionName): string {
  const area = AREAS[name];
  return area ? `${area}/${name}` : name;
}

/** The entry of a Lambda, relative to the repository root (`functions/accounts/token.ts`). */
export function functionFile(name: FunctionName): string {
  return `functions/${functionPath(name)}.ts`;
}
