/**
 * A dataset published in generations (`generations.ts`), held in memory by one instance: loaded
 * on first use, reloaded when the head names another generation, the head re-read at most every
 * `checkEveryMs` (one read in flight, joined by every caller), and not used once older than
 * `maxAgeMs` (its writer has stopped refreshing it). A copy a caller built itself (an on-demand
 * fill) is held with {@linkcode HeldGeneration.hold}. The recipe and achievement catalogues hold
 * their generations this way.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { describeError, type Logger } from "../log.ts";

/** What every head says. */
export interface HeldHead {
  readonly generation: number;
  /** When it was complete (epoch ms): its age. */
  readonly completedAt: number;
}

/** Options of {@linkcode HeldGeneration}. */
export interface HeldGenerationOptions<H extends HeldHead, T> {
  readonly clock: Clock;
  readonly log: Logger;
  /** Names the dataset in log lines, e.g. "achievement catalogue". */
  readonly what: string;
  /** Reads the published head. */
  readonly readHead: () => Promise<H | undefined>;
  /**
   * Loads the generation `head` names; `undefined` when what KV holds is incomplete (read while
   * being replaced, or damaged): the held copy stays, and the next check tries again.
   */
  readonly load: (head: H) => Promise<T | undefined>;
  /** Whether the held copy already answers for `next` (only the head itself is taken). */
  readonly holds: (held: H, next: H) => boolean;
  readonly checkEveryMs: number;
  readonly maxAgeMs: number;
}

/** A generation held in memory. */
export interface Held<H, T> {
  readonly head: H;
  readonly value: T;
}

/** One instance's copy of a published dataset. */
export class HeldGeneration<H extends HeldHead, T> {
  readonly #options: HeldGenerationOptions<H, T>;
  #held: Held<H, T> | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #syncing: Promise<void> | undefined;

  /** @param options how to read the head and load a generation, and how often */
  constructor(options: HeldGenerationOptions<H, T>) {
    this.#options = options;
  }

  /** The held copy when usable (young enough), the head re-read first when due. */
  async current(): Promise<Held<H, T> | undefined> {
    const { clock, checkEveryMs, maxAgeMs } = this.#options;
    if (clock.now() - this.#checkedAt >= checkEveryMs) {
      this.#syncing ??= this.#sync().finally(() => this.#syncing = undefined);
      await this.#syncing;
    }
    const held = this.#held;
    if (held === undefined) return undefined;
    return clock.now() - held.head.completedAt < maxAgeMs ? held : undefined;
  }

  /** Holds a copy built here (published or not), as checked now. */
  hold(head: H, value: T): void {
    this.#held = { head, value };
    this.#checkedAt = this.#options.clock.now();
  }

  /** Makes the next {@linkcode current} re-read the head. */
  refresh(): void {
    this.#checkedAt = Number.NEGATIVE_INFINITY;
  }

  async #sync(): Promise<void> {
    const { clock, log, what } = this.#options;
    try {
      const head = await this.#options.readHead();
      this.#checkedAt = clock.now();
      // None in KV: nothing to load (a copy built here and not stored stays usable).
      if (head === undefined) return;
      const held = this.#held;
      if (held !== undefined && this.#options.holds(held.head, head)) {
        this.#held = { ...held, head };
        return;
      }
      const value = await this.#options.load(head);
      if (value === undefined) {
        log.warn(`${what} incomplete in KV`, { generation: head.generation });
        return;
      }
      this.#held = { head, value };
      log.info(`${what} loaded`, { generation: head.generation });
    } catch (error) {
      // Lookups keep the held copy (or have none) until the next check.
      this.#checkedAt = clock.now();
      log.warn(`${what} read failed`, { error: describeError(error) });
    }
  }
}
