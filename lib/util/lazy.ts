// A function's handler made on its first call, as Lambda runs a module once per instance: the
// deployed HTTP functions and the worker share this one way of building late.

/**
 * The handler `build` makes on the first call, kept for every later one. A build that throws
 * is handed to `unbuilt` (which answers that call, or throws) and tried again on the next call.
 */
export function builtOnFirstCall<A extends unknown[], R>(
  build: () => (...args: A) => Promise<R>,
  unbuilt: (error: unknown, ...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  let built: ((...args: A) => Promise<R>) | undefined;
  return async (...args) => {
    if (!built) {
      try {
        built = build();
      } catch (error) {
        return unbuilt(error, ...args);
      }
    }
    return built(...args);
  };
}
