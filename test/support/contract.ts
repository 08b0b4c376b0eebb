// The API's contract, checked on every response the tests see: the OpenAPI document the host
// serves at /openapi.json says which statuses, media types, headers and bodies each operation
// answers, and a response that the document does not describe fails the test that got it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ResponseObject,
} from 'openapi3-ts/oas31';
import { createPathMatcher } from '../../lib/http/paths';
import { routeList } from '../../lib/routes';

export interface ContractResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface Contract {
  readonly document: OpenAPIObject;
  /** @throws Error saying how the response differs from the document. */
  check(method: string, path: string, response: ContractResponse): void;
}

const paths = createPathMatcher(routeList);

/** JSON pointer escaping (RFC 6901), for paths such as `/docs/{file}`. */
const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The contract of an OpenAPI document (as served by the host under test). */
export function contractOf(document: OpenAPIObject): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${ref}` });
      validators.set(ref, validate);
    }
    return validate;
  };
  const problemRef = '/components/schemas/Problem';

  return {
    document,
    check(method, rawPath, response) {
      const path = rawPath.split('?')[0] ?? rawPath;
      const where = `${method} ${path} -> ${response.status}`;
      const fail = (message: string): never => {
        throw new Error(`${where} breaks the OpenAPI contract: ${message}\n${response.text}`);
      };
      // CORS preflights are API Gateway's, not operations of the document.
      if (method === 'OPTIONS' && response.status === 204) return;
      const match = paths.match(path, method);
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
      const body = () => {
        try {
          return JSON.parse(response.text) as unknown;
        } catch {
          return fail('the body is not JSON');
        }
      };
      const validate = (ref: string) => {
        const check = validator(ref);
        if (!check(body())) fail(ajv.errorsText(check.errors));
      };

      if (match.kind !== 'found') {
        // No operation: path matching's 404 or 405, which every path answers alike.
        if (mediaType !== 'application/problem+json') fail(`media type ${mediaType}`);
        validate(problemRef);
        if (match.kind === 'method-not-allowed' && !response.headers.get('allow'))
          fail('no Allow header');
        return;
      }
      const { route } = match;
      const method_ = route.method.toLowerCase();
      const item = (document.paths?.[route.path] ?? {}) as Record<string, OperationObject>;
      const operation = item[method_];
      const documented = operation?.responses?.[String(response.status)] as
        | ResponseObject
        | undefined;
      if (!documented) fail('status not documented');
      for (const [name, spec] of Object.entries(documented?.headers ?? {})) {
        const header = (
          '$ref' in spec ? document.components?.headers?.[spec.$ref?.split('/').pop() ?? ''] : spec
        ) as HeaderObject | undefined;
        const value = response.headers.get(name);
        if (value === null) {
          if (header?.required) fail(`no ${name} header`);
          continue;
        }
        const schema = header?.schema as { type?: string; minimum?: number } | undefined;
        if (
          schema?.type === 'integer' &&
          !(/^\d+$/.test(value) && Number(value) >= (schema.minimum ?? 0))
        )
          fail(`${name}: ${value} is not the documented integer`);
      }
      if (documented?.content === undefined) {
        if (response.text !== '') fail('a body where the document says there is none');
        return;
      }
      const content = documented.content;
      if (!(mediaType in content)) {
        fail(`media type "${mediaType}", documented: ${Object.keys(content).join(', ')}`);
      }
      if (mediaType.endsWith('json')) {
        validate(
          `/${pointer('paths', route.path, method_, 'responses', String(response.status), 'content', mediaType, 'schema')}`,
        );
      }
    },
  };
}

/** The contract of the document a running host serves. */
export async function fetchContract(baseUrl: string): Promise<Contract> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return contractOf((await response.json()) as OpenAPIObject);
}
