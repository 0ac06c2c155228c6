/**
 * A controllable {@linkcode Clock} for tests: time moves only when the test says so, or by
 * exactly what a pause asks for, so backoff, refill, timeout and deadline logic run instantly
 * and deterministically.
 *
 * @module
 */

import type { Clock } from "../../src/async/clock.ts";

interface Sleeper {
  readonly until: number;
  readonly resolve: () => void;
}

/**
 * Which waits move time by themselves:
 * - `none`: every pause (`sleep`) and timer (`timer`) waits for {@linkcode ManualClock.advance};
 * - `delays`: a pause (a backoff, a refill wait, a coalescing window) advances time by its
 *   length and resolves at once, waking any timer now due, while a timer (a request timeout, a
 *   call's deadline) waits for `advance` — so retries run instantly and a request times out
 *   exactly when the test decides;
 * - `all`: every pause and timer advances time and resolves at once.
 */
export type AdvanceMode = "none" | "delays" | "all";

/** Options for {@linkcode ManualClock}. */
export interface ManualClockOptions {
  /** Start time in epoch ms; defaults to 2026-11-29T00:00:00Z. */
  readonly start?: number;
  /** @default "none" */
  readonly advance?: AdvanceMode;
}

/** A clock whose time is moved by the test. */
export class ManualClock implements Clock {
  #now: number;
  readonly #mode: AdvanceMode;
  #sleepers: Sleeper[] = [];
  /** Every duration passed to `sleep` or `timer`, in call order. */
  readonly sleeps: number[] = [];
  /** The durations of pauses (`sleep`), in call order. */
  readonly delays: number[] = [];
  /** The durations of timers (`timer`), in call order. */
  readonly timers: number[] = [];

  constructor(options: ManualClockOptions = {}) {
    this.#now = options.start ?? Date.UTC(2026, 10, 29);
    this.#mode = options.advance ?? "none";
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.delays.push(ms);
    return this.#wait(ms, signal, this.#mode !== "none");
  }

  timer(ms: number, signal: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.timers.push(ms);
    return this.#wait(ms, signal, this.#mode === "all");
  }

  #wait(ms: number, signal: AbortSignal | undefined, passAtOnce: boolean): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (passAtOnce) {
      // Time moved: timers now due fire too (a deadline passes during a long backoff).
      this.advance(Math.max(0, ms));
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { until: this.#now + Math.max(0, ms), resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener("abort", () => {
        this.#sleepers = this.#sleepers.filter((other) => other !== sleeper);
        reject(signal.reason);
      }, { once: true });
    });
  }

  /** Moves time forward and wakes every sleeper that is now due. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#sleepers.filter((sleeper) => sleeper.until <= this.#now);
    this.#sleepers = this.#sleepers.filter((sleeper) => sleeper.until > this.#now);
    for (const sleeper of due) sleeper.resolve();
  }

  /** How many sleeps are waiting for time to move. */
  get pendingSleeps(): number {
    return this.#sleepers.length;
  }

  /** When the earliest waiting sleep is due (epoch ms); `undefined` when none waits. */
  get nextDue(): number | undefined {
    let earliest: number | undefined;
    for (const sleeper of this.#sleepers) earliest = Math.min(earliest ?? Infinity, sleeper.until);
    return earliest;
  }

  /** The total of every pause slept. */
  get delayed(): number {
    return this.delays.reduce((total, ms) => total + ms, 0);
  }
}

/** How a promise driven by {@linkcode settleOnClock} ended, and the clock time it took. */
export type Settled<T> =
  | { readonly ok: true; readonly value: T; readonly elapsedMs: number }
  | { readonly ok: false; readonly error: unknown; readonly elapsedMs: number };

/**
 * Settles `promise` by moving `clock`: whenever it is still pending after two turns of the event
 * loop (time for I/O such as an in-memory KV call), time jumps to the earliest waiting timer —
 * by at most `maxStepMs` at once, so nothing in flight is skipped over. Returns the outcome and
 * the clock time that passed. Throws when the promise waits on nothing the clock can move.
 *
 * The elapsed time is exact when timers decide it (a deadline firing); I/O slower than two turns
 * (a loaded machine) adds steps, as many as the load makes it. So do not bound it tightly from
 * above: assert the pauses the code asked for ({@linkcode ManualClock.delays}; "at once" is none),
 * an order (settled before a timer's time), or take the steps yourself ({@linkcode track},
 * {@linkcode afterReactions}). A smaller `maxStepMs` makes an order bound need more creep.
 */
export async function settleOnClock<T>(
  promise: Promise<T>,
  clock: ManualClock,
  maxStepMs = 250,
): Promise<Settled<T>> {
  const start = clock.now();
  let outcome: { value: T } | { error: unknown } | undefined;
  promise.then((value) => (outcome = { value }), (error: unknown) => (outcome = { error }));
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  for (let idle = 0; outcome === undefined;) {
    await turn();
    await turn();
    if (outcome !== undefined) break;
    const next = clock.nextDue;
    if (next === undefined) {
      if (++idle > 500) throw new Error("settleOnClock: pending, with no timer to move to");
      continue;
    }
    idle = 0;
    clock.advance(Math.max(0, Math.min(next - clock.now(), maxStepMs)));
  }
  const elapsedMs = clock.now() - start;
  return "value" in outcome
    ? { ok: true, value: outcome.value, elapsedMs }
    : { ok: false, error: outcome.error, elapsedMs };
}

/** A promise with a live flag saying whether it has settled. */
export interface Tracked<T> {
  readonly promise: Promise<T>;
  readonly settled: boolean;
}

/**
 * Tracks whether `promise` has settled. With {@linkcode afterReactions} a test states a bound in
 * clock steps it takes itself: pending one step before the bound, settled at it.
 */
export function track<T>(promise: Promise<T>): Tracked<T> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  return {
    promise,
    get settled() {
      return settled;
    },
  };
}

/**
 * One turn of the event loop: every promise reaction already queued runs first, however loaded
 * the machine. Enough to see the whole effect of a timer the test fired when what follows it is
 * promise reactions only (no I/O).
 */
export function afterReactions(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The real time a test waits before it calls a wait a hang: a guard that turns a broken
 * implementation's endless wait into a failure, far above what any correct run takes (no
 * assertion is made about real time).
 */
export const HANG_GUARD_MS = 30_000;

/**
 * `promise`, or a rejection naming `what` if it has not settled within {@linkcode HANG_GUARD_MS}
 * of real time — for awaiting, without moving the clock, work that needs no timer to fire.
 */
export async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: still waiting after ${HANG_GUARD_MS} ms of real time`)),
      HANG_GUARD_MS,
    );
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once `condition()` holds, checked every turn of the event loop (real I/O goes on
 * meanwhile; the clock does not move); rejects naming `what` after {@linkcode HANG_GUARD_MS}.
 */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > HANG_GUARD_MS) {
      throw new Error(`${what}: not so after ${HANG_GUARD_MS} ms of real time`);
    }
    await afterReactions();
  }
}
