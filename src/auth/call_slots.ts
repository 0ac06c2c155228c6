/**
 * How many tool calls of one player (the GW2 account behind their sign-ins) run at once in the
 * public mode. Each call runs on the one event loop every player shares, and the heavy ones (a
 * ranking prices ~170 trees twice) take real CPU: one player firing rankings in parallel would
 * slow every other player's calls by as many times. Past `perGrant` calls in flight, a player's
 * next call waits for one of their own to finish - first come, first served, within its own
 * deadline - while other players go on. Pure, in the process's memory.
 *
 * @module
 */

interface Slots {
  running: number;
  readonly waiting: (() => void)[];
}

/** The per-grant slots of one process. */
export class CallSlots {
  readonly #perGrant: number;
  readonly #grants = new Map<string, Slots>();

  /** @param perGrant calls of one grant that may run at once (at least 1) */
  constructor(perGrant: number) {
    this.#perGrant = Math.max(1, Math.floor(perGrant));
  }

  /**
   * Waits for a slot of `grant` and takes it; the returned function gives it back (call it once).
   * Rejects with `signal`'s reason when it aborts first (the call's deadline).
   *
   * @example
   * ```ts
   * const leave = await slots.enter(grantId, deadline.signal);
   * try { await work(); } finally { leave(); }
   * ```
   */
  enter(grant: string, signal: AbortSignal): Promise<() => void> {
    const slots = this.#grants.get(grant) ?? { running: 0, waiting: [] };
    this.#grants.set(grant, slots);
    const leave = this.#leaver(grant, slots);
    if (slots.running < this.#perGrant && slots.waiting.length === 0) {
      slots.running++;
      return Promise.resolve(leave);
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const admit = () => {
        signal.removeEventListener("abort", onAbort);
        slots.running++;
        resolve(leave);
      };
      const onAbort = () => {
        const index = slots.waiting.indexOf(admit);
        if (index !== -1) slots.waiting.splice(index, 1);
        this.#forget(grant, slots);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      slots.waiting.push(admit);
    });
  }

  /** Calls of `grant` running now (for tests). */
  running(grant: string): number {
    return this.#grants.get(grant)?.running ?? 0;
  }

  #leaver(grant: string, slots: Slots): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      slots.running--;
      const next = slots.waiting.shift();
      if (next !== undefined) next();
      else this.#forget(grant, slots);
    };
  }

  #forget(grant: string, slots: Slots): void {
    if (slots.running === 0 && slots.waiting.length === 0) this.#grants.delete(grant);
  }
}
