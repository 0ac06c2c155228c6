/**
 * Interactive work first: the tool calls in flight in this process, which background work (the
 * name index's load and packing, the crawl, the warm-up, the market sheet) gives way to. A
 * background job that pauses between its slices ({@linkcode Foreground.idle}) waits while a call
 * runs, up to a bound, so a call never queues behind a background burst of CPU, and the
 * background still moves on under a steady stream of calls (it gets at least one slice per
 * bound).
 *
 * One per process (`main.ts`), shared by the MCP server (which enters it around every tool call)
 * and the background jobs' pacing (`slices.ts`).
 *
 * @module
 */

import type { Clock } from "./clock.ts";

/**
 * How long a background request waits for the interactive calls in flight before it starts
 * anyway: about a cold call's few round trips, so a call has the upstream to itself while the
 * background still moves on (a request a second at worst).
 */
export const GIVE_WAY_MS = 1_000;

/** The tool calls in flight, and a wait for none to be. */
export class Foreground {
  #active = 0;
  /** Resolved when the last call in flight leaves. */
  #quiet: PromiseWithResolvers<void> | undefined;

  /** Whether an interactive call is in flight. */
  get busy(): boolean {
    return this.#active > 0;
  }

  /** Marks an interactive call as in flight; call the returned function once it is done. */
  enter(): () => void {
    this.#active++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#active--;
      if (this.#active === 0) {
        this.#quiet?.resolve();
        this.#quiet = undefined;
      }
    };
  }

  /**
   * Resolves at once when no interactive call is in flight; else when none is any more, or
   * after `maxMs` on `clock`, whichever comes first (background work is slowed, never stopped).
   */
  async idle(maxMs: number, clock: Clock): Promise<void> {
    if (this.#active === 0 || maxMs <= 0) return;
    this.#quiet ??= Promise.withResolvers<void>();
    const timer = new AbortController();
    const timeout = clock.timer(maxMs, timer.signal).catch(() => undefined);
    try {
      await Promise.race([this.#quiet.promise, timeout]);
    } finally {
      timer.abort();
      await timeout;
    }
  }
}
