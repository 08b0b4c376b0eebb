// Construct ids from function names: `summarize` -> `Summarize` (the logical IDs of deployed
// stacks derive from them, so they must not change).

export function pascal(name: string): string {
  return name.replace(/(^|[-_])([a-z])/g, (_, _sep: string, letter: string) =>
    letter.toUpperCase(),
  );
}

/**
 * Functions renamed since they were first deployed, by the construct id they keep: `site` was
 * `docs` until it was named for all it serves (the page, the docs, `$default`). A new id would
 * make CloudFormation replace the function, its role, log group (and logs), alarms and
 * integration for nothing.
 */
const DEPLOYED_AS: Readonly<Record<string, string>> = { site: 'Docs' };

/** The construct id of a function's constructs (its Lambda, alarms, integration). */
export function functionId(name: string): string {
  return DEPLOYED_AS[name] ?? pascal(name);
}
