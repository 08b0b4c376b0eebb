// The documentation's routes (GET /openapi.json, GET /docs, GET /docs/{file}) and the page's
// (GET /, GET /app/{file}), all served by the site function, with the
// schemas of their files.
import * as z from '../schema';
import { handled, type RouteDef, route } from './route';

/** The files GET /docs/{file} serves (Swagger UI's, and the page's own script). */
export const docsFileSchema = z
  .enum(['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js'])
  .check(z.meta({ description: 'A file of the documentation page' }));

/** The files GET /app/{file} serves: the page's script and style. */
export const webFileSchema = z
  .enum(['app.js', 'app.css'])
  .check(z.meta({ description: 'A file of the page for people' }));

/** What GET /openapi.json returns (described loosely: it is this very document). */
export const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .check(z.meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' }));

export const docsRoutes = {
  openapi: route({
    method: 'GET',
    path: '/openapi.json',
    function: 'site',
    auth: false,
    tag: 'docs',
    summary: 'This OpenAPI 3.1 document',
    description:
      'Generated from the route table; used_model lists the models this deployment offers.',
    responses: {
      200: { description: 'The OpenAPI document', schema: openApiDocumentSchema },
      ...handled,
    },
  }),
  docs: route({
    method: 'GET',
    path: '/docs',
    function: 'site',
    auth: false,
    tag: 'docs',
    summary: 'Interactive documentation (Swagger UI)',
    description: 'Swagger UI over this document, served by the service itself (no CDN).',
    responses: {
      200: { description: 'An HTML page', contentTypes: ['text/html'] },
      ...handled,
    },
  }),
  docsAsset: route({
    method: 'GET',
    path: '/docs/{file}',
    function: 'site',
    auth: false,
    tag: 'docs',
    summary: 'Swagger UI files (scripts and styles), served locally, no CDN',
    description: 'The files the documentation page loads.',
    params: { file: docsFileSchema },
    responses: {
      200: {
        description: 'A static file',
        contentTypes: ['application/javascript', 'text/css'],
      },
      ...handled,
      404: { description: 'No such file' },
    },
  }),
  page: route({
    method: 'GET',
    path: '/',
    function: 'site',
    auth: false,
    tag: 'page',
    summary: 'The page for people: sign up, summarise a video, read its key points, find it again',
    description:
      'A small web app over this API, served by the service itself: no CDN and no request to any other origin.',
    responses: {
      200: { description: 'An HTML page', contentTypes: ['text/html'] },
      ...handled,
    },
  }),
  pageFile: route({
    method: 'GET',
    path: '/app/{file}',
    function: 'site',
    auth: false,
    tag: 'page',
    summary: "The page's script and style",
    description: 'The files the page loads.',
    params: { file: webFileSchema },
    responses: {
      200: { description: 'A static file', contentTypes: ['text/javascript', 'text/css'] },
      ...handled,
      404: { description: 'No such file' },
    },
  }),
} as const satisfies Record<string, RouteDef>;
