/**
 * An event-loop stall probe from outside the server: a worker of the bench process asks the
 * server's `/healthz` (no auth, no work) again every few milliseconds and keeps how long each
 * answer took. A server whose event loop is held answers only once it is free, so the longest
 * answer is the longest stall it had while probed (within a probe's interval and a loopback round
 * trip, ~1 ms). In a worker, so the bench's own event loop (which also runs the fake GW2 API)
 * does not delay the probe.
 *
 * @module
 */

/** What a probe saw. */
export interface StallReport {
  /** Answers timed. */
  readonly samples: number;
  /** The longest answer, ms: the longest stall seen. */
  readonly longestMs: number;
  /** When it began, ms after the probe started. */
  readonly longestAtMs: number;
  /** The median answer, ms: the probe's own cost with nothing in its way. */
  readonly medianMs: number;
  /** Answers over 50 ms. */
  readonly over50: number;
  /** The first 20 of them: when each was sent (ms after the probe started) and how long it took. */
  readonly slow: readonly (readonly [atMs: number, ms: number])[];
}

/** A running probe. */
export interface StallProbe {
  /** Stops probing and returns what it saw. */
  stop(): Promise<StallReport>;
}

/**
 * Starts probing `url` (a server's `/healthz`) every `intervalMs`.
 *
 * @example
 * ```ts
 * const probe = startStallProbe(`${base}/healthz`);
 * // ... the work under test ...
 * const { longestMs } = await probe.stop();
 * ```
 */
export function startStallProbe(url: string, intervalMs = 5): StallProbe {
  const worker = new Worker(new URL("./stall_probe_worker.ts", import.meta.url), {
    type: "module",
  });
  worker.postMessage({ url, intervalMs });
  return {
    stop: () =>
      new Promise<StallReport>((resolve, reject) => {
        worker.onmessage = (event: MessageEvent<StallReport>) => {
          worker.terminate();
          resolve(event.data);
        };
        worker.onerror = (event) => {
          worker.terminate();
          reject(new Error(`the stall probe failed: ${event.message}`));
        };
        worker.postMessage("stop");
      }),
  };
}
