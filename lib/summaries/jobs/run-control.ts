// How a run is stopped for a reason of its own: its user cancelled it, another worker took its
// lease over, or the process shuts down. The lease is renewed while the run works; a renewal or
// a write that finds it gone stops the run.
import type { Logger } from '../../logger';
import { LeaseLostError, type RecordStore } from '../store/records';

/** Why a run stopped without ending. */
export class RunStopped extends Error {
  override name = 'RunStopped';
  constructor(readonly why: 'cancelled' | 'lost' | 'shutdown') {
    super(`run ${why}`);
  }
}

/** How a run is stopped for a reason of its own (cancelled, taken over, shutdown). */
export interface RunControl {
  /** The budget's signal, or the run's own stop. */
  signal: AbortSignal;
  stopWith(why: RunStopped['why']): void;
  /** Why the run was stopped, if it was. */
  stopped(): RunStopped | undefined;
  /** Stops renewing the lease and listening for the shutdown. */
  dispose(): void;
}

/** The run's own stop, on the shutdown or when its lease, renewed as it works, is lost. */
export function runControl(
  deps: {
    records: Pick<RecordStore, 'renew'>;
    logger: Logger;
    renewEveryMs: number;
    shutdown?: AbortSignal | undefined;
  },
  key: string,
  owner: string,
  budget: AbortSignal,
): RunControl {
  const { records, logger } = deps;
  const stop = new AbortController();
  const stopWith = (why: RunStopped['why']) => {
    if (!stop.signal.aborted) stop.abort(new RunStopped(why));
  };
  const onShutdown = () => stopWith('shutdown');
  deps.shutdown?.addEventListener('abort', onShutdown, { once: true });
  if (deps.shutdown?.aborted) onShutdown();
  const heartbeat = setInterval(() => {
    records.renew(key, owner).then(
      (renewed) => {
        if (renewed !== 'ok') stopWith(renewed);
      },
      (error: unknown) => logger.warn('could not renew a lease', { error: String(error) }),
    );
  }, deps.renewEveryMs);
  heartbeat.unref();
  return {
    signal: AbortSignal.any([budget, stop.signal]),
    stopWith,
    stopped: () => (stop.signal.reason instanceof RunStopped ? stop.signal.reason : undefined),
    dispose: () => {
      clearInterval(heartbeat);
      deps.shutdown?.removeEventListener('abort', onShutdown);
    },
  };
}

/** A write that found the lease gone stops the run (and throws on). */
export const stoppedBy =
  (control: RunControl) =>
  (error: unknown): never => {
    if (error instanceof LeaseLostError) control.stopWith('lost');
    throw error;
  };
