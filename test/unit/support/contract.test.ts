// The contract check every integration response goes through must itself catch what the
// document does not describe: otherwise "every response validates" would prove nothing.
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../lib/openapi';
import { type ContractResponse, contractOf } from '../../support/contract';

const contract = contractOf(buildOpenApiDocument({ models: ['extractive'] }));
const problem = (status: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 't', title: 't', status, detail: 'd', request_id: 'r', ...extra });

function response(
  status: number,
  text: string,
  headers: Record<string, string> = {},
  contentType = status >= 400 ? 'application/problem+json' : 'application/json',
): ContractResponse {
  return {
    status,
    text,
    headers: new Headers({ 'content-type': contentType, 'x-request-id': 'r', ...headers }),
  };
}

describe('the contract check', () => {
  it('accepts a response the document describes', () => {
    expect(() =>
      contract.check('GET', '/health', response(200, '{"status":"healthy"}')),
    ).not.toThrow();
    expect(() =>
      contract.check(
        'POST',
        '/summarize',
        response(503, problem(503, { block_reason: 'captcha' }), { 'retry-after': '300' }),
      ),
    ).not.toThrow();
  });

  it('refuses an undocumented status', () => {
    expect(() => contract.check('GET', '/health', response(418, problem(418)))).toThrow(
      /status not documented/,
    );
  });

  it('refuses an undeclared body member, in a success and in a problem', () => {
    expect(() =>
      contract.check('GET', '/health', response(200, '{"status":"healthy","extra":1}')),
    ).toThrow(/additional properties/);
    expect(() =>
      contract.check('POST', '/register', response(422, problem(422, { hint: 'x' }))),
    ).toThrow(/additional properties/);
  });

  it('refuses a missing or malformed documented header', () => {
    expect(() =>
      contract.check('POST', '/token', response(429, problem(429), { 'retry-after': 'soon' })),
    ).toThrow(/Retry-After/);
    expect(() => contract.check('POST', '/summarize', response(401, problem(401)))).toThrow(
      /WWW-Authenticate/,
    );
    const noId = response(200, '{"status":"healthy"}');
    noId.headers.delete('x-request-id');
    expect(() => contract.check('GET', '/health', noId)).toThrow(/X-Request-Id/);
  });

  it('refuses an undocumented media type', () => {
    expect(() =>
      contract.check('GET', '/health', response(200, '{"status":"healthy"}', {}, 'text/plain')),
    ).toThrow(/media type/);
  });

  it('holds unknown paths and wrong methods to the problem shape', () => {
    expect(() => contract.check('GET', '/nowhere', response(404, problem(404)))).not.toThrow();
    expect(() =>
      contract.check('GET', '/nowhere', response(404, '{"message":"Not Found"}')),
    ).toThrow(/required property/);
    expect(() => contract.check('DELETE', '/health', response(405, problem(405)))).toThrow(/Allow/);
  });
});
