// The password rules a client can know before sending (lengths), apart from
// lib/accounts/auth/passwords.ts so that the route table and the OpenAPI document do not bundle bcrypt or the common-password
// list. passwordProblem() applies these and the rules a schema cannot say (bytes, common words).
import * as z from '../../schema';

import {
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN_CHARS,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from './password-limits';

export { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARS, PASSWORD_TOO_LONG, PASSWORD_TOO_SHORT };

/**
 * A new password as the schema can state it: 8 to 72 characters. The byte limit (72 bytes in
 * UTF-8, so fewer characters outside ASCII) and the common-password check follow in
 * passwordProblem(); the description says so for clients.
 */
export const newPasswordSchema = z.string().check(
  z.minLength(PASSWORD_MIN_CHARS, PASSWORD_TOO_SHORT),
  z.maxLength(PASSWORD_MAX_BYTES, PASSWORD_TOO_LONG),
  z.meta({
    description: `${PASSWORD_MIN_CHARS}+ characters and at most ${PASSWORD_MAX_BYTES} bytes in UTF-8 (never truncated); not one of the 10,000 most common passwords`,
    examples: ['correct horse battery staple'],
  }),
);
