// A bounded pool: a summary's parts (and combinations) are asked of the model a few at a time,
// and the first failure stops the rest.
/** Runs `fn` over items with at most `limit` in flight (p-limit is not a dependency, and this
 * is all we need). The first failure aborts the others (no point paying for parts of a summary
 * that will not be delivered) and is the error thrown. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const siblings = new AbortController();
  const linked = AbortSignal.any([signal, siblings.signal]);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index, linked);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          siblings.abort();
        }
      }
    }
  };
  const workers = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
