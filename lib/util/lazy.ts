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

/**
 * The handler `build` makes, on the first call, from the module `load` imports then: a
 * function's code loaded when its first event needs it rather than when the runtime imports the
 * entry, so that a cold start reads only the entry. A load that fails is tried again on the next
 * call; a build that throws is handed to `unbuilt`, as builtOnFirstCall does.
 */
export function loadedOnFirstCall<M, A extends unknown[], R>(
  load: () => Promise<M>,
  build: (module: M) => (...args: A) => Promise<R>,
  unbuilt: (error: unknown) => Promise<NoInfer<R>>,
): (...args: A) => Promise<R> {
  let loading: Promise<M> | undefined;
  let handler: ((...args: A) => Promise<R>) | undefined;
  return async (...args) => {
    if (!handler) {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      const module = await loading;
      handler ??= builtOnFirstCall<A, R>(
        () => build(module),
        (error: unknown, ..._args: A) => unbuilt(error),
      );
    }
    return handler(...args);
  };
}
