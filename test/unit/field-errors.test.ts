// zod's issues as the field errors a 422 lists: each a sentence saying what to do, the
// schemas' own messages kept as written.
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../lib/field-errors';
import * as z from '../../lib/schema';

const errorsOf = (schema: z.ZodMiniType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  return fieldErrors(parsed.error);
};

describe('fieldErrors', () => {
  it("restates zod's own words as what to do", () => {
    const schema = z.object({
      limit: z.number().check(z.maximum(100)),
      name: z.string().check(z.minLength(3)),
      tags: z.array(z.string()).check(z.maxLength(2)),
      body: z.object({}),
    });
    expect(errorsOf(schema, { limit: 101, name: 'ab', tags: ['a', 'b', 'c'], body: 7 })).toEqual([
      { field: 'limit', message: 'Use at most 100.' },
      { field: 'name', message: 'Use at least 3 characters.' },
      { field: 'tags', message: 'Use at most 2 items.' },
      { field: 'body', message: 'Use an object.' },
    ]);
  });

  it('asks for a missing field to be filled in', () => {
    expect(errorsOf(z.object({ video_url: z.string() }), {})).toEqual([
      { field: 'video_url', message: 'Fill in this field.' },
    ]);
  });

  it("keeps a schema's own message, and ends one written as a fragment with a capital and a full stop", () => {
    const own = z.string().check(z.minLength(8, 'Use at least 8 characters for the password.'));
    expect(errorsOf(z.object({ password: own }), { password: 'short' })).toEqual([
      { field: 'password', message: 'Use at least 8 characters for the password.' },
    ]);
    const fragment = z.string().check(z.regex(/^a/, 'must start with a'));
    expect(errorsOf(fragment, 'b')).toEqual([{ field: 'body', message: 'Must start with a.' }]);
  });
});
