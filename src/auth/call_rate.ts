/**
 * Each player's own rate of tool calls in the public mode: a token bucket per player (the GW2
 * account behind a sign-in, so signing in again from another app or a script does not buy a
 * second bucket), `burst` calls at once, refilled at `perMinute`. Past it a call is
 * refused with the time to wait, which the HTTP edge answers as 429 with `Retry-After`. It keeps
 * one player from spending the shared upstream budget every other player waits on. The buckets
 * live in the process's memory (each instance counts its own calls): a check costs a map lookup,
 * not a database round trip on every call. Pure, on an injected clock.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";

/** Options of {@linkcode CallRate}. */
export interface CallRateOptions {
  /** Calls a player may make at once after a pause. */
  readonly burst: number;
  /** Calls a player may make per minute, sustained. */
  readonly perMinute: number;
  readonly clock: Clock;
  /** Players tracked at most; full buckets are forgotten first. @default 10000 */
  readonly maxTracked?: number;
}

interface Level {
  tokens: number;
  at: number;
}

/** The per-player call buckets of one process. */
export class CallRate {
  readonly #burst: number;
  readonly #perMs: number;
  readonly #clock: Clock;
  readonly #maxTracked: number;
  readonly #levels = new Map<string, Level>();

  /** @param options burst, rate and clock */
  constructor(options: CallRateOptions) {
    this.#burst = options.burst;
    this.#perMs = options.perMinute / 60_000;
    this.#clock = options.clock;
    this.#maxTracked = options.maxTracked ?? 10_000;
  }

  /**
   * Takes `calls` calls from `player`'s bucket: 0 when admitted, else the milliseconds until
   * they would be (nothing is taken then). A batch of more calls than the burst is admitted from
   * a full bucket and still costs every call: the bucket goes below empty and the player waits
   * until it has refilled past zero (charging only the burst would let a batch past the rate).
   *
   * @example
   * ```ts
   * const waitMs = rate.take(grant.id, 1);
   * if (waitMs > 0) return tooManyCalls(waitMs);
   * ```
   */
  take(player: string, calls: number): number {
    if (calls <= 0) return 0;
    const now = this.#clock.now();
    const level = this.#levels.get(player) ?? { tokens: this.#burst, at: now };
    const tokens = Math.min(this.#burst, level.tokens + (now - level.at) * this.#perMs);
    const needed = Math.min(calls, this.#burst);
    if (tokens < needed) return Math.max(1, Math.ceil((needed - tokens) / this.#perMs));
    this.#levels.delete(player);
    this.#levels.set(player, { tokens: tokens - calls, at: now });
    if (this.#levels.size > this.#maxTracked) this.#forget(now);
    return 0;
  }

  /** Drops buckets that have refilled (they equal a fresh one), oldest first. */
  #forget(now: number): void {
    for (const [player, level] of this.#levels) {
      if (this.#levels.size <= this.#maxTracked) return;
      const tokens = level.tokens + (now - level.at) * this.#perMs;
      if (tokens >= this.#burst) this.#levels.delete(player);
    }
    // Every tracked player is mid-burst: forget the least recently active.
    for (const player of this.#levels.keys()) {
      if (this.#levels.size <= this.#maxTracked) return;
      this.#levels.delete(player);
    }
  }
}
