/**
 * Coalescing of bulk reads by id. Callers' ids are de-duplicated and collected for a short
 * window (a few milliseconds on the injected clock, started by the first id), then resolved
 * together in one pass (cache lookup, then upstream in requests of at most 200); an id already
 * being resolved is joined instead of asked for again. So twenty concurrent callers with
 * overlapping ids cost one upstream request per 200 distinct uncached ids, and a caller
 * arriving while a request is in flight waits for it instead of starting another.
 *
 * The window is taken on the clock rather than a microtask because callers reach the client
 * from separate MCP requests a few milliseconds apart; ids are registered synchronously on
 * call, so callers in the same tick always share a batch even with a zero window.
 *
 * @module
 */

import type { Clock } from "../clock.ts";
import type { Gw2Failure } from "./errors.ts";
import type { BulkRead } from "./types.ts";

/** How one id was resolved. `staleAgeMs` marks an expired entry served because upstream failed. */
export type IdOutcome<T> =
  | { readonly kind: "found"; readonly value: T; readonly staleAgeMs?: number }
  | { readonly kind: "missing"; readonly staleAgeMs?: number }
  | { readonly kind: "failed"; readonly error: Gw2Failure };

/** Resolves a batch of distinct ids; every id must get an outcome. */
export type BatchResolver<T> = (
  ids: readonly number[],
) => Promise<ReadonlyMap<number, IdOutcome<T>>>;

/** Options of {@linkcode Coalescer}. */
export interface CoalescerOptions<T> {
  readonly clock: Clock;
  /** How long the first id of a batch waits for company; 0 flushes on the next microtask. */
  readonly windowMs: number;
  readonly resolve: BatchResolver<T>;
  /** Called with the number of ids that joined an earlier, unsettled request. */
  readonly onJoin?: (count: number) => void;
}

interface Pending<T> {
  readonly promise: Promise<IdOutcome<T>>;
  readonly resolve: (outcome: IdOutcome<T>) => void;
  readonly reject: (error: unknown) => void;
}

/** Returns `ids` without duplicates, in first-seen order. */
export function uniqueIds(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/** Collects, de-duplicates and joins bulk reads of one endpoint. */
export class Coalescer<T> {
  readonly #options: CoalescerOptions<T>;
  /** Ids waiting for the current window to close. */
  #queued = new Map<number, Pending<T>>();
  /** Every unsettled id, queued or being resolved. */
  readonly #unsettled = new Map<number, Pending<T>>();

  /** @param options clock, window and the batch resolver */
  constructor(options: CoalescerOptions<T>) {
    this.#options = options;
  }

  /**
   * Reads `ids`: found records in first-requested order, missing ids, and the age of the
   * oldest stale record served, if any.
   *
   * @throws {Gw2Failure} the first failure among the ids' outcomes
   */
  async load(ids: readonly number[]): Promise<BulkRead<T>> {
    const unique = uniqueIds(ids);
    let joined = 0;
    const outcomes = unique.map((id) => {
      const existing = this.#unsettled.get(id);
      if (existing !== undefined) {
        joined++;
        return existing.promise;
      }
      return this.#enqueue(id).promise;
    });
    if (joined > 0) this.#options.onJoin?.(joined);
    const settled = await Promise.all(outcomes);
    return assemble(unique.map((id, index) => [id, settled[index] ?? { kind: "missing" }]));
  }

  #enqueue(id: number): Pending<T> {
    const pending = deferred<T>();
    if (this.#queued.size === 0) void this.#flushAfterWindow();
    this.#queued.set(id, pending);
    this.#unsettled.set(id, pending);
    return pending;
  }

  async #flushAfterWindow(): Promise<void> {
    const { clock, windowMs } = this.#options;
    if (windowMs > 0) await clock.sleep(windowMs);
    else await Promise.resolve();
    const batch = this.#queued;
    this.#queued = new Map();
    const ids = [...batch.keys()];
    try {
      const outcomes = await this.#options.resolve(ids);
      for (const [id, pending] of batch) {
        pending.resolve(outcomes.get(id) ?? { kind: "missing" });
      }
    } catch (error) {
      for (const pending of batch.values()) pending.reject(error);
    } finally {
      for (const id of ids) this.#unsettled.delete(id);
    }
  }
}

function deferred<T>(): Pending<T> {
  let resolve!: (outcome: IdOutcome<T>) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<IdOutcome<T>>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // A rejection is observed through `load`; this keeps an unobserved one from crashing.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

function assemble<T>(outcomes: readonly (readonly [number, IdOutcome<T>])[]): BulkRead<T> {
  const found: T[] = [];
  const missingIds: number[] = [];
  let staleAgeMs: number | undefined;
  for (const [id, outcome] of outcomes) {
    if (outcome.kind === "failed") throw outcome.error;
    if (outcome.kind === "found") found.push(outcome.value);
    else missingIds.push(id);
    if (outcome.staleAgeMs !== undefined) {
      staleAgeMs = Math.max(staleAgeMs ?? 0, outcome.staleAgeMs);
    }
  }
  return staleAgeMs === undefined ? { found, missingIds } : { found, missingIds, staleAgeMs };
}
