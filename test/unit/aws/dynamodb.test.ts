// DynamoDB's refusals that DynamoDB Local cannot provoke: credentials and permissions.
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { storeError } from '../../../lib/aws/dynamodb';

const refused = (name: string, message: string) =>
  new DynamoDBServiceException({ name, message, $fault: 'client', $metadata: {} });

describe('storeError', () => {
  it.each([
    ['AccessDeniedException', 'User is not authorized to perform: dynamodb:GetItem'],
    ['UnrecognizedClientException', 'The security token included in the request is invalid.'],
    ['InvalidSignatureException', 'The request signature we calculated does not match'],
    ['MissingAuthenticationTokenException', 'Request is missing Authentication Token'],
  ])('makes %s a 503 server-misconfigured', (name, message) => {
    const error = refused(name, message);

    expect(storeError(error)).toMatchObject({
      status: 503,
      type: 'server-misconfigured',
      cause: error,
    });
  });

  it('makes missing credentials a 503 server-misconfigured', () => {
    const error = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });

    expect(storeError(error)).toMatchObject({ status: 503, type: 'server-misconfigured' });
  });

  it.each([
    'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of 2048 bytes',
    'Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes',
  ])('makes a key too large (%s) a 422', (message) => {
    expect(storeError(refused('ValidationException', message))).toMatchObject({
      status: 422,
      type: 'value-too-large',
    });
  });

  it('keeps other validation errors (our own requests) for the 500 of a bug', () => {
    const error = refused('ValidationException', 'Invalid UpdateExpression: Syntax error');

    expect(storeError(error)).toBe(error);
  });
});
