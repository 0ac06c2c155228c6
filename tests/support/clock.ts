/**
 * A controllable {@linkcode Clock} for tests: time moves only when the test says so, or by
 * exactly what a sleep asks for, so backoff, refill and timeout logic run instantly and
 * deterministically.
 *
 * @module
 */

import type { Clock } from "../../src/clock.ts";

interface Sleeper {
  readonly until: number;
  readonly resolve: () => void;
}

/**
 * Which sleeps move time by themselves:
 * - `none`: every sleep waits for {@linkcode ManualClock.advance};
 * - `delays`: a sleep without a signal (a backoff, a refill wait, a coalescing window) advances
 *   time by its length and resolves at once, while a sleep raced with a signal (a timeout)
 *   waits for `advance` — so retries run instantly and a request times out exactly when the
 *   test decides;
 * - `all`: every sleep advances time and resolves at once.
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
  /** Every duration passed to `sleep`, in call order. */
  readonly sleeps: number[] = [];
  /** The durations of sleeps without a signal (delays), in call order. */
  readonly delays: number[] = [];

  constructor(options: ManualClockOptions = {}) {
    this.#now = options.start ?? Date.UTC(2026, 10, 29);
    this.#mode = options.advance ?? "none";
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal === undefined) this.delays.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#mode === "all" || (this.#mode === "delays" && signal === undefined)) {
      this.#now += Math.max(0, ms);
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

  /** The total of every delay slept. */
  get delayed(): number {
    return this.delays.reduce((total, ms) => total + ms, 0);
  }
}
