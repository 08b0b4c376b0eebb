// zod's issues as the field errors a 422 lists, in the words a person acts on.
import type { FieldError } from './errors';
import type { core } from './schema';

/**
 * zod issues as field errors a person can act on, each a sentence saying what to do: the
 * schemas' own messages are written so; zod's defaults ("Too big: expected number to be <=100")
 * are said again in those words.
 */
export function fieldErrors(error: core.$ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.join('.') || 'body',
    message: sentenceOf(issue),
  }));
}

function sentenceOf(issue: core.$ZodIssue): string {
  if (/received undefined/.test(issue.message)) return 'Fill in this field.';
  // zod's own words start so; a schema's message is kept as it was written.
  const zods = /^(Too big|Too small|Invalid input):/.test(issue.message);
  if (zods && (issue.code === 'too_big' || issue.code === 'too_small')) {
    const bound = String(issue.code === 'too_big' ? issue.maximum : issue.minimum);
    const at = issue.code === 'too_big' ? 'at most' : 'at least';
    const unit =
      issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
    return `Use ${at} ${bound}${unit}.`;
  }
  if (zods && issue.code === 'invalid_type') {
    return `Use ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}.`;
  }
  const message = issue.message.trim();
  const capital = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
