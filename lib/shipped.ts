// Packages that are loaded at run time instead of being bundled: esbuild does not follow a
// require made through createRequire, so these ship as files beside the Lambda bundle
// (infra/bundling.ts copies them) and load only when first used. Used for large packages a
// request may not need: the offline summarizer's language model (3.5 MB) and undici.
import { createRequire } from 'node:module';

export const SHIPPED_PACKAGES = ['wink-eng-lite-web-model', 'undici'] as const;
type Shipped = (typeof SHIPPED_PACKAGES)[number];

const load = createRequire(import.meta.url);

/** Loads one of SHIPPED_PACKAGES (from node_modules locally, beside the bundle on Lambda). */
export function requireShipped<T>(name: Shipped): T {
  return load(name) as T;
}
