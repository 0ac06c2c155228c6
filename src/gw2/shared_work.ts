/**
 * The deadline of upstream work that several callers share: a coalesced batch of ids, or a
 * single-flight document read. Callers with different deadlines join the same work, so it is
 * bounded by the latest of their deadlines (an unbounded caller keeps it unbounded), and it is
 * abandoned - its signal aborts, which stops the budget wait, the attempt in flight and any retry
 * pause - only when no caller waits for it any more. One caller giving up never fails the others:
 * it leaves, answers from what it has (a stale entry, or a timeout), and the work goes on for
 * whoever still waits.
 *
 * @module
 */

import { type Deadline, remainingMs } from "../async/deadline.ts";

/** One caller waiting for shared work. Identity matters: a caller joins a piece of work once. */
export interface Waiter {
  /** The caller's own deadline; `undefined` for a caller that waits as long as it takes. */
  readonly deadline: Deadline | undefined;
}

/** Shared work's deadline: the latest of its waiters', abandoned when the last one leaves. */
export class SharedWork implements Deadline {
  readonly #abandon = new AbortController();
  readonly #waiters = new Set<Waiter>();

  /** Aborts when the last waiter has left. */
  get signal(): AbortSignal {
    return this.#abandon.signal;
  }

  /** True once every waiter has left (and for work nobody joined yet). */
  get abandoned(): boolean {
    return this.#abandon.signal.aborted || this.#waiters.size === 0;
  }

  /** The time left before the latest waiter's deadline; 0 when nobody waits. */
  remainingMs(): number {
    if (this.#abandon.signal.aborted) return 0;
    let latest = 0;
    for (const waiter of this.#waiters) latest = Math.max(latest, remainingMs(waiter.deadline));
    return latest;
  }

  /** Everyone the waiters work for: the work is theirs, for the budget's fair share. */
  owners(): readonly string[] {
    const owners = new Set<string>();
    for (const waiter of this.#waiters) {
      for (const owner of waiter.deadline?.owners?.() ?? []) owners.add(owner);
    }
    return [...owners];
  }

  /** Adds a waiter (again is harmless). */
  join(waiter: Waiter): void {
    this.#waiters.add(waiter);
  }

  /**
   * Removes a waiter; the last one to leave abandons the work.
   *
   * @returns true when this call abandoned it
   */
  leave(waiter: Waiter): boolean {
    if (!this.#waiters.delete(waiter) || this.#waiters.size > 0) return false;
    this.#abandon.abort();
    return true;
  }
}
