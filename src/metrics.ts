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

/** The upstream cost seen while one call ran (see {@linkcode CallMeter}). */
export interface CallCost {
  /** Upstream HTTP requests sent while the call ran (every attempt). */
  readonly upstream: number;
  /** Records or documents answered fresh from the cache while the call ran. */
  readonly hits: number;
  /**
   * Another call ran at some moment of this one: the counts are the process's over the call's
   * time, so they include that call's work (and shared work is counted once, for both).
   */
  readonly overlapped: boolean;
}

/**
 * Measures each call's upstream requests and cache hits as the difference of the client's
 * counters around it - exact for a call alone, and marked `overlapped` when another call ran
 * beside it (coalesced reads serve several calls at once, so no per-call split would be exact
 * either). For the dev console; costs two counter snapshots per call.
 *
 * @example
 * ```ts
 * const meter = new CallMeter(() => client.stats());
 * const stop = meter.start();
 * await work();
 * const { upstream, hits, overlapped } = stop();
 * ```
 */
export class CallMeter {
  readonly #snapshot: () => CounterSnapshot;
  #running = 0;
  #started = 0;

  /** @param snapshot the counters of the client the calls read through */
  constructor(snapshot: () => CounterSnapshot) {
    this.#snapshot = snapshot;
  }

  /** Starts measuring one call; the returned function ends it (call it once). */
  start(): () => CallCost {
    const before = this.#snapshot();
    const mine = ++this.#started;
    const othersRunning = this.#running++ > 0;
    return () => {
      this.#running--;
      const after = this.#snapshot();
      return {
        // Never below 0, should the counters be reset meanwhile (a benchmark phase).
        upstream: Math.max(0, after.upstreamRequests - before.upstreamRequests),
        hits: Math.max(0, after.cacheHits - before.cacheHits),
        overlapped: othersRunning || this.#started !== mine,
      };
    };
  }
}
