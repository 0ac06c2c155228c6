/**
 * The upstream budget shared by every instance on one KV: a token bucket stored as
 * `{tokens, ts}` under one key. A take reads the entry (strongly), refills it for the time
 * elapsed, and commits `tokens - 1` with `atomic().check(entry)`, so every admission is a
 * serialisable compare-and-set and the bucket can never admit more than `burst + perSec · t`
 * (the design measured in the platform notes: zero over-admission across processes). A failed
 * check, or SQLite's `database is locked` (thrown, not returned, when processes share a file),
 * is a conflict: retry after a short jittered pause. Takes within one instance are serialised
 * locally, so conflicts only arise between instances. A bucket built with a `reserve` (the
 * background jobs') admits only while more than `reserve` tokens would remain, so interactive
 * calls sharing the same entry always find that many.
 *
 * @module
 */

import type { Clock } from "../clock.ts";

/** The stored state: `tokens` as of epoch-ms `ts`. */
export interface BucketState {
  readonly tokens: number;
  readonly ts: number;
}

/** The outcome of one take. */
export type TakeResult =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly retryAfterMs: number };

/** Options of {@linkcode TokenBucket}. */
export interface TokenBucketOptions {
  readonly kv: Deno.Kv;
  readonly key: Deno.KvKey;
  /** Capacity: the most requests admitted at once after a quiet period. */
  readonly burst: number;
  /** Refill rate, tokens per second. */
  readonly perSec: number;
  readonly clock: Clock;
  /** Jitter source in [0, 1); defaults to `Math.random`. */
  readonly random?: () => number;
  /** Compare-and-set attempts per take before giving up as contended. @default 10 */
  readonly maxAttempts?: number;
  /**
   * Tokens this holder never takes: it is admitted only while `reserve + 1` are available, so
   * holders without a reserve (interactive calls) always find `reserve`. @default 0
   */
  readonly reserve?: number;
}

/** Tokens available at `now`: the stored count refilled for the elapsed time, capped at `burst`. */
export function refill(state: BucketState, now: number, burst: number, perSec: number): number {
  const elapsed = Math.max(0, now - state.ts);
  return Math.min(burst, state.tokens + (elapsed * perSec) / 1000);
}

/** Milliseconds until `tokens` reaches 1 at `perSec`; at least 1. */
export function msUntilToken(tokens: number, perSec: number): number {
  return Math.max(1, Math.ceil(((1 - tokens) * 1000) / perSec));
}

/** Jittered pause before conflict retry `attempt` (0-based): uniform in [0, 2^min(attempt, 4)) ms. */
export function conflictPauseMs(attempt: number, random: () => number): number {
  return random() * 2 ** Math.min(attempt, 4);
}

/** True for the error SQLite throws when another process holds the write lock. */
export function isLockedError(error: unknown): boolean {
  return error instanceof Error && /database is locked/i.test(error.message);
}

/** A KV-backed token bucket shared by every holder of the same KV and key. */
export class TokenBucket {
  readonly #kv: Deno.Kv;
  readonly #key: Deno.KvKey;
  readonly #burst: number;
  readonly #perSec: number;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #maxAttempts: number;
  readonly #expireInMs: number;
  readonly #reserve: number;
  #queue: Promise<unknown> = Promise.resolve();

  /** @param options the KV, key, capacity, rate and clock */
  constructor(options: TokenBucketOptions) {
    if (!(options.burst >= 1) || !(options.perSec > 0)) {
      throw new RangeError(
        `Cannot create the token bucket: burst must be at least 1 and perSec above 0, got ${options.burst} and ${options.perSec}`,
      );
    }
    this.#kv = options.kv;
    this.#key = options.key;
    this.#burst = options.burst;
    this.#perSec = options.perSec;
    this.#clock = options.clock;
    this.#random = options.random ?? Math.random;
    this.#maxAttempts = options.maxAttempts ?? 10;
    this.#reserve = Math.max(0, Math.min(options.reserve ?? 0, this.#burst - 1));
    // Once KV drops the entry the bucket reads as full, which is true by then.
    this.#expireInMs = Math.ceil((this.#burst / this.#perSec) * 1000) + 60_000;
  }

  /** Takes one token if one is available now; never waits for a refill. */
  tryTake(): Promise<TakeResult> {
    return this.#serialised(() => this.#tryTakeOnce());
  }

  /**
   * Takes one token, waiting on the clock for refills up to `maxWaitMs` in total. Resolves with
   * the last refusal when the bucket stays empty past the bound.
   *
   * @param maxWaitMs the longest total wait
   * @param onWait called before each wait (for counters)
   */
  async take(maxWaitMs: number, onWait?: () => void): Promise<TakeResult> {
    const start = this.#clock.now();
    for (;;) {
      const result = await this.tryTake();
      if (result.admitted) return result;
      const waited = this.#clock.now() - start;
      if (waited + result.retryAfterMs > maxWaitMs) return result;
      onWait?.();
      // A little jitter so instances woken by the same refill do not collide every time.
      const jitter = this.#random() * Math.min(50, 1000 / this.#perSec);
      await this.#clock.sleep(result.retryAfterMs + jitter);
    }
  }

  /** Tokens available now (a strong read; no write). */
  async level(): Promise<number> {
    const entry = await this.#kv.get(this.#key);
    return refill(this.#state(entry.value), this.#clock.now(), this.#burst, this.#perSec);
  }

  /**
   * Empties the bucket: upstream answered 429, so the real budget is spent whatever our count
   * says, and every instance should pause. Best effort (gives up quietly under contention).
   */
  drain(): Promise<void> {
    return this.#serialised(async () => {
      for (let attempt = 0; attempt < this.#maxAttempts; attempt++) {
        const entry = await this.#read();
        if (entry !== undefined) {
          const ts = Math.max(this.#clock.now(), this.#state(entry.value).ts);
          if (await this.#commit(entry, { tokens: 0, ts })) return;
        }
        await this.#clock.sleep(conflictPauseMs(attempt, this.#random));
      }
    });
  }

  async #tryTakeOnce(): Promise<TakeResult> {
    for (let attempt = 0; attempt < this.#maxAttempts; attempt++) {
      const entry = await this.#read();
      if (entry === undefined) {
        await this.#clock.sleep(conflictPauseMs(attempt, this.#random));
        continue;
      }
      const state = this.#state(entry.value);
      const now = this.#clock.now();
      const tokens = refill(state, now, this.#burst, this.#perSec);
      if (tokens < 1 + this.#reserve) {
        return {
          admitted: false,
          retryAfterMs: msUntilToken(tokens - this.#reserve, this.#perSec),
        };
      }
      if (await this.#commit(entry, { tokens: tokens - 1, ts: Math.max(now, state.ts) })) {
        return { admitted: true };
      }
      await this.#clock.sleep(conflictPauseMs(attempt, this.#random));
    }
    // Fail closed: under relentless contention, refuse rather than risk the upstream budget.
    return { admitted: false, retryAfterMs: msUntilToken(0, this.#perSec) };
  }

  /** A strong read; `undefined` when another process holds the lock (a conflict). */
  async #read(): Promise<Deno.KvEntryMaybe<unknown> | undefined> {
    try {
      return await this.#kv.get(this.#key);
    } catch (error) {
      if (isLockedError(error)) return undefined;
      throw error;
    }
  }

  /** Compare-and-set; false on a lost race or a `database is locked` from another process. */
  async #commit(entry: Deno.KvEntryMaybe<unknown>, next: BucketState): Promise<boolean> {
    try {
      const result = await this.#kv.atomic().check(entry)
        .set(this.#key, next, { expireIn: this.#expireInMs }).commit();
      return result.ok;
    } catch (error) {
      if (isLockedError(error)) return false;
      throw error;
    }
  }

  #state(value: unknown): BucketState {
    if (typeof value === "object" && value !== null) {
      const tokens: unknown = Reflect.get(value, "tokens");
      const ts: unknown = Reflect.get(value, "ts");
      if (typeof tokens === "number" && typeof ts === "number" && Number.isFinite(tokens)) {
        return { tokens: Math.min(tokens, this.#burst), ts };
      }
    }
    return { tokens: this.#burst, ts: this.#clock.now() };
  }

  /** Runs `task` after every earlier task of this instance has settled. */
  #serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
