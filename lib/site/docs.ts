// The interactive documentation: Swagger UI's own files (swagger-ui-dist, served from this
// function, never a CDN) around the OpenAPI document generated from the route table.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config';
import { NotFoundError } from '../errors';
import { buildOpenApiDocument } from '../openapi';
import { type Reply, text } from '../reply';
import { docsFileSchema } from '../routes/docs';
import type * as z from '../schema';
import { catalogFromConfig } from '../summaries/offer';
import { DOCS_INIT, DOCS_PAGE, DOCS_STYLE } from './docs-page';
import { type StaticFile, staticFile, staticFileReply } from './static-file';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

type DocsFile = z.output<typeof docsFileSchema>;

/** Swagger UI's own files, read from swagger-ui-dist. */
const ASSETS: Record<Exclude<DocsFile, 'init.js'>, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/** Where swagger-ui-dist's files are: configured, beside a bundled handler, or in node_modules. */
function assetDir(config: Config): string {
  const candidates = [
    config.SWAGGER_UI_DIR,
    dirname(fileURLToPath(import.meta.url)),
    (() => {
      try {
        return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      } catch {
        return undefined;
      }
    })(),
  ];
  const found = candidates.find((dir) => dir && existsSync(join(dir, 'swagger-ui-bundle.js')));
  if (!found) throw new Error('swagger-ui-dist files not found; set SWAGGER_UI_DIR');
  return found;
}

const cache = new Map<string, StaticFile>();
let openapi: string | undefined;

const cacheable = { 'Cache-Control': 'public, max-age=3600' };

/**
 * The OpenAPI document of this deployment (its models), built once per process.
 * @throws ConfigError when the model catalog settings are invalid.
 */
export function openApiReply(config: Config): Reply {
  openapi ??= JSON.stringify(buildOpenApiDocument({ models: catalogFromConfig(config).names }));
  return text(200, openapi, 'application/json; charset=utf-8', cacheable);
}

/** The Swagger UI page. */
export function docsPageReply(): Reply {
  return text(200, DOCS_PAGE, 'text/html; charset=utf-8', {
    ...cacheable,
    'Content-Security-Policy': CSP,
    'X-Frame-Options': 'DENY',
  });
}

/**
 * One of Swagger UI's files, gzip-compressed when the client accepts it (the bundle is 1.7 MB).
 * @throws NotFoundError for any other name (no path is ever joined from user input).
 */
export function docsAssetReply(config: Config, name: string, acceptEncoding = ''): Reply {
  const parsed = docsFileSchema.safeParse(name);
  if (!parsed.success)
    throw new NotFoundError(`No documentation file named ${JSON.stringify(name.slice(0, 64))}.`);
  const file = parsed.data;
  if (file === 'init.js')
    return text(200, DOCS_INIT, 'application/javascript; charset=utf-8', cacheable);
  const contentType = ASSETS[file];
  let entry = cache.get(file);
  if (!entry) {
    const content = readFileSync(join(assetDir(config), file));
    entry = staticFile(file === 'swagger-ui.css' ? `${content}${DOCS_STYLE}` : content);
    cache.set(file, entry);
  }
  return staticFileReply(entry, contentType, acceptEncoding, cacheable);
}
