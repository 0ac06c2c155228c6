/**
 * Counters of the upstream layer, read by the benchmark and by tests: how often the cache
 * answered, how often upstream was asked, and how it went. Plain numbers in memory, per process.
 *
 * @module
 */

/** Names of the counters the upstream layer keeps. */
export const COUNTER_NAMES = [
  /** Records or documents served fresh from the KV cache (negative entries included). */
  "cacheHits",
  /** Of those, records answered from this process's memory, without a KV read. */
  "memoryHits",
  /** Records or documents not in the cache, or expired, so upstream was asked. */
  "cacheMisses",
  /** Expired entries served because upstream failed (stale-if-error). */
  "staleServes",
  /** Fresh "unknown id" entries that spared an upstream request. */
  "negativeHits",
  /** Ids or documents that joined a request already in flight instead of starting one. */
  "coalescedJoins",
  /** Upstream HTTP requests sent (every attempt, retries included). */
  "upstreamRequests",
  /** Upstream attempts that failed (any status or error that was not a success). */
  "upstreamErrors",
  /** Upstream attempts that were retried after a failure. */
  "upstreamRetries",
  /** Times a request waited for the shared token bucket to refill. */
  "bucketWaits",
  /** Requests refused because the bucket stayed empty past the wait bound. */
  "bucketRefusals",
] as const;

/** One of {@linkcode COUNTER_NAMES}. */
export type CounterName = typeof COUNTER_NAMES[number];

/** A snapshot of every counter. */
export type CounterSnapshot = Readonly<Record<CounterName, number>>;

/** Mutable counters shared by the modules of one client. */
export class Counters {
  #values: Record<CounterName, number> = Counters.#zero();

  static #zero(): Record<CounterName, number> {
    const values = {} as Record<CounterName, number>; // filled for every name just below
    for (const name of COUNTER_NAMES) values[name] = 0;
    return values;
  }

  /** Adds `by` (default 1) to a counter. */
  add(name: CounterName, by = 1): void {
    this.#values[name] += by;
  }

  /** A copy of every counter's current value. */
  snapshot(): CounterSnapshot {
    return { ...this.#values };
  }

  /** Sets every counter back to zero (between benchmark phases). */
  reset(): void {
    this.#values = Counters.#zero();
  }
}
