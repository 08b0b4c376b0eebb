// The cursor of GET /summaries: where the next page of a user's jobs starts (the sort key of
// the last job of a page), opaque to clients and checked when it comes back.
import { ValidationError } from '../../errors';
import { JOB_ID_PATTERN } from '../jobs/schemas';

/** The cursor of GET /summaries: the sort key of the last job of a page, base64url. */
export function encodeCursor(lastSortKey: string): string {
  return Buffer.from(lastSortKey, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { sort: string; id: string } {
  const sort = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)#([A-Za-z0-9_-]+)$/.exec(sort);
  const id = match?.[2];
  if (!match || id === undefined || !JOB_ID_PATTERN.test(id)) {
    throw new ValidationError([
      { field: 'cursor', message: 'is not a next_cursor this service gave' },
    ]);
  }
  return { sort, id };
}
