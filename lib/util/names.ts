// The one rule for a name a user gives (an API key's today; a client's or anything else's
// tomorrow): names come back in lists, on the page and in terminals, where a line break, an escape,
// a bidi override or a zero-width character would make one name pass for another ("laptop" and
// "lap\u200Btop", "key\u202Egnp.exe"). Usernames have their own, stricter alphabet.
import * as z from '../schema';
import { hiddenInName, isBlank } from './text';

/** What a name's document says of it; the rule is appended to the description. */
interface NameMeta {
  description: string;
  examples: string[];
}

// The document's pattern: what a pattern says alike in every dialect (something besides spaces,
// no control characters); the schema's checks say the rest, and the description says them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the pattern's job
const DOCUMENTED_PATTERN = /^\s*[^\s\u0000-\u001f\u007f-\u009f][^\u0000-\u001f\u007f-\u009f]*$/;

const RULE =
  'Spaces between words are fine; line breaks, control characters, bidirectional marks, overrides and isolates, and zero-width or other invisible characters (outside an emoji) are refused with 422.';

/**
 * A name of 1 to `maxChars` characters once trimmed, something in it visible, and nothing in it
 * that hides, reorders or breaks what is shown (hiddenInName); 422 naming the first
 * such character.
 */
export function nameSchema(maxChars: number, meta: NameMeta) {
  return z.string().check(
    z.trim(),
    z.minLength(1, { error: 'Fill in this field.', abort: true }),
    z.refine((name) => !isBlank(name), { message: 'Fill in this field.', abort: true }),
    z.maxLength(maxChars, `Use at most ${maxChars} characters.`),
    z.superRefine((name, context) => {
      const hidden = hiddenInName(name);
      if (hidden === undefined) return;
      context.addIssue({
        code: 'custom',
        input: name,
        message: `Remove the line breaks, control, bidirectional or invisible characters (it has ${hidden}).`,
      });
    }),
    z.meta({
      description: `${meta.description}. ${RULE}`,
      examples: meta.examples,
      pattern: DOCUMENTED_PATTERN.source,
    }),
  );
}
