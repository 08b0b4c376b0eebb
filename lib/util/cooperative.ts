// CPU-bound work that lets the event loop run now and then. A long computation written as a
// generator `yield`s at points where it may pause; `runToEnd` ignores them (scripts, tests),
// `runInSlices` pauses there once a slice of time is used, so that a process serving requests
// side by side (the local host) keeps answering them, and stops when the request is aborted.
// Hand-written because it is this small: Node 20 has no `scheduler.yield()`, and a worker
// thread would need a bundle entry of its own for a problem only the local host has (on Lambda
// an instance serves one request at a time).
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work that may pause at each `yield` and finally returns a T. */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps without pausing. */
export function runToEnd<T>(steps: Steps<T>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * Runs the steps, letting the event loop run after every `sliceMs` of work.
 * @throws the signal's reason when it aborts between slices.
 */
export async function runInSlices<T>(
  steps: Steps<T>,
  signal: AbortSignal,
  sliceMs = 10,
): Promise<T> {
  signal.throwIfAborted();
  let sliceStart = performance.now();
  let step = steps.next();
  while (!step.done) {
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      signal.throwIfAborted();
      sliceStart = performance.now();
    }
    step = steps.next();
  }
  return step.value;
}
