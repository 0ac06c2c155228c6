/**
 * Whole collections read page by page (`?page=N&page_size=200`): the recipe catalogue's fill
 * (`/v2/recipes`, ~66 pages) and the market sheet (`/v2/commerce/prices`, ~135 pages). Built on
 * the client's paged reads (`Gw2PagedReads`), under each caller's own deadline.
 *
 * - {@linkcode withPageRetries}: a page that fails in passing (a 5xx, a lost connection) is read
 *   again, up to {@linkcode PAGE_ATTEMPTS} attempts: one failed page fails a whole read, and the
 *   background client makes one attempt per request.
 * - {@linkcode readPageOrEnd}: a 400 past the first page is upstream's `page out of range` (the
 *   collection shrank since its page count was read): an empty last page.
 * - {@linkcode CollectionRead}: every page of one collection, read by groups of workers that may
 *   join while it runs. A group is one reader (a client and its deadline): the background job
 *   that started a read, then a tool call that needs it now and adds its own workers over the
 *   interactive client. Workers take the pages nobody reads yet; once none is left, a worker may
 *   also read a page another group has been reading for {@linkcode STEAL_AFTER_MS} (the
 *   background client waiting for its share of the budget, say), and whichever answer comes
 *   first is kept: the other read is stopped. A group whose read fails stops; the read fails
 *   only when no group is left to finish it.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { Gw2UpstreamError } from "./errors.ts";
import type { Page } from "./types.ts";

/** Attempts at one page when it fails in passing (see {@linkcode withPageRetries}). */
export const PAGE_ATTEMPTS = 3;

/**
 * How long a page may be in another group's hands before a worker with nothing else to do reads
 * it too: several round trips, so only a read that waits (for the budget, a slow answer) is
 * doubled, never one merely in flight.
 */
export const STEAL_AFTER_MS = 2_000;

/**
 * Reads a page again after a transient failure (a 5xx or a lost connection), up to
 * {@linkcode PAGE_ATTEMPTS} attempts in all. Anything else - a timeout, a deadline, a 4xx, the
 * budget - fails at once.
 *
 * @example
 * ```ts
 * const page = await withPageRetries(() => gw2.recipesPage(0, 200, deadline));
 * ```
 */
export async function withPageRetries<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await read();
    } catch (error) {
      const transient = error instanceof Gw2UpstreamError &&
        (error.reason === "server_error" || error.reason === "network");
      if (!transient || attempt >= PAGE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Page `page` of a collection, read by `read`. A 400 on a page after the first means the
 * collection shrank below it since the page count was read (upstream's `page out of range`): an
 * empty page, the last one. The fill, the catalogue crawl and the market sheet read their pages
 * through it.
 */
export async function readPageOrEnd<T>(
  read: () => Promise<Page<T>>,
  page: number,
): Promise<Page<T>> {
  try {
    return await read();
  } catch (error) {
    if (page > 0 && error instanceof Gw2UpstreamError && error.status === 400) {
      return { records: [], skipped: 0, pageTotal: page };
    }
    throw error;
  }
}

/**
 * One page read by one group: `stop` aborts when the page has been read by another group (or the
 * whole read is over), and the reader passes it on to its client (as part of its deadline).
 */
export type PageRead<T> = (page: number, pageSize: number, stop: AbortSignal) => Promise<Page<T>>;

/** Options of {@linkcode CollectionRead}. */
export interface CollectionReadOptions {
  /** Records per page (GW2's maximum is 200). */
  readonly pageSize: number;
  /** The most pages the read takes: past it (`X-Page-Total` of page 0), it fails at once. */
  readonly maxPages: number;
  /** Names the collection in that failure, e.g. `recipe catalogue`. */
  readonly what: string;
  /** The clock of {@linkcode STEAL_AFTER_MS}. */
  readonly clock: Clock;
  /** @default STEAL_AFTER_MS */
  readonly stealAfterMs?: number;
}

/** How far a read has got. */
export interface CollectionProgress {
  /** Pages read. */
  readonly read: number;
  /** Pages in all, once page 0 has said. */
  readonly total?: number;
}

/** One page's state: its answer once read, and who is reading it since when. */
interface Slot<T> {
  done?: Page<T>;
  /** The groups reading it now. */
  readonly readers: Set<number>;
  /** When its first current reader started (for stealing). */
  since: number;
  /** Aborted once it is read, or when the whole read ends. */
  readonly stop: AbortController;
}

/** What a worker does next. */
type Next = { readonly page: number } | { readonly wait: number | undefined } | "finished";

/** Every page of one collection, read by the groups that {@linkcode CollectionRead.join} it. */
export class CollectionRead<T> {
  readonly #options: CollectionReadOptions;
  readonly #slots: Slot<T>[] = [];
  readonly #settled = Promise.withResolvers<Page<T>[]>();
  #pageTotal: number | undefined;
  #groups = 0;
  #live = 0;
  #error: unknown;
  #over = false;
  #changed = Promise.withResolvers<void>();
  /** Every page in order once all are read; rejects when no group is left to finish. */
  readonly done: Promise<Page<T>[]>;

  /** @param options page size, page bound, clock */
  constructor(options: CollectionReadOptions) {
    this.#options = options;
    this.done = this.#settled.promise;
    // Awaited by the callers; a failure nobody waits for must not crash the process.
    this.done.catch(() => undefined);
  }

  /**
   * Adds a group of `workers` reading with `read`: they share the pages left with the groups
   * already reading. Does nothing once the read is over.
   */
  join(read: PageRead<T>, workers: number): void {
    if (this.#over) return;
    const group = ++this.#groups;
    const state = { failed: false };
    for (let worker = 0; worker < Math.max(1, workers); worker++) {
      this.#live++;
      void this.#work(group, state, read);
    }
  }

  /** Pages read so far, and the page count once known. */
  progress(): CollectionProgress {
    const read = this.#slots.filter((slot) => slot.done !== undefined).length;
    return this.#pageTotal === undefined ? { read } : { read, total: this.#pageTotal };
  }

  async #work(group: number, state: { failed: boolean }, read: PageRead<T>): Promise<void> {
    try {
      while (!state.failed && !this.#over) {
        const next = this.#next(group);
        if (next === "finished") break;
        if ("wait" in next) {
          await this.#wait(next.wait);
          continue;
        }
        const { page } = next;
        const slot = this.#slot(page);
        if (slot.readers.size === 0) slot.since = this.#options.clock.now();
        slot.readers.add(group);
        try {
          const answer = await withPageRetries(() =>
            readPageOrEnd(() => read(page, this.#options.pageSize, slot.stop.signal), page)
          );
          this.#complete(page, answer);
        } catch (error) {
          // A read stopped because another group's answer came first is no failure.
          if (slot.done === undefined && !this.#over) {
            state.failed = true;
            this.#error = error;
          }
        } finally {
          slot.readers.delete(group);
          this.#notify();
        }
      }
    } finally {
      this.#live--;
      this.#settleIfStuck();
    }
  }

  /** The next page for `group`: one nobody reads, else one to steal, else a wait. */
  #next(group: number): Next {
    const known = this.#pageTotal ?? 1;
    const now = this.#options.clock.now();
    const stealAfter = this.#options.stealAfterMs ?? STEAL_AFTER_MS;
    let steal: number | undefined;
    let soonest: number | undefined;
    let pending = false;
    for (let page = 0; page < known; page++) {
      const slot = this.#slot(page);
      if (slot.done !== undefined) continue;
      pending = true;
      if (slot.readers.size === 0) return { page };
      if (slot.readers.has(group)) continue;
      const due = slot.since + stealAfter;
      if (due <= now) steal ??= page;
      else soonest = Math.min(soonest ?? due, due);
    }
    if (steal !== undefined) return { page: steal };
    if (!pending) return "finished";
    return { wait: soonest === undefined ? undefined : soonest - now };
  }

  /** Waits until a page is read or given up, or until `ms` pass (a page becomes stealable). */
  async #wait(ms: number | undefined): Promise<void> {
    const changed = this.#changed.promise;
    if (ms === undefined) return await changed;
    const stop = new AbortController();
    const timer = this.#options.clock.timer(ms, stop.signal).catch(() => undefined);
    try {
      await Promise.race([changed, timer]);
    } finally {
      stop.abort();
    }
  }

  #notify(): void {
    const changed = this.#changed;
    this.#changed = Promise.withResolvers<void>();
    changed.resolve();
  }

  #slot(page: number): Slot<T> {
    let slot = this.#slots[page];
    if (slot === undefined) {
      slot = { readers: new Set(), since: 0, stop: new AbortController() };
      this.#slots[page] = slot;
    }
    return slot;
  }

  #complete(page: number, answer: Page<T>): void {
    const slot = this.#slot(page);
    if (slot.done !== undefined || this.#over) return;
    slot.done = answer;
    slot.stop.abort();
    if (page === 0 && this.#pageTotal === undefined) {
      const total = Math.max(1, answer.pageTotal);
      if (total > this.#options.maxPages) {
        this.#error = new RangeError(
          `Cannot read the ${this.#options.what} at once: ${total} pages, at most ${this.#options.maxPages}`,
        );
        this.#end();
        return;
      }
      this.#pageTotal = total;
    }
    const total = this.#pageTotal ?? 1;
    for (let index = 0; index < total; index++) {
      if (this.#slot(index).done === undefined) return;
    }
    this.#over = true;
    this.#settled.resolve(
      this.#slots.slice(0, total).map((entry) => entry.done ?? emptyPage(total)),
    );
    this.#stopAll();
  }

  /** No worker left and pages still unread: the read fails with the last error seen. */
  #settleIfStuck(): void {
    if (this.#live > 0 || this.#over) return;
    this.#end();
  }

  #end(): void {
    if (this.#over) return;
    this.#over = true;
    this.#settled.reject(
      this.#error ?? new Error(`The ${this.#options.what} read ended unfinished`),
    );
    this.#stopAll();
  }

  #stopAll(): void {
    for (const slot of this.#slots) slot.stop.abort();
    this.#notify();
  }
}

function emptyPage<T>(pageTotal: number): Page<T> {
  return { records: [], skipped: 0, pageTotal };
}
