/**
 * Graceful shutdown, bounded in time. On SIGINT (Deno Deploy sends it, then SIGKILL 5 s later)
 * or SIGTERM: stop scheduled work and stop accepting connections, let in-flight requests finish,
 * and only then abort whatever is left and release KV. If requests are still running when the
 * grace period ends, they are aborted so the process exits before a platform kills it.
 *
 * `main.ts` supplies the steps (`server.shutdown()`, `handler.close()`, stopping cron and the
 * background jobs, closing KV); this module owns their order and the bound, so both are tested
 * without a process. Background jobs are told to stop first and wound down beside the drain;
 * KV is closed only once they have settled, or when the bound is reached.
 *
 * @module
 */

import { type Clock, settlesWithin } from "../async/clock.ts";
import { describeError, type Logger } from "../log.ts";

/** Time in-flight requests get to finish. */
export const SHUTDOWN_GRACE_MS = 3_000;
/** Time aborted requests get to unwind after the grace period; the two stay under Deploy's 5 s. */
export const SHUTDOWN_ABORT_MS = 1_000;

/** What shutting down does, in the order it happens. */
export interface ShutdownSteps {
  /**
   * Stops scheduled work: nothing new starts (cron jobs unregistered) and running jobs are told
   * to stop. May resolve when they have settled; `release` waits for that, within the bound.
   */
  readonly stopScheduled: () => void | Promise<void>;
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
 *   stopScheduled: () => background.stop(),
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
  const abortMs = options.abortMs ?? SHUTDOWN_ABORT_MS;
  const started = clock.now();
  log.info("shutting down", { signal: options.signal });
  let jobsStopped = false;
  const scheduled = settled(() => steps.stopScheduled(), log, "shutdown: scheduled work failed");
  void scheduled.then(() => jobsStopped = true);
  const drained = settled(() => steps.drain(), log, "shutdown: the server did not stop cleanly");
  const inTime = await settlesWithin(drained, graceMs, clock);
  if (!inTime) log.warn("shutdown: aborting requests still in flight", { graceMs });
  try {
    await steps.abort();
  } catch (error) {
    log.warn("shutdown: aborting in-flight exchanges failed", { error: describeError(error) });
  }
  // Aborted exchanges answer quickly; give them a moment so their clients hear something.
  if (!inTime) await settlesWithin(drained, abortMs, clock);
  // Scheduled jobs wound down beside the drain; KV stays open for them, up to the bound.
  const left = started + graceMs + abortMs - clock.now();
  if (!jobsStopped && (left <= 0 || !(await settlesWithin(scheduled, left, clock)))) {
    log.warn("shutdown: closing KV under background jobs still running");
  }
  steps.release();
  const outcome: ShutdownOutcome = inTime ? "drained" : "cut";
  log.info("stopped", { outcome, ms: clock.now() - started });
  return outcome;
}

/** Runs a step; resolves true once it has settled, logging (never rethrowing) its failure. */
function settled(step: () => void | Promise<void>, log: Logger, message: string): Promise<true> {
  const failed = (error: unknown): true => {
    log.warn(message, { error: describeError(error) });
    return true;
  };
  try {
    return Promise.resolve(step()).then(() => true, failed);
  } catch (error) {
    return Promise.resolve(failed(error));
  }
}
