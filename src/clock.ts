/**
 * Time as a dependency. Everything that reads the time or waits (cache freshness, the token
 * bucket, retry backoff) takes a {@linkcode Clock}, so tests drive time instead of sleeping.
 *
 * @module
 */

/** The source of time and waiting. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds; rejects with the signal's reason when `signal` aborts
   * first.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date.now` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
