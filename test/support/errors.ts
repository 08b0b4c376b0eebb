import { HttpError } from '../../lib/errors';

/** The HttpError a promise rejects with; fails the test when it resolves or rejects otherwise. */
export async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected the promise to reject with an HttpError');
}
