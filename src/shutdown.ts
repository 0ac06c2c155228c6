/**
 * Graceful shutdown, bounded in time. On SIGINT (Deno Deploy sends it, then SIGKILL 5 s later)
 * or SIGTERM: stop scheduled work and stop accepting connections, let in-flight requests finish,
 * and only then abort whatever is left and release KV. If requests are still running when the
 * grace period ends, they are aborted so the process exits before a platform kills it.
 *
 * `main.ts` supplies the steps (`server.shutdown()`, `handler.close()`, stopping cron, closing
 * KV); this module owns their order and the bound, so both are tested without a process.
 *
 * @module
 */

import type { Clock } from "./clock.ts";
import { describeError, type Logger } from "./log.ts";

/** Time in-flight requests get to finish. */
export const SHUTDOWN_GRACE_MS = 3_000;
/** Time aborted requests get to unwind after the grace period; the two stay under Deploy's 5 s. */
export const SHUTDOWN_ABORT_MS = 1_000;

/** What shutting down does, in the order it happens. */
export interface ShutdownSteps {
  /** Stops scheduled work (cron jobs) so nothing new starts. */
  readonly stopScheduled: () => void;
  /** Stops accepting connections and resolves when every in-flight request has been answered. */
  readonly drain: () => Promise<void>;
  /** Aborts what is still in flight (after the drain, or at the end of the grace period). */
  readonly abort: () => Promise<void>;
  /** Releases resources (closes KV). Runs last. */
  readonly release: () => void;
}

/** Options of {@linkcode shutDown}. */
export interface ShutdownOptions {
  readonly clock: Clock;
  readonly log: Logger;
  /** The signal that triggered the shutdown, for the log. */
  readonly signal: string;
  /** @default SHUTDOWN_GRACE_MS */
  readonly graceMs?: number;
  /** @default SHUTDOWN_ABORT_MS */
  readonly abortMs?: number;
}

/** `drained`: every request finished in time; `cut`: some were aborted at the bound. */
export type ShutdownOutcome = "drained" | "cut";

/**
 * Runs the steps in order, within `graceMs + abortMs`.
 *
 * @example
 * ```ts
 * const outcome = await shutDown({
 *   stopScheduled: () => cronStop.abort(),
 *   drain: () => server.shutdown(),
 *   abort: () => handler.close(),
 *   release: () => kv.close(),
 * }, { clock: systemClock, log, signal: "SIGINT" });
 * ```
 */
export async function shutDown(
  steps: ShutdownSteps,
  options: ShutdownOptions,
): Promise<ShutdownOutcome> {
  const { clock, log } = options;
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS;
  const started = clock.now();
  log.info("shutting down", { signal: options.signal });
  steps.stopScheduled();
  const drained = steps.drain().then(() => true, (error: unknown) => {
    log.warn("shutdown: the server did not stop cleanly", { error: describeError(error) });
    return true;
  });
  const inTime = await within(drained, graceMs, clock);
  if (!inTime) log.warn("shutdown: aborting requests still in flight", { graceMs });
  try {
    await steps.abort();
  } catch (error) {
    log.warn("shutdown: aborting in-flight exchanges failed", { error: describeError(error) });
  }
  // Aborted exchanges answer quickly; give them a moment so their clients hear something.
  if (!inTime) await within(drained, options.abortMs ?? SHUTDOWN_ABORT_MS, clock);
  steps.release();
  const outcome: ShutdownOutcome = inTime ? "drained" : "cut";
  log.info("stopped", { outcome, ms: clock.now() - started });
  return outcome;
}

/** True when `done` settles within `ms`; the timer is released either way. */
async function within(done: Promise<boolean>, ms: number, clock: Clock): Promise<boolean> {
  const timer = new AbortController();
  const timeout = clock.timer(ms, timer.signal).then(() => false, () => false);
  try {
    return await Promise.race([done, timeout]);
  } finally {
    timer.abort();
    await timeout;
  }
}
