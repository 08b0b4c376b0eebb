// Registration: the password rules of lib/auth applied before the user store. Its own module
// so that only /register bundles the common-password list.
import { hashPassword, passwordProblem } from '../auth/passwords';
import { ValidationError } from '../errors';
import type { User, UserStore } from './store';

/**
 * Creates an account.
 * @throws ValidationError for a refused password; ConflictError when the username or email is
 * taken; ServiceUnavailableError when DynamoDB is unavailable.
 */
export async function registerUser(
  deps: { users: UserStore; bcryptCost: number },
  input: { username: string; email: string; password: string },
): Promise<User> {
  const problem = passwordProblem(input.password);
  if (problem) throw new ValidationError([problem], `The password ${problem.message}.`);
  const passwordHash = await hashPassword(input.password, deps.bcryptCost);
  return deps.users.create({ username: input.username, email: input.email, passwordHash });
}
