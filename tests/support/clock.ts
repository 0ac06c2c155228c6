/**
 * A controllable {@linkcode Clock} for tests: time moves only when the test says so, or — in
 * auto-advance mode — by exactly the amount each `sleep` asks for, so backoff and refill logic
 * run instantly and deterministically.
 *
 * @module
 */

import type { Clock } from "../../src/clock.ts";

interface Sleeper {
  readonly until: number;
  readonly resolve: () => void;
}

/** Options for {@linkcode ManualClock}. */
export interface ManualClockOptions {
  /** Start time in epoch ms; defaults to 2026-11-29T00:00:00Z. */
  readonly start?: number;
  /** When true, `sleep(ms)` advances the clock by `ms` and resolves at once. */
  readonly autoAdvance?: boolean;
}

/** A clock whose time is moved by the test. */
export class ManualClock implements Clock {
  #now: number;
  #autoAdvance: boolean;
  #sleepers: Sleeper[] = [];
  /** Every duration passed to `sleep`, in call order. */
  readonly sleeps: number[] = [];

  constructor(options: ManualClockOptions = {}) {
    this.#now = options.start ?? Date.UTC(2026, 10, 29);
    this.#autoAdvance = options.autoAdvance ?? false;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#autoAdvance) {
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
}
