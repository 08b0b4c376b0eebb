// The lengths of a password, without zod: the schema, the checks and the page for people all
// read them from here.

export const PASSWORD_MIN_CHARS = 8;
/** bcrypt only reads the first 72 bytes; longer passwords are refused rather than truncated. */
export const PASSWORD_MAX_BYTES = 72;

export const PASSWORD_TOO_LONG = `Use a password of at most ${PASSWORD_MAX_BYTES} bytes in UTF-8 (accented letters, non-Latin scripts and emoji take 2-4 bytes each): it is never truncated.`;
export const PASSWORD_TOO_SHORT = `Use at least ${PASSWORD_MIN_CHARS} characters for the password.`;
