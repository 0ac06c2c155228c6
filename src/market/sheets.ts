/**
 * The market sheet of one process (`sheet.ts`): the latest one held in memory, loaded from KV
 * (`sheet_store.ts`) when another instance published a newer one, and taken anew - every
 * `/v2/commerce/prices` page, ~135 requests for the real API - by the background job
 * (`src/background/sheet.ts`) every period, or on demand by a tool call that needs a fresh one.
 *
 * - **One read at a time per process.** A refresh in flight is joined: the background job's, by a
 *   tool call that then lends its own reader (`CollectionRead`: its workers take the pages nobody
 *   reads yet, and pages the background client holds while it waits for its share), so a fresh
 *   server's first call is not held to the background pace.
 * - **Hooks after each publication.** Every {@linkcode SheetHook} (given as `onSheet`, or added
 *   with {@linkcode MarketSheets.onSheet}) is called with the new sheet and the one before it, on
 *   the instance that took it, once it is published - whoever started the read. Issue 23's price
 *   history writes its snapshots there, so the Trading Post is never read twice.
 * - **Every price read while fresh.** {@linkcode MarketSheets.prices} answers a `/v2/commerce/prices`
 *   read from memory while the sheet is younger than the period (at most
 *   {@linkcode SHEET_FRESH_MAX_MS}) plus one job tick and its read
 *   ({@linkcode SHEET_SERVE_SLACK_MS}); the GW2 client consults it first (`priceSheet`), so trees,
 *   `gw2_prices` and the crafting scan price from the same snapshot, and the per-minute price
 *   job has nothing left to read.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import {
  type Deadline,
  deadlineOrSignal,
  startDeadline,
  unlessAborted,
} from "../async/deadline.ts";
import { CollectionRead, type PageRead } from "../gw2/paging.ts";
import type { Price } from "../gw2/schemas.ts";
import type { BulkRead, Gw2PagedReads } from "../gw2/types.ts";
import { describeError, type Logger } from "../log.ts";
import {
  buildSheet,
  DEFAULT_SHEET_PERIOD_MS,
  type MarketSheet,
  sheetAge,
  sheetPrice,
  sheetSize,
} from "./sheet.ts";
import type { SheetStore } from "./sheet_store.ts";

/** Prices per page: GW2's maximum. */
export const SHEET_PAGE_SIZE = 200;
/** Pages the background job's reader has in flight at once. */
export const SHEET_READ_WORKERS = 8;
/**
 * Pages a tool call's reader has in flight at once: it waits, so it reads twice as wide (135
 * pages at 300 ms: ~2.6 s instead of ~5 s), within the burst the interactive client may use.
 */
export const SHEET_CALL_WORKERS = 16;
/**
 * The most pages a read takes: 50,000 prices (the real Trading Post has ~27,000 in ~135 pages).
 * Past it (upstream's `X-Page-Total`) the read declines after its first page.
 */
export const SHEET_MAX_PAGES = 250;
/** How long an on-demand read may run, whoever waits for it: past it, its reads give up. */
export const SHEET_READ_MS = 90_000;
/** How often an instance re-reads the head to notice a sheet another instance published. */
export const SHEET_HEAD_CHECK_MS = 30_000;
/**
 * How long past its period a sheet still answers price reads: one job tick and a read, so prices
 * never fall back to upstream between two refreshes; older (the job failing), they do.
 */
export const SHEET_SERVE_SLACK_MS = 2 * 60_000;
/**
 * The longest a sheet counts as fresh, whatever its period: about as long as upstream caches
 * prices. A longer period (`PRIORY_SNAPSHOT_MINUTES` up to 60) sets how often the job takes a
 * snapshot, not how old a price may be when a tool quotes it: past this, price reads go upstream
 * again and a tool call that needs the whole sheet reads a new one.
 */
export const SHEET_FRESH_MAX_MS = DEFAULT_SHEET_PERIOD_MS;

/**
 * Called after each publication, on the instance that took the sheet, with it and the sheet it
 * replaces here (none on a fresh process). Awaited in turn; a failure is logged, never fails the
 * refresh.
 */
export type SheetHook = (sheet: MarketSheet, previous: MarketSheet | undefined) => unknown;

/** What a sheet is read with: a client's paged price read. */
export type SheetPages = Pick<Gw2PagedReads, "pricesPage">;

/** Options of {@linkcode MarketSheets}. */
export interface MarketSheetsOptions {
  readonly store: SheetStore;
  readonly clock: Clock;
  readonly log: Logger;
  /** How often the sheet is taken. @default DEFAULT_SHEET_PERIOD_MS */
  readonly periodMs?: number;
  /** The interactive client's paged reads: what an on-demand read (a tool call) reads with. */
  readonly pages?: SheetPages;
  /** Called after each publication (see {@linkcode SheetHook}). */
  readonly onSheet?: readonly SheetHook[];
}

/** The sheet a tool call gets, and how old it is when it is not fresh. */
export interface SheetAnswer {
  readonly sheet: MarketSheet;
  /** Present when the sheet no longer answers price reads (a refresh failed or runs late). */
  readonly staleAgeMs?: number;
}

/** No sheet yet, and none could be read before the call's time ran out. */
export class MarketSheetPendingError extends Error {
  /** When a retry should find one, in milliseconds. */
  readonly retryAfterMs: number;
  /** Pages read so far, and the page count once known. */
  readonly pagesRead: number;
  readonly pageTotal: number | undefined;
  /** @param retryAfterMs when to retry; @param pagesRead pages read; @param pageTotal pages in all */
  constructor(retryAfterMs: number, pagesRead: number, pageTotal?: number) {
    super(`The Trading Post is still being read: retry in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = "MarketSheetPendingError";
    this.retryAfterMs = retryAfterMs;
    this.pagesRead = pagesRead;
    this.pageTotal = pageTotal;
  }
}

/** The read in flight. */
interface Flight {
  readonly pages: CollectionRead<Price>;
  readonly startedAt: number;
  /** The new sheet once published (before the hooks run). */
  readonly published: Promise<MarketSheet>;
  /** The new sheet once the hooks have run too. */
  readonly finished: Promise<MarketSheet>;
  /** Whether the interactive client reads for it already. */
  helped: boolean;
}

/** The market sheet of one process. */
export class MarketSheets {
  readonly #store: SheetStore;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #periodMs: number;
  /** How long a sheet is fresh: the period, at most {@linkcode SHEET_FRESH_MAX_MS}. */
  readonly #freshMs: number;
  readonly #pages: SheetPages | undefined;
  readonly #hooks: SheetHook[];
  #sheet: MarketSheet | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #syncing: Promise<void> | undefined;
  #flight: Flight | undefined;

  /** @param options the store, clock, logger, period, interactive pages and hooks */
  constructor(options: MarketSheetsOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#periodMs = options.periodMs ?? DEFAULT_SHEET_PERIOD_MS;
    this.#freshMs = Math.min(this.#periodMs, SHEET_FRESH_MAX_MS);
    this.#pages = options.pages;
    this.#hooks = [...(options.onSheet ?? [])];
  }

  /** How often the sheet is taken. */
  get periodMs(): number {
    return this.#periodMs;
  }

  /** Adds a hook called after each publication (see {@linkcode SheetHook}). */
  onSheet(hook: SheetHook): void {
    this.#hooks.push(hook);
  }

  /** The sheet held in memory, however old, without touching KV. */
  latest(): MarketSheet | undefined {
    return this.#sheet;
  }

  /**
   * The latest sheet: the one held, or a newer one another instance published (the head is
   * re-read at most every {@linkcode SHEET_HEAD_CHECK_MS}, or now with `recheck`).
   */
  async current(options: { readonly recheck?: boolean } = {}): Promise<MarketSheet | undefined> {
    if (options.recheck === true || this.#clock.now() - this.#checkedAt >= SHEET_HEAD_CHECK_MS) {
      this.#syncing ??= this.#sync().finally(() => this.#syncing = undefined);
      await this.#syncing;
    }
    return this.#sheet;
  }

  /** Whether the held sheet is fresh: younger than the period, and than {@linkcode SHEET_FRESH_MAX_MS}. */
  isFresh(): boolean {
    return this.#sheet !== undefined && this.#age(this.#sheet) < this.#freshMs;
  }

  /**
   * `/v2/commerce/prices` for `ids` from the held sheet, as the GW2 client answers it (found in
   * the order asked, without duplicates; ids not on the Trading Post missing); `undefined` when no
   * sheet is held or it is no longer fresh ({@linkcode isFresh}) by more than
   * {@linkcode SHEET_SERVE_SLACK_MS}.
   */
  prices(ids: readonly number[]): BulkRead<Price> | undefined {
    const sheet = this.#sheet;
    if (sheet === undefined || !this.#servesPrices(sheet)) return undefined;
    const found: Price[] = [];
    const missingIds: number[] = [];
    for (const id of new Set(ids)) {
      const price = sheetPrice(sheet, id);
      if (price === undefined) missingIds.push(id);
      else found.push(price);
    }
    return { found, missingIds };
  }

  /** How far the read in flight has got; `undefined` when none runs. */
  progress(): { readonly read: number; readonly total?: number } | undefined {
    return this.#flight?.pages.progress();
  }

  /**
   * Takes a new sheet with `read` (the caller's client, under its deadline, stopped with the
   * page it is given), publishes it and runs the hooks; a read already in flight is joined
   * instead, and `read` helps it.
   *
   * @returns the new sheet, once published and past the hooks
   * @throws the read's failure (a `Gw2Failure`; a `RangeError` past {@linkcode SHEET_MAX_PAGES})
   */
  refresh(read: PageRead<Price>): Promise<MarketSheet> {
    return this.#join(read).finished;
  }

  /**
   * The sheet for a tool call: the held one while it answers price reads (fresh, or within
   * {@linkcode SHEET_SERVE_SLACK_MS} of it while the job's tick refreshes it: the prices every
   * other tool quotes; another instance's newer one loaded first); else a new one, read within
   * `deadline` over the interactive client (joining a read in flight); else, when the deadline
   * passes first or the read fails, the last one with its age.
   *
   * @throws {MarketSheetPendingError} no sheet at all, and none read in time
   * @throws the read's failure when there is no sheet at all to fall back on
   */
  async forCall(deadline: Deadline): Promise<SheetAnswer> {
    const held = (await unlessAborted(this.current(), deadline.signal))?.value ?? this.#sheet;
    // Within the slack the job's tick is refreshing it (here or on another instance): no call
    // waits for that read, nor reads the whole Trading Post again on its own.
    if (held !== undefined && this.#servesPrices(held)) return { sheet: held };
    if (this.#pages === undefined) return this.#fallback(held, this.#flight);
    const flight = this.#flight ?? this.#begin();
    this.#help(flight, this.#pages);
    try {
      const read = await unlessAborted(flight.published, deadline.signal);
      if (read !== undefined) return { sheet: read.value };
    } catch (error) {
      if (held === undefined) throw error;
      this.#log.warn("market sheet read failed; serving the last one", {
        error: describeError(error),
      });
      return this.#stale(held);
    }
    return this.#fallback(held, flight);
  }

  #fallback(held: MarketSheet | undefined, flight: Flight | undefined): SheetAnswer {
    if (held !== undefined) return this.#stale(held);
    const progress = flight?.pages.progress() ?? { read: 0 };
    throw new MarketSheetPendingError(this.#eta(flight), progress.read, progress.total);
  }

  #stale(sheet: MarketSheet): SheetAnswer {
    return { sheet, staleAgeMs: this.#age(sheet) };
  }

  /** When the read in flight should be done: its pace so far over the pages left. */
  #eta(flight: Flight | undefined): number {
    if (flight === undefined) return 60_000;
    const { read, total } = flight.pages.progress();
    if (total === undefined || read === 0) return 30_000;
    const perPage = (this.#clock.now() - flight.startedAt) / read;
    return Math.max(2_000, Math.ceil(perPage * (total - read)) + 1_000);
  }

  #join(read: PageRead<Price>): Flight {
    const flight = this.#flight ?? this.#begin();
    flight.pages.join(read, SHEET_READ_WORKERS);
    return flight;
  }

  /**
   * The interactive client joins `flight` (once per read, however many calls wait for it) under
   * its own bound, {@linkcode SHEET_READ_MS} from now: the read goes on when the call that
   * started it has answered, so its retry finds it done.
   */
  #help(flight: Flight, pages: SheetPages): void {
    if (flight.helped) return;
    flight.helped = true;
    const bound = startDeadline(this.#clock, SHEET_READ_MS);
    flight.finished.finally(() => bound[Symbol.dispose]()).catch(() => undefined);
    flight.pages.join(
      (page, size, stop) => pages.pricesPage(page, size, deadlineOrSignal(bound, stop)),
      SHEET_CALL_WORKERS,
    );
  }

  #begin(): Flight {
    const startedAt = this.#clock.now();
    const pages = new CollectionRead<Price>({
      pageSize: SHEET_PAGE_SIZE,
      maxPages: SHEET_MAX_PAGES,
      what: "Trading Post",
      clock: this.#clock,
    });
    const published = pages.done.then((read) => this.#publish(read, startedAt));
    const finished = published.then(async ({ sheet, previous }) => {
      await this.#runHooks(sheet, previous);
      return sheet;
    });
    const flight: Flight = {
      pages,
      startedAt,
      published: published.then(({ sheet }) => sheet),
      finished,
      helped: false,
    };
    // Observed by whoever waits; a failure nobody waits for must not crash the process.
    flight.published.catch(() => undefined);
    finished.catch((error: unknown) => {
      this.#log.warn("market sheet read failed", { error: describeError(error) });
    }).finally(() => {
      if (this.#flight === flight) this.#flight = undefined;
    });
    this.#flight = flight;
    return flight;
  }

  async #publish(
    read: readonly { readonly records: readonly Price[] }[],
    takenAt: number,
  ): Promise<{ sheet: MarketSheet; previous: MarketSheet | undefined }> {
    const sheet = buildSheet(read.flatMap((page) => page.records), takenAt);
    const previous = this.#sheet;
    try {
      await this.#store.publish(sheet);
    } catch (error) {
      // Still usable here; other instances take their own.
      this.#log.warn("market sheet not stored", { error: describeError(error) });
    }
    this.#sheet = sheet;
    this.#checkedAt = this.#clock.now();
    this.#log.info("market sheet taken", {
      ids: sheetSize(sheet),
      pages: read.length,
      ms: Math.round(this.#clock.now() - takenAt),
    });
    return { sheet, previous };
  }

  async #runHooks(sheet: MarketSheet, previous: MarketSheet | undefined): Promise<void> {
    for (const hook of this.#hooks) {
      try {
        await hook(sheet, previous);
      } catch (error) {
        this.#log.warn("market sheet hook failed", { error: describeError(error) });
      }
    }
  }

  async #sync(): Promise<void> {
    try {
      const head = await this.#store.head();
      this.#checkedAt = this.#clock.now();
      if (
        head === undefined || (this.#sheet !== undefined && head.takenAt <= this.#sheet.takenAt)
      ) {
        return;
      }
      const sheet = await this.#store.load(head);
      if (sheet === undefined) {
        this.#log.warn("market sheet incomplete in KV", { generation: head.generation });
        return;
      }
      this.#sheet = sheet;
    } catch (error) {
      this.#checkedAt = this.#clock.now();
      this.#log.warn("market sheet read from KV failed", { error: describeError(error) });
    }
  }

  /** Whether `sheet` still answers price reads: fresh, or no older than the slack past it. */
  #servesPrices(sheet: MarketSheet): boolean {
    return this.#age(sheet) < this.#freshMs + SHEET_SERVE_SLACK_MS;
  }

  #age(sheet: MarketSheet): number {
    return sheetAge(sheet, this.#clock.now());
  }
}
