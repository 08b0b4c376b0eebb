// A value made on first use and kept: one promise for every caller, made again after a failure
// (a secret that could not be read, files not found, a setting to fix), never cached as failed.

/** Calls `load` once and hands every caller the same promise (retried after a failure). */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}
