// The accounts area's schemas, one module: what POST /register, POST /token and DELETE /account
// take and answer (and GET /health's answer, whose route sits with theirs). The route table
// and the OpenAPI document read them; the handlers get them parsed.
import * as z from '../schema';
import { newPasswordSchema } from './auth/password-policy';
import { emailSchema, usernameSchema } from './users/identity';

export const healthResponseSchema = z
  .object({ status: z.literal('healthy') })
  .check(z.meta({ id: 'Health' }));

export const registerBodySchema = z
  .object({ username: usernameSchema, email: emailSchema, password: newPasswordSchema })
  .check(z.meta({ id: 'RegisterRequest' }));

export const registerResponseSchema = z
  .object({
    message: z.string().check(z.meta({ examples: ['User alice registered successfully.'] })),
    username: z.string(),
  })
  .check(z.meta({ id: 'RegisterResponse' }));

// Field names follow the OAuth2 password grant (RFC 6749 4.3), which Swagger UI's Authorize
// button sends as a form; `username` may hold the username or the email.
const identifierSchema = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(256));

export const tokenBodySchema = z
  .object({
    username: z.optional(identifierSchema()).check(z.meta({ description: 'Username or email' })),
    email: z.optional(identifierSchema()).check(z.meta({ description: 'Alternative to username' })),
    password: z.string().check(z.minLength(1), z.maxLength(1_024)),
    grant_type: z.optional(z.literal('password')),
  })
  .check(
    z.refine((body) => body.username !== undefined || body.email !== undefined, {
      message: 'Enter your username or email.',
      path: ['username'],
    }),
    // The refinement above in JSON Schema's words (zod cannot derive it from a function).
    z.meta({ id: 'TokenRequest', anyOf: [{ required: ['username'] }, { required: ['email'] }] }),
  );

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z
      .int()
      .check(z.positive(), z.meta({ description: 'Seconds until the token expires' })),
  })
  .check(z.meta({ id: 'TokenResponse' }));

// The password that confirms a deletion: checked as POST /token checks one (bounded alike; bcrypt
// never sees more than 72 bytes, and a longer password is simply wrong).
export const deleteAccountBodySchema = z
  .object({
    password: z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(1_024),
        z.meta({ description: "The account's current password, to confirm the deletion" }),
      ),
  })
  .check(z.meta({ id: 'DeleteAccountRequest' }));
