// Where each Lambda's entry is, in one table: `functions/<area>/<name>.ts`, or
// `functions/<name>.ts` for the functions of no area. The bundler (infra/bundling.ts) reads the
// file, the local host (infra/local/server.ts) loads the module. Each load is a literal import,
// so that esbuild (the local host's build) and vite (the tests) both see every file.
import type { FunctionName } from '../lib/routes/route';

interface FunctionFile {
  /** Relative to the repository root. */
  file: string;
  /** The module, as the local host runs it. */
  load: () => Promise<unknown>;
}

const FUNCTIONS: Record<FunctionName, FunctionFile> = {
  health: { file: 'functions/health.ts', load: () => import('../functions/health') },
  site: { file: 'functions/site.ts', load: () => import('../functions/site') },
  ask: { file: 'functions/ask.ts', load: () => import('../functions/ask') },
  mcp: { file: 'functions/mcp.ts', load: () => import('../functions/mcp') },
  register: {
    file: 'functions/accounts/register.ts',
    load: () => import('../functions/accounts/register'),
  },
  token: { file: 'functions/accounts/token.ts', load: () => import('../functions/accounts/token') },
  account: {
    file: 'functions/accounts/account.ts',
    load: () => import('../functions/accounts/account'),
  },
  'api-keys': {
    file: 'functions/accounts/api-keys.ts',
    load: () => import('../functions/accounts/api-keys'),
  },
  'oauth-metadata': {
    file: 'functions/oauth/oauth-metadata.ts',
    load: () => import('../functions/oauth/oauth-metadata'),
  },
  'oauth-clients': {
    file: 'functions/oauth/oauth-clients.ts',
    load: () => import('../functions/oauth/oauth-clients'),
  },
  'oauth-token': {
    file: 'functions/oauth/oauth-token.ts',
    load: () => import('../functions/oauth/oauth-token'),
  },
  'connected-apps': {
    file: 'functions/oauth/connected-apps.ts',
    load: () => import('../functions/oauth/connected-apps'),
  },
  summarize: {
    file: 'functions/summaries/summarize.ts',
    load: () => import('../functions/summaries/summarize'),
  },
  summaries: {
    file: 'functions/summaries/summaries.ts',
    load: () => import('../functions/summaries/summaries'),
  },
  collections: {
    file: 'functions/collections/collections.ts',
    load: () => import('../functions/collections/collections'),
  },
  'collection-ask': {
    file: 'functions/collections/ask.ts',
    load: () => import('../functions/collections/ask'),
  },
  worker: {
    file: 'functions/summaries/worker.ts',
    load: () => import('../functions/summaries/worker'),
  },
};

/** The entry of a Lambda, relative to the repository root (`functions/accounts/token.ts`). */
export function functionFile(name: FunctionName): string {
  return FUNCTIONS[name].file;
}

/** A Lambda's module, loaded (the local host builds its handler from it). */
export function loadFunction(name: FunctionName): Promise<unknown> {
  return FUNCTIONS[name].load();
}
