/**
 * One deadline per tool call. The contract promises an answer within 15 s whatever upstream
 * does, so every wait below a tool call (the shared budget, an upstream attempt, a retry pause,
 * another caller's batch) takes the call's {@linkcode Deadline}: an `AbortSignal` that fires when
 * the time is up, plus the time left, for decisions such as "is a retry still worth starting?".
 * The deadline runs on the injected {@linkcode Clock}, so tests decide when it passes.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { Clock } from "./clock.ts";

/** The contract's bound on one tool call ("Time"): an answer within 15 seconds. */
export const CALL_DEADLINE_MS = 15_000;

/** The bound on some work: a signal that aborts when it passes, and the time left until then. */
export interface Deadline {
  /** Aborts (with a {@linkcode DeadlineExceededError}) when the time is up. */
  readonly signal: AbortSignal;
  /** Milliseconds left, on the clock that drives the deadline; 0 once it has passed. */
  remainingMs(): number;
  /**
   * Whom the work is for (the players a tool call serves, in public mode), so the shared upstream
   * budget can serve waiting work fairly between them; absent or empty: nobody in particular.
   */
  owners?(): readonly string[];
}

/** The reason a deadline's signal aborts with. */
export class DeadlineExceededError extends Error {
  /** The length of the deadline that passed, in milliseconds. */
  readonly ms: number;
  /** @param ms the length of the deadline */
  constructor(ms: number) {
    super(`The deadline of ${ms} ms passed`);
    this.name = "DeadlineExceededError";
    this.ms = ms;
  }
}

/**
 * The reason a deadline's own timer is cancelled with when the work ends first. A shared value:
 * `abort()` without a reason builds a `DOMException` with a stack trace, a cost every tool call
 * would pay for nothing.
 */
export const RELEASED: Error = new Error("released: the work ended before its deadline");

/**
 * Starts a deadline `ms` from now on `clock`, for `owner` when the work is someone's (see
 * {@linkcode Deadline.owners}). Dispose it when the work ends: that cancels its timer (and leaves
 * the signal unaborted).
 *
 * @example
 * ```ts
 * using deadline = startDeadline(clock, 14_000);
 * const read = await withinDeadline(deadline, () => gw2.items(ids));
 * ```
 */
export function startDeadline(
  clock: Clock,
  ms: number,
  owner?: string,
): Deadline & Disposable {
  const expiry = new AbortController();
  const timer = new AbortController();
  const at = clock.now() + ms;
  clock.timer(ms, timer.signal).then(
    () => expiry.abort(new DeadlineExceededError(ms)),
    () => undefined,
  );
  return {
    signal: expiry.signal,
    remainingMs: () => expiry.signal.aborted ? 0 : Math.max(0, at - clock.now()),
    ...(owner === undefined ? {} : { owners: () => [owner] }),
    [Symbol.dispose]: () => timer.abort(RELEASED),
  };
}

/**
 * A deadline `extraMs` after `first` passes. Its timer is armed only when `first` passes, so
 * while the work runs it costs one listener, not a second timer. Dispose it like
 * {@linkcode startDeadline}'s.
 *
 * @example
 * ```ts
 * using work = startDeadline(clock, 14_000);
 * using answerBy = deadlineAfter(clock, work, 500); // 14.5 s, one timer while the work runs
 * ```
 */
export function deadlineAfter(
  clock: Clock,
  first: Deadline,
  extraMs: number,
): Deadline & Disposable {
  const expiry = new AbortController();
  const timer = new AbortController();
  let at: number | undefined;
  const arm = () => {
    at = clock.now() + extraMs;
    const reason: unknown = first.signal.reason;
    const ms = (reason instanceof DeadlineExceededError ? reason.ms : 0) + extraMs;
    clock.timer(extraMs, timer.signal).then(
      () => expiry.abort(new DeadlineExceededError(ms)),
      () => undefined,
    );
  };
  if (first.signal.aborted) arm();
  else first.signal.addEventListener("abort", arm, { once: true });
  return {
    signal: expiry.signal,
    remainingMs: () =>
      expiry.signal.aborted
        ? 0
        : at === undefined
        ? first.remainingMs() + extraMs
        : Math.max(0, at - clock.now()),
    [Symbol.dispose]: () => {
      first.signal.removeEventListener("abort", arm);
      timer.abort(RELEASED);
    },
  };
}

/**
 * `deadline`, passed early when `signal` aborts: the bound of one part of some work that may be
 * called off on its own (a page another reader has already read; a job at shutdown).
 *
 * @example
 * ```ts
 * const bound = deadlineOrSignal(jobDeadline, pageRead.signal);
 * await gw2.pricesPage(3, 200, bound);
 * ```
 */
export function deadlineOrSignal(deadline: Deadline, signal: AbortSignal): Deadline {
  const linked = AbortSignal.any([deadline.signal, signal]);
  return { signal: linked, remainingMs: () => linked.aborted ? 0 : deadline.remainingMs() };
}

/** Milliseconds left before `deadline`; `Infinity` for unbounded work. */
export function remainingMs(deadline: Deadline | undefined): number {
  return deadline === undefined ? Infinity : deadline.remainingMs();
}

/** True once `deadline` has passed (its signal aborted, or no time is left). */
export function isExpired(deadline: Deadline | undefined): boolean {
  return deadline !== undefined && (deadline.signal.aborted || deadline.remainingMs() <= 0);
}

/**
 * Waits for `promise` unless `signal` aborts first. Resolves `{ value }` when the promise wins
 * and `undefined` when the signal does (the promise keeps running; its rejection is observed).
 * A rejection of the promise before the abort passes through.
 */
export function unlessAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal,
): Promise<{ readonly value: T } | undefined> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined);
      resolve(undefined);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve({ value });
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The deadline of the work running now, carried through every `await` of it: a tool call's, or a
 * background job's. The GW2 client reads it at each read's start, so neither a handler nor a
 * wrapper around the client passes a deadline along, and a new read needs no deadline parameter.
 */
const AMBIENT = new AsyncLocalStorage<Deadline>();

/**
 * Runs `work` under `deadline`: every GW2 read it starts, however deep, gives up when the
 * deadline passes (see {@linkcode currentDeadline}). Work it leaves running after it returns
 * keeps the deadline too.
 *
 * @example
 * ```ts
 * using deadline = startDeadline(clock, 14_000);
 * const read = await withinDeadline(deadline, () => gw2.items(ids));
 * ```
 */
export function withinDeadline<T>(deadline: Deadline, work: () => T): T {
  return AMBIENT.run(deadline, work);
}

/** The deadline of the work running now (see {@linkcode withinDeadline}), if any. */
export function currentDeadline(): Deadline | undefined {
  return AMBIENT.getStore();
}
