// Construct ids from handler names: `summarize` -> `Summarize` (the logical IDs of deployed
// stacks derive from them, so they must not change).

export function pascal(name: string): string {
  return name.replace(/(^|[-_])([a-z])/g, (_, _sep: string, letter: string) =>
    letter.toUpperCase(),
  );
}
