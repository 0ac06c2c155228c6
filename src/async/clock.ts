/**
 * Time as a dependency. Everything that reads the time or waits (cache freshness, the token
 * bucket, retry backoff, timeouts, call deadlines) takes a {@linkcode Clock}, so tests drive
 * time instead of sleeping.
 *
 * @module
 */

/** The source of time and waiting. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * A pause the code chooses to make (a retry backoff, a wait for the budget to refill, a
   * coalescing window): resolves after `ms` milliseconds; rejects with the signal's reason when
   * `signal` aborts first (a deadline cutting the pause short).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * A timer racing something outside the code's control (an upstream exchange, a KV call, a
   * tool call's deadline): resolves after `ms` milliseconds; rejects with the signal's reason
   * when `signal` aborts first (the raced thing ended). In production the same as `sleep`; a
   * test clock may hold timers until the test moves time while letting pauses pass at once.
   */
  timer(ms: number, signal: AbortSignal): Promise<void>;
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
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
  });
}

/** The real clock: `Date.now` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: wait,
  timer: wait,
};

/**
 * True when `work` settles (resolves or rejects) within `ms` on `clock`, false when the time
 * passes first. The timer is released either way; `work` itself is left to finish.
 *
 * @example
 * ```ts
 * if (!(await settlesWithin(server.shutdown(), 3_000, clock))) log.warn("still draining");
 * ```
 */
export async function settlesWithin(
  work: Promise<unknown>,
  ms: number,
  clock: Clock,
): Promise<boolean> {
  const timer = new AbortController();
  const timeout = clock.timer(ms, timer.signal).then(() => false, () => false);
  try {
    return await Promise.race([work.then(() => true, () => true), timeout]);
  } finally {
    timer.abort();
    await timeout;
  }
}
