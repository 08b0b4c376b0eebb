// A factory's operations as module-level functions of its dependencies (each testable alone),
// handed out by the factory with those dependencies bound.

/** `operation` with `deps` as its first argument, taking the rest as it does. */
export const bound =
  <D, A extends unknown[], R>(deps: D, operation: (deps: D, ...args: A) => R) =>
  (...args: A): R =>
    operation(deps, ...args);
