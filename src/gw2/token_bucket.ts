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
 * calls sharing the same entry always find that many; and within one process a bucket that
 * `yields` (the background jobs' again) admits nothing while an interactive take of the same
 * process waits for a refill ({@linkcode BucketPriority}), so a tool call never queues behind the
 * process's own background reads. The tokens a process's takes draw while some of them wait are
 * handed out fairly between the players those takes are for (`Deadline.owners`), least recently
 * served first, so one player's flood of reads cannot push another's call past its deadline.
 * Every KV step (one take's compare-and-set
 * loop, a drain, a level read) is bounded by `timeout.ts`; a wait for a refill ends early when
 * the caller's signal aborts.
 *
 * Instances do not share a clock, so the stored `ts` may come from a clock running ahead of
 * ours or behind it. Two rules bound what skew can do:
 * - **No starvation of a lagging instance.** A stored `ts` ahead of our clock moves our clock
 *   forward (an offset kept for the life of the instance, logged when over a second), so refill
 *   is measured on the leading clock instead of being nil until ours catches up.
 * - **No over-admission by a leading instance.** Refill is credited only for time this instance
 *   can vouch for: from our own earlier reading of an unchanged state; from the stored `ts` of a
 *   state written since our last look (never from before that look); and for nothing on our
 *   first look, or when that `ts` lies more than a second before our last look - an idle gap and
 *   a writer whose clock lags ours look the same. What remains: a writer that has never seen the
 *   leading clock, writing after the leading instance sat idle for longer than the skew, can
 *   lend it up to one burst, once.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { conflictPauseMs, isLockedError } from "../kv/conflict.ts";
import type { Logger } from "../log.ts";
import { DEFAULT_KV_TIMEOUT, type KvTimeout, withKvTimeout } from "../kv/timeout.ts";

/** The stored state: `tokens` as of epoch-ms `ts`. */
export interface BucketState {
  readonly tokens: number;
  readonly ts: number;
}

/** The outcome of one take. */
export type TakeResult =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly retryAfterMs: number };

/** A stored time this far ahead of our clock is logged as clock skew. */
export const SKEW_LOG_MS = 1000;

/** What this instance last saw of the bucket, on its own (offset) clock. */
interface Sighting {
  /** `null`: there was no entry. */
  readonly versionstamp: string | null;
  /** When the stored count held: refill is credited from here while the entry is unchanged. */
  readonly asOf: number;
  readonly lookedAt: number;
}

/**
 * What the buckets of one process share so that interactive takes go first: the number of
 * interactive takes waiting for a refill. A bucket that yields is refused while any waits, as if
 * empty, and tries again after one token's refill; across processes the reserve does the same
 * job. Pass one instance to every bucket (every client) of the process.
 */
export class BucketPriority {
  #waiting = 0;

  /** Whether an interactive take is waiting for a refill. */
  get contended(): boolean {
    return this.#waiting > 0;
  }

  /** Marks an interactive take as waiting; call the returned function once it is done. */
  enter(): () => void {
    this.#waiting++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#waiting--;
    };
  }
}

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
  /** The bound of each KV step; past it the step rejects with a `KvTimeoutError`. */
  readonly timeout?: KvTimeout;
  /** Where clock skew over {@linkcode SKEW_LOG_MS} is reported. */
  readonly log?: Logger;
  /**
   * Tokens this holder never takes: it is admitted only while `reserve + 1` are available, so
   * holders without a reserve (interactive calls) always find `reserve`. @default 0
   */
  readonly reserve?: number;
  /** Shared by the process's buckets: interactive takes waiting here go before yielding ones. */
  readonly priority?: BucketPriority;
  /**
   * Whether this bucket's takes give way to waiting interactive takes of the process (the
   * background client's). @default false
   */
  readonly yields?: boolean;
}

/** One take of {@linkcode TokenBucket.take}, for the fair hand-out of tokens. */
interface Waiter {
  readonly owners: () => readonly string[];
  /** Arrival order, for ties. */
  readonly arrival: number;
  /** Set when another take handed it a token. */
  granted: boolean;
  /** Ends its current wait (when it is handed a token). */
  wake?: AbortController;
}

const NOBODY = (): readonly string[] => [];
/** Takes for nobody in particular share one owner: among themselves, first come first served. */
const ANONYMOUS: readonly string[] = [""];
/** Owners whose last turn is remembered; one served longer ago than all of these counts as new. */
const MAX_REMEMBERED_OWNERS = 4_096;

/** Tokens available at `now`: the stored count refilled for the elapsed time, capped at `burst`. */
export function refill(state: BucketState, now: number, burst: number, perSec: number): number {
  const elapsed = Math.max(0, now - state.ts);
  return Math.min(burst, state.tokens + (elapsed * perSec) / 1000);
}

/** Milliseconds until `tokens` reaches 1 at `perSec`; at least 1. */
export function msUntilToken(tokens: number, perSec: number): number {
  return Math.max(1, Math.ceil(((1 - tokens) * 1000) / perSec));
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
  readonly #timeout: KvTimeout;
  readonly #log: Logger | undefined;
  readonly #reserve: number;
  readonly #priority: BucketPriority | undefined;
  readonly #yields: boolean;
  #queue: Promise<unknown> = Promise.resolve();
  /** Takes of this instance waiting for a refill, for the fair hand-out of tokens. */
  readonly #waiting = new Set<Waiter>();
  /** Each owner's latest turn, least recently served first (insertion order). */
  readonly #turns = new Map<string, number>();
  #turn = 0;
  #arrivals = 0;
  /** How far the leading instance's clock runs ahead of ours (never negative). */
  #offsetMs = 0;
  #seen: Sighting | undefined;

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
    this.#timeout = options.timeout ?? DEFAULT_KV_TIMEOUT;
    this.#log = options.log;
    this.#reserve = Math.max(0, Math.min(options.reserve ?? 0, this.#burst - 1));
    this.#priority = options.priority;
    this.#yields = options.yields ?? false;
    // Once KV drops the entry the bucket reads as full, which is true by then.
    this.#expireInMs = Math.ceil((this.#burst / this.#perSec) * 1000) + 60_000;
  }

  /**
   * Takes one token if one is available now; never waits for a refill. A yielding bucket is
   * refused while an interactive take of the process waits.
   */
  tryTake(): Promise<TakeResult> {
    return this.#serialised(() =>
      this.#yields && this.#priority?.contended === true
        ? Promise.resolve({ admitted: false, retryAfterMs: msUntilToken(0, this.#perSec) })
        : this.#tryTakeOnce()
    );
  }

  /**
   * Takes one token, waiting on the clock for refills up to `maxWaitMs` in total. Resolves with
   * a refusal when the bucket stays empty past the bound, or when `signal` aborts during a wait.
   *
   * Tokens are shared fairly between the owners of the takes that wait in this instance
   * (`owners`, from `Deadline.owners`): whichever take the bucket admits, the token goes to the
   * waiting take whose owners were served least recently (the earliest among equals), which is
   * woken with it; the take that drew it tries again. So one player whose work queues many takes
   * (a ranking in a loop) gets one token in turn with every other player who waits, instead of
   * most of them.
   *
   * @param maxWaitMs the longest total wait
   * @param onWait called before each wait (for counters)
   * @param signal ends a wait early (the caller's deadline)
   * @param owners whom the take is for; none: one anonymous owner shared by all such takes
   */
  async take(
    maxWaitMs: number,
    onWait?: () => void,
    signal?: AbortSignal,
    owners?: () => readonly string[],
  ): Promise<TakeResult> {
    const start = this.#clock.now();
    const self: Waiter = { owners: owners ?? NOBODY, arrival: this.#arrivals++, granted: false };
    // An interactive take that has to wait makes the process's yielding buckets give way.
    let waiting: (() => void) | undefined;
    try {
      for (;;) {
        if (self.granted) return { admitted: true };
        const result = await this.tryTake();
        if (self.granted) {
          // Handed a token while drawing one itself: the spare goes to the next in turn.
          if (result.admitted) this.#handOut(undefined);
          return { admitted: true };
        }
        if (result.admitted) {
          if (this.#handOut(self) === self) return result;
          continue;
        }
        const waited = this.#clock.now() - start;
        if (waited + result.retryAfterMs > maxWaitMs || signal?.aborted) return result;
        onWait?.();
        if (!this.#yields) waiting ??= this.#priority?.enter();
        this.#waiting.add(self);
        // A little jitter so instances woken by the same refill do not collide every time.
        const jitter = this.#random() * Math.min(50, 1000 / this.#perSec);
        const before = this.#clock.now();
        const wake = new AbortController();
        self.wake = wake;
        try {
          await this.#clock.sleep(
            result.retryAfterMs + jitter,
            signal === undefined ? wake.signal : AbortSignal.any([signal, wake.signal]),
          );
        } catch {
          if (self.granted) return { admitted: true };
          const left = result.retryAfterMs - (this.#clock.now() - before);
          return { admitted: false, retryAfterMs: Math.max(1, Math.ceil(left)) };
        }
      }
    } finally {
      this.#waiting.delete(self);
      waiting?.();
    }
  }

  /**
   * Gives one admitted token to the fairest of the waiting takes and `drawer` (the take that drew
   * it, if it still wants one): the one whose owners were served least recently, the earliest
   * among equals. Returns who got it; a waiting take is woken with it. With nobody to give it to,
   * the token is spent unused (never over-admitted: it was taken from the bucket).
   */
  #handOut(drawer: Waiter | undefined): Waiter | undefined {
    let best = drawer;
    let bestTurn = drawer === undefined ? Infinity : this.#lastTurn(drawer.owners());
    for (const waiter of this.#waiting) {
      if (waiter.granted) continue;
      const turn = this.#lastTurn(waiter.owners());
      if (
        best === undefined || turn < bestTurn ||
        (turn === bestTurn && waiter.arrival < best.arrival)
      ) {
        best = waiter;
        bestTurn = turn;
      }
    }
    if (best === undefined) return undefined;
    this.#served(best.owners());
    if (best !== drawer) {
      best.granted = true;
      this.#waiting.delete(best);
      best.wake?.abort();
    }
    return best;
  }

  /** The turn at which the least recently served of `owners` was last served; -1: never. */
  #lastTurn(owners: readonly string[]): number {
    let turn = Infinity;
    for (const owner of owners.length === 0 ? ANONYMOUS : owners) {
      turn = Math.min(turn, this.#turns.get(owner) ?? -1);
    }
    return turn;
  }

  /** Records that `owners` were served now; the least recently served are forgotten past a bound. */
  #served(owners: readonly string[]): void {
    const turn = this.#turn++;
    for (const owner of owners.length === 0 ? ANONYMOUS : owners) {
      this.#turns.delete(owner);
      this.#turns.set(owner, turn);
    }
    for (const owner of this.#turns.keys()) {
      if (this.#turns.size <= MAX_REMEMBERED_OWNERS) break;
      this.#turns.delete(owner);
    }
  }

  /** Tokens available now, as a take would count them (a strong read; no write). */
  level(): Promise<number> {
    return this.#serialised(async () => this.#look(await this.#kv.get(this.#key)).tokens);
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
          const { now } = this.#look(entry);
          if (await this.#commit(entry, { tokens: 0, ts: now })) return;
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
      const { tokens, now } = this.#look(entry);
      if (tokens < 1 + this.#reserve) {
        return {
          admitted: false,
          retryAfterMs: msUntilToken(tokens - this.#reserve, this.#perSec),
        };
      }
      if (await this.#commit(entry, { tokens: tokens - 1, ts: now })) return { admitted: true };
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

  /**
   * Compare-and-set of a state stamped with our (offset) clock; false on a lost race or a
   * `database is locked` from another process.
   */
  async #commit(entry: Deno.KvEntryMaybe<unknown>, next: BucketState): Promise<boolean> {
    try {
      const result = await this.#kv.atomic().check(entry)
        .set(this.#key, next, { expireIn: this.#expireInMs }).commit();
      if (!result.ok) return false;
      this.#seen = { versionstamp: result.versionstamp, asOf: next.ts, lookedAt: next.ts };
      return true;
    } catch (error) {
      if (isLockedError(error)) return false;
      throw error;
    }
  }

  /** Our clock, moved forward to the latest time any instance has stored. */
  #now(): number {
    return this.#clock.now() + this.#offsetMs;
  }

  /**
   * Reads an entry the way this instance may trust it: the tokens available now (refill
   * credited only from a time we can vouch for) and our clock, never behind the stored `ts`.
   */
  #look(entry: Deno.KvEntryMaybe<unknown>): { tokens: number; now: number } {
    const state = this.#state(entry.value);
    const ahead = state.ts - this.#now();
    if (ahead > 0) {
      this.#offsetMs += ahead;
      if (ahead > SKEW_LOG_MS) {
        this.#log?.warn("clock skew: another instance's clock runs ahead of this one", {
          aheadMs: Math.round(ahead),
          offsetMs: Math.round(this.#offsetMs),
        });
      }
    }
    const now = this.#now();
    const asOf = this.#creditFrom(entry.versionstamp, state.ts, now);
    this.#seen = { versionstamp: entry.versionstamp, asOf, lookedAt: now };
    const tokens = refill({ tokens: state.tokens, ts: asOf }, now, this.#burst, this.#perSec);
    return { tokens, now };
  }

  /** The time refill of the stored count is credited from (see the module notes). */
  #creditFrom(versionstamp: string | null, ts: number, now: number): number {
    const seen = this.#seen;
    // No entry reads as a full bucket now; a first look credits nothing it cannot place.
    if (versionstamp === null || seen === undefined) return now;
    if (seen.versionstamp === versionstamp) return seen.asOf;
    // Written since our last look, by a clock more than a second behind ours: when, we cannot say.
    if (ts < seen.lookedAt - SKEW_LOG_MS) return now;
    // Written since our last look: refill before that look was already ours to count.
    return Math.max(ts, seen.lookedAt);
  }

  #state(value: unknown): BucketState {
    if (typeof value === "object" && value !== null) {
      const tokens: unknown = Reflect.get(value, "tokens");
      const ts: unknown = Reflect.get(value, "ts");
      if (typeof tokens === "number" && typeof ts === "number" && Number.isFinite(tokens)) {
        return { tokens: Math.min(tokens, this.#burst), ts };
      }
    }
    return { tokens: this.#burst, ts: this.#now() };
  }

  /**
   * Runs `task` after every earlier task of this instance has settled (or timed out: a stalled
   * KV call must not hold every later take behind it), under the KV bound.
   */
  #serialised<T>(task: () => Promise<T>): Promise<T> {
    const bounded = () => withKvTimeout(this.#timeout, task);
    const run = this.#queue.then(bounded, bounded);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
