/**
 * A bound on every Deno KV operation. KV calls cannot be cancelled, and on Deno Deploy each one
 * is a network round trip that can stall; without a bound a stalled database would hold a tool
 * call past its deadline. An operation that does not settle in time is abandoned (its late
 * result is ignored) and reported as a {@linkcode KvTimeoutError}, which the caller treats like
 * any other KV failure.
 *
 * @module
 */

import { type Clock, systemClock } from "../async/clock.ts";
import { RELEASED } from "../async/deadline.ts";

/** How long one KV operation (a lookup, a commit, a budget take) may take. */
export const KV_TIMEOUT_MS = 2_000;

/** How a cache or the bucket bounds its KV calls. */
export interface KvTimeout {
  /** The bound in milliseconds. */
  readonly ms: number;
  /**
   * The clock of the bound: real time unless a test of the bound says otherwise. A stalled
   * database is a wall-clock event, and on a test's manual clock the bound would fire whenever
   * the test moved time while an in-memory operation was merely slow.
   */
  readonly clock: Clock;
}

/** The bound used unless a test says otherwise: {@linkcode KV_TIMEOUT_MS} of real time. */
export const DEFAULT_KV_TIMEOUT: KvTimeout = { ms: KV_TIMEOUT_MS, clock: systemClock };

/** A KV operation that did not settle within its bound. */
export class KvTimeoutError extends Error {
  /** @param ms the bound that passed */
  constructor(ms: number) {
    super(`Deno KV did not answer within ${ms} ms`);
    this.name = "KvTimeoutError";
  }
}

/**
 * Runs `operation` under `bound`. The operation receives a signal that aborts when the bound
 * passes, so a multi-step operation can stop starting new steps.
 *
 * @throws {KvTimeoutError} when the bound passes first; the operation's own error otherwise
 */
export async function withKvTimeout<T>(
  bound: KvTimeout,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const work = operation(stop.signal);
  const expired = bound.clock.timer(bound.ms, stop.signal).then(() => true, () => false);
  try {
    const winner = await Promise.race([work.then((value) => ({ value })), expired]);
    if (typeof winner === "boolean") {
      // The late result (or error) of an abandoned operation is of no use to anyone.
      work.catch(() => undefined);
      throw new KvTimeoutError(bound.ms);
    }
    return winner.value;
  } finally {
    stop.abort(RELEASED);
    await expired;
  }
}
