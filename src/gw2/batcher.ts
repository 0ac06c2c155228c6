/**
 * Coalescing of bulk reads by id, in two stages. Callers' ids are registered synchronously on
 * call and de-duplicated; on the next microtask one cache pass answers every id registered in
 * that tick, so a cache hit never waits. Only the ids the cache cannot answer wait for company:
 * the first opens a short window (a few milliseconds on the injected clock) that stays open while
 * company keeps coming - each caller adding ids to the batch, or waiting for ids in it, extends
 * it by another window, up to a cap - and then the batch asks for its budget token, still
 * gathering ids while it waits (a batch stalled by an empty bucket fills up instead of costing
 * requests). It is resolved in requests of at most 200 ids. An id already being resolved - in
 * the cache pass, waiting in the batch or in flight - is joined instead of asked for again. So
 * fifty concurrent callers with overlapping ids, arriving a few milliseconds apart, cost one
 * upstream request per 200 distinct uncached ids.
 *
 * Each caller may bring its own deadline. A batch is {@linkcode SharedWork}: bounded by the
 * latest deadline among the callers waiting for it, abandoned when none is left. A caller whose
 * deadline passes leaves at once with what it has: answered ids, the expired cache entry of an
 * id still in flight (stale-if-error), or a timeout for the rest.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { type Deadline, unlessAborted } from "../async/deadline.ts";
import { type Gw2Failure, Gw2UpstreamError, isGw2Failure } from "./errors.ts";
import { canServeStale } from "./response.ts";
import { SharedWork, type Waiter } from "./shared_work.ts";
import type { BulkRead } from "./types.ts";

/** How one id was resolved. `staleAgeMs` marks an expired entry served because upstream failed. */
export type IdOutcome<T> =
  | { readonly kind: "found"; readonly value: T; readonly staleAgeMs?: number }
  | { readonly kind: "missing"; readonly staleAgeMs?: number }
  | { readonly kind: "failed"; readonly error: Gw2Failure };

/**
 * What the cache pass knows of one id: an answer, or only a fallback to serve if upstream
 * cannot answer (an expired entry still inside its stale window). Ids it knows nothing of are
 * absent from its map.
 */
export type Lookup<T> =
  | { readonly answer: IdOutcome<T> }
  | { readonly fallback: () => IdOutcome<T> };

/** The halves of resolving ids, supplied by the reader. */
export interface BatchSource<T> {
  /** The cache pass over distinct ids. */
  lookup(ids: readonly number[]): Promise<ReadonlyMap<number, Lookup<T>>>;
  /**
   * Spends the budget of the batch's first upstream request, waiting for it as long as
   * `deadline` allows; the batch keeps gathering ids meanwhile.
   *
   * @throws {Gw2Failure} when no budget can be had (rate limited, storage, timeout)
   */
  admit(deadline: Deadline): Promise<void>;
  /**
   * Upstream for distinct ids the cache could not answer, the first request's budget already
   * spent by `admit`; every id gets an outcome.
   */
  askUpstream(
    ids: readonly number[],
    deadline: Deadline,
  ): Promise<ReadonlyMap<number, IdOutcome<T>>>;
}

/** Options of {@linkcode Coalescer}. */
export interface CoalescerOptions<T> {
  readonly clock: Clock;
  /**
   * How long a batch waits for company after its last caller joined; 0: the next microtask
   * only.
   */
  readonly windowMs: number;
  /**
   * The longest a batch gathers, from its first id, however much company keeps coming.
   * @default windowMs (the window is not extended)
   */
  readonly maxWindowMs?: number;
  readonly source: BatchSource<T>;
  /** Called with the number of ids that joined an earlier, unsettled resolution. */
  readonly onJoin?: (count: number) => void;
}

/** One id being resolved. */
interface Entry<T> {
  readonly id: number;
  readonly promise: Promise<IdOutcome<T>>;
  readonly resolve: (outcome: IdOutcome<T>) => void;
  readonly reject: (error: unknown) => void;
  /** The outcome, once settled (read synchronously when a caller gives up). */
  settled?: IdOutcome<T>;
  readonly waiters: Set<Waiter>;
  fallback?: () => IdOutcome<T>;
  /** The upstream batch, once the cache pass has sent the id there. */
  batch?: Batch<T>;
}

interface Batch<T> {
  readonly entries: Entry<T>[];
  readonly work: SharedWork;
  /** When its first id joined, on the clock: the cap of the window runs from here. */
  readonly openedAt: number;
  /** When a caller last joined it: the window runs from here. */
  joinedAt: number;
}

/** Returns `ids` without duplicates, in first-seen order. */
export function uniqueIds(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/** Collects, de-duplicates and joins bulk reads of one endpoint. */
export class Coalescer<T> {
  readonly #options: CoalescerOptions<T>;
  /** Every unsettled id: in the cache pass, in the window, or in flight. */
  readonly #unsettled = new Map<number, Entry<T>>();
  /** Ids registered this tick, waiting for the cache pass. */
  #lookupQueue: Entry<T>[] = [];
  /** The batch whose window is open. */
  #open: Batch<T> | undefined;

  /** @param options clock, window, the cache and upstream halves, and the join counter */
  constructor(options: CoalescerOptions<T>) {
    this.#options = options;
  }

  /**
   * Reads `ids`: found records in first-requested order, missing ids, and the age of the
   * oldest stale record served, if any. Without a deadline it waits as long as the work takes.
   *
   * @throws {Gw2Failure} the first failure among the ids' outcomes
   */
  async load(ids: readonly number[], deadline?: Deadline): Promise<BulkRead<T>> {
    const unique = uniqueIds(ids);
    const waiter: Waiter = { deadline };
    let joined = 0;
    let company = false;
    const entries = unique.map((id) => {
      let entry = this.#unsettled.get(id);
      if (entry === undefined) entry = this.#register(id);
      else joined++;
      entry.waiters.add(waiter);
      entry.batch?.work.join(waiter);
      if (entry.batch !== undefined && entry.batch === this.#open) company = true;
      return entry;
    });
    if (joined > 0) this.#options.onJoin?.(joined);
    // A caller waiting for ids of the gathering batch is company too: a burst is under way.
    if (company && this.#open !== undefined) this.#open.joinedAt = this.#options.clock.now();
    const all = Promise.all(entries.map((entry) => entry.promise));
    if (deadline === undefined) return assemble(unique, await all);
    const settled = await unlessAborted(all, deadline.signal);
    if (settled !== undefined) return assemble(unique, settled.value);
    this.#leave(waiter, entries);
    return assemble(
      unique,
      entries.map((entry) =>
        entry.settled ?? entry.fallback?.() ?? { kind: "failed", error: deadlineFailure() }
      ),
    );
  }

  #register(id: number): Entry<T> {
    let resolve!: (outcome: IdOutcome<T>) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<IdOutcome<T>>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    // A rejection is observed through `load`; this keeps an unobserved one from crashing.
    promise.catch(() => undefined);
    const entry: Entry<T> = { id, promise, resolve, reject, waiters: new Set() };
    this.#unsettled.set(id, entry);
    this.#lookupQueue.push(entry);
    if (this.#lookupQueue.length === 1) queueMicrotask(() => void this.#lookupPass());
    return entry;
  }

  /** One cache pass over every id registered since the last one. */
  async #lookupPass(): Promise<void> {
    const entries = this.#lookupQueue;
    this.#lookupQueue = [];
    let known: ReadonlyMap<number, Lookup<T>>;
    try {
      known = await this.#options.source.lookup(entries.map((entry) => entry.id));
    } catch (error) {
      for (const entry of entries) this.#fail(entry, error);
      return;
    }
    const upstream: Entry<T>[] = [];
    for (const entry of entries) {
      const lookup = known.get(entry.id);
      if (lookup !== undefined && "answer" in lookup) this.#settle(entry, lookup.answer);
      else {
        if (lookup !== undefined) entry.fallback = lookup.fallback;
        upstream.push(entry);
      }
    }
    this.#queueUpstream(upstream);
  }

  /** Adds the misses of a cache pass to the gathering batch, opening one if none is. */
  #queueUpstream(entries: readonly Entry<T>[]): void {
    const waited: Entry<T>[] = [];
    for (const entry of entries) {
      // Its callers gave up during the cache pass: nobody would read the answer.
      if (entry.waiters.size === 0) {
        this.#settle(entry, { kind: "failed", error: deadlineFailure() });
      } else waited.push(entry);
    }
    if (waited.length === 0) return;
    const now = this.#options.clock.now();
    const open = this.#open;
    const batch = open ?? { entries: [], work: new SharedWork(), openedAt: now, joinedAt: now };
    batch.joinedAt = now;
    for (const entry of waited) {
      batch.entries.push(entry);
      entry.batch = batch;
      for (const waiter of entry.waiters) batch.work.join(waiter);
    }
    if (open === undefined) {
      this.#open = batch;
      void this.#flushAfterWindow(batch);
    }
  }

  async #flushAfterWindow(batch: Batch<T>): Promise<void> {
    const { source } = this.#options;
    await this.#gather(batch);
    if (!batch.work.abandoned) {
      try {
        // Still open: callers arriving while the budget is spent join this request.
        await source.admit(batch.work);
      } catch (error) {
        if (this.#open === batch) this.#open = undefined;
        for (const entry of batch.entries) this.#failWith(entry, error);
        return;
      }
    }
    if (this.#open === batch) this.#open = undefined;
    if (batch.work.abandoned) {
      for (const entry of batch.entries) {
        this.#settle(entry, { kind: "failed", error: deadlineFailure() });
      }
      return;
    }
    try {
      const outcomes = await source.askUpstream(batch.entries.map((entry) => entry.id), batch.work);
      for (const entry of batch.entries) {
        this.#settle(entry, withFallback(entry, outcomes.get(entry.id) ?? { kind: "missing" }));
      }
    } catch (error) {
      for (const entry of batch.entries) this.#fail(entry, error);
    }
  }

  /**
   * The window: until `windowMs` after the last caller joined, and no longer than `maxWindowMs`
   * after the first; ends early when every caller has left.
   */
  async #gather(batch: Batch<T>): Promise<void> {
    const { clock, windowMs, maxWindowMs } = this.#options;
    if (windowMs <= 0) {
      await Promise.resolve();
      return;
    }
    const cap = batch.openedAt + Math.max(windowMs, maxWindowMs ?? windowMs);
    for (;;) {
      const wait = Math.min(batch.joinedAt + windowMs, cap) - clock.now();
      if (wait <= 0 || batch.work.signal.aborted) return;
      try {
        await clock.sleep(wait, batch.work.signal);
      } catch {
        return; // abandoned
      }
    }
  }

  /** A caller whose deadline passed stops waiting; work nobody waits for is abandoned. */
  #leave(waiter: Waiter, entries: readonly Entry<T>[]): void {
    for (const entry of entries) {
      if (entry.settled !== undefined) continue;
      entry.waiters.delete(waiter);
      const batch = entry.batch;
      if (batch === undefined || !batch.work.leave(waiter)) continue;
      // Abandoned: later callers of these ids must start afresh, not join a dead batch.
      if (this.#open === batch) this.#open = undefined;
      for (const abandoned of batch.entries) this.#forget(abandoned);
    }
  }

  #settle(entry: Entry<T>, outcome: IdOutcome<T>): void {
    entry.settled ??= outcome;
    entry.resolve(outcome);
    this.#forget(entry);
  }

  /** A failure of the whole batch: served stale where it may be, else passed to its callers. */
  #failWith(entry: Entry<T>, error: unknown): void {
    if (isGw2Failure(error)) this.#settle(entry, withFallback(entry, { kind: "failed", error }));
    else this.#fail(entry, error);
  }

  #fail(entry: Entry<T>, error: unknown): void {
    entry.reject(error);
    this.#forget(entry);
  }

  #forget(entry: Entry<T>): void {
    if (this.#unsettled.get(entry.id) === entry) this.#unsettled.delete(entry.id);
  }
}

/** What a caller gets for an id whose answer did not come before its deadline. */
function deadlineFailure(): Gw2Failure {
  return new Gw2UpstreamError("timeout");
}

/** An upstream failure is answered from the expired entry when there is one and it may be. */
function withFallback<T>(entry: Entry<T>, outcome: IdOutcome<T>): IdOutcome<T> {
  if (outcome.kind !== "failed" || entry.fallback === undefined) return outcome;
  return canServeStale(outcome.error) ? entry.fallback() : outcome;
}

function assemble<T>(ids: readonly number[], outcomes: readonly IdOutcome<T>[]): BulkRead<T> {
  const found: T[] = [];
  const missingIds: number[] = [];
  let staleAgeMs: number | undefined;
  ids.forEach((id, index) => {
    const outcome = outcomes[index] ?? { kind: "missing" };
    if (outcome.kind === "failed") throw outcome.error;
    if (outcome.kind === "found") found.push(outcome.value);
    else missingIds.push(id);
    if (outcome.staleAgeMs !== undefined) {
      staleAgeMs = Math.max(staleAgeMs ?? 0, outcome.staleAgeMs);
    }
  });
  return staleAgeMs === undefined ? { found, missingIds } : { found, missingIds, staleAgeMs };
}
