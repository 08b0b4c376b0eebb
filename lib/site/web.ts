// The page for people at `/`: an HTML shell naming this deployment's models, and the app's script
// and style (built from web/ by infra/web-build.ts). Deployed, the files sit in `web/` beside the
// docs function's bundle; the local host builds them at start and hands them over in memory.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config';
import { NotFoundError } from '../errors';
import type { Reply } from '../reply';
import { webFileSchema } from '../routes/docs';
import type * as z from '../schema';
import { catalogFromConfig } from '../summaries/offer';
import { once } from '../util/once';
import { ICON } from './icon';
import { type StaticFile, staticFile, staticFileReply } from './static-file';

export type WebFile = z.output<typeof webFileSchema>;

/** The page's built files by name, as GET /app/{file} serves them. */
export type WebFiles = Record<WebFile, string>;

const CONTENT_TYPES: Record<WebFile, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/**
 * Nothing but this origin's own files and API. No inline script or style at all (the app sets
 * styles through the CSSOM, which CSP allows), no form may post anywhere, no frame may hold the
 * page, and Trusted Types forbid handing strings to HTML sinks: an injected string can never
 * become markup, let alone script that reads the token in sessionStorage.
 */
export const WEB_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** What the page needs to know of this deployment, in its HTML (no request, no inline script). */
export interface PageSettings {
  models: readonly string[];
  defaultModel: string;
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The HTML shell; the files are named with a hash of their content, so caches never mix them. */
function pageHtml(settings: PageSettings, versions: Record<WebFile, string>): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <meta name="tubesum-models" content="${escapeAttribute(JSON.stringify(settings.models))}">
  <meta name="tubesum-default-model" content="${escapeAttribute(settings.defaultModel)}">
  <title>tubesum: summaries of YouTube videos</title>
  <link rel="icon" href="${ICON}">
  <link rel="stylesheet" href="app/app.css?v=${versions['app.css']}">
  <script type="module" src="app/app.js?v=${versions['app.js']}"></script>
</head>
<body>
  <div id="app"><noscript>This page needs JavaScript. The API works without it: see <a href="docs">its documentation</a>.</noscript></div>
</body>
</html>
`;
}

/** The built files beside the deployed bundle (infra/bundling.ts puts them there). */
function bundledFiles(): WebFiles {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'web');
  if (!existsSync(join(dir, 'app.js'))) {
    throw new Error(`the page's files are not in ${dir}; build them with infra/web-build.ts`);
  }
  return {
    'app.js': readFileSync(join(dir, 'app.js'), 'utf8'),
    'app.css': readFileSync(join(dir, 'app.css'), 'utf8'),
  };
}

export interface WebApp {
  /** GET /: the page. */
  page(acceptEncoding: string | undefined): Reply;
  /** GET /app/{file}: one of its files. @throws NotFoundError for any other name. */
  file(name: string, acceptEncoding: string | undefined): Reply;
}

/**
 * The page of this deployment: its models from the Config, its files given (the local host) or
 * read from beside the bundle (Lambda) on first use.
 * @throws ConfigError (on first use) when the model catalog settings are invalid.
 */
export function createWebApp(config: Config, given?: Promise<WebFiles>): () => Promise<WebApp> {
  // A failed load (missing files, bad catalog) is tried again by the next request.
  return once(async (): Promise<WebApp> => {
    const files = given ? await given : bundledFiles();
    const compressed = {} as Record<WebFile, StaticFile>;
    const versions = {} as Record<WebFile, string>;
    for (const [name, content] of Object.entries(files) as [WebFile, string][]) {
      compressed[name] = staticFile(content);
      versions[name] = createHash('sha256').update(content).digest('hex').slice(0, 12);
    }
    const catalog = catalogFromConfig(config);
    const html = staticFile(
      pageHtml(
        { models: catalog.names, defaultModel: config.DEFAULT_MODEL.trim().toLowerCase() },
        versions,
      ),
    );
    return {
      page: (acceptEncoding) =>
        staticFileReply(html, 'text/html; charset=utf-8', acceptEncoding, {
          // The shell is tiny and names the current files: always ask again.
          'Cache-Control': 'no-cache',
          'Content-Security-Policy': WEB_CSP,
          'X-Frame-Options': 'DENY',
        }),
      file: (name, acceptEncoding) => {
        const parsed = webFileSchema.safeParse(name);
        if (!parsed.success) {
          throw new NotFoundError(
            `No file of the page named ${JSON.stringify(name.slice(0, 64))}.`,
          );
        }
        return staticFileReply(
          compressed[parsed.data],
          CONTENT_TYPES[parsed.data],
          acceptEncoding,
          // Named by content (?v=) in the page, so a year is safe.
          { 'Cache-Control': 'public, max-age=31536000, immutable' },
        );
      },
    };
  });
}
