/**
 * The background jobs of one process, as `main.ts` registers them with `Deno.cron`: their
 * names, schedules and retry policies ({@linkcode CRON_JOBS}), handlers that log instead of
 * leaking a failure into the cron runtime, the warm-up at startup, and a stop that aborts them
 * on shutdown and waits (briefly) for a running one. Also the options of the background client
 * ({@linkcode backgroundClientOptions}): its reserve and refresh-ahead.
 *
 * @module
 */

import type { AchievementCatalogue } from "../achievements/catalogue.ts";
import type { AchievementStore } from "../achievements/store.ts";
import type { RecipeCatalogue } from "../catalogue/recipe_catalogue.ts";
import { settlesWithin } from "../async/clock.ts";
import type { RecipeStore } from "../catalogue/recipe_store.ts";
import type { Gw2Client, Gw2PagedReads } from "../gw2/types.ts";
import { describeError } from "../log.ts";
import type { MarketSheet } from "../market/sheet.ts";
import type { MarketSheets } from "../market/sheets.ts";
import type { NameIndex } from "../search/name_index.ts";
import type { HistoryStore } from "../history/store.ts";
import type { BackgroundContext } from "./context.ts";
import { crawlCatalogue } from "./crawl.ts";
import { historyUpkeep, recordSnapshot } from "./history.ts";
import { refreshMarketSheet } from "./sheet.ts";
import { warmLegendaries, warmPrices } from "./warm.ts";

/** A cron registration: name (<= 64 characters, `[A-Za-z0-9 _-]`), schedule, retry delays. */
export interface CronSpec {
  readonly name: string;
  readonly schedule: string;
  /** Always explicit: Deno Deploy retries nothing by default, a local runtime does. */
  readonly backoffSchedule: number[];
}

/** The crons, by handler. */
export const CRON_JOBS: Readonly<
  Record<"warm" | "prices" | "catalogue" | "sheet" | "history", CronSpec>
> = {
  /** Hourly: the warm set's items, recipes and recipe lookups; retried after 30 s, 2 and 10 min. */
  warm: {
    name: "priory-warm-legendaries",
    schedule: "17 * * * *",
    backoffSchedule: [30_000, 120_000, 600_000],
  },
  /** Every minute: the warm set's prices (fresh for a minute); the next tick is the retry. */
  prices: { name: "priory-warm-prices", schedule: "* * * * *", backoffSchedule: [] },
  /** Every minute: one slice of the catalogue crawl; the next tick is the retry. */
  catalogue: { name: "priory-catalogue-crawl", schedule: "* * * * *", backoffSchedule: [] },
  /**
   * Every minute: the market sheet (the whole Trading Post) when the published one is older
   * than its period; the next tick is the retry.
   */
  sheet: { name: "priory-market-sheet", schedule: "* * * * *", backoffSchedule: [] },
  /** Every minute: the price history's roll-ups and retention when due; the next tick is the retry. */
  history: { name: "priory-history-upkeep", schedule: "* * * * *", backoffSchedule: [] },
};

/**
 * Background reads re-read what would expire within this: the hourly warm-up's period plus
 * room for its retries, so warmed records and searches never lapse between two runs (and
 * prices, fresh for a minute, are always re-read).
 */
export const REFRESH_AHEAD_MS = 90 * 60_000;

/**
 * The background client's options: it never takes the shared bucket below half its burst (the
 * reserve interactive calls always find), makes one attempt per request (the crawl's pace counts
 * requests; a failed job is retried by its cron), waits up to a minute for its share, re-reads
 * ahead ({@linkcode REFRESH_AHEAD_MS}), starts each request (but a collection's pages) once
 * `giveWay` resolves (no interactive call in flight, or a bound: `Foreground.idle`), and keeps
 * no records in process memory: its jobs run a few times an hour, where a KV read costs nothing
 * that matters, while a memory of their own, beside the interactive client's, held the warm set:
 * ~1 MB of live heap, which V8's heap sizing turns into several times that of resident memory
 * (docs/performance.md, "Memory").
 */
export function backgroundClientOptions(
  rateBurst: number,
  giveWay?: () => Promise<void>,
): {
  readonly maxRetries: number;
  readonly maxRateWaitMs: number;
  readonly memoryRecords: number;
  readonly background: {
    readonly reserveTokens: number;
    readonly refreshAheadMs: number;
    readonly giveWay?: () => Promise<void>;
  };
} {
  return {
    maxRetries: 0,
    maxRateWaitMs: 60_000,
    memoryRecords: 0,
    background: {
      reserveTokens: Math.floor(rateBurst / 2),
      refreshAheadMs: REFRESH_AHEAD_MS,
      ...(giveWay === undefined ? {} : { giveWay }),
    },
  };
}

/** What {@linkcode createBackgroundJobs} wires together (its `signal` is its own). */
export interface BackgroundJobsDeps extends Omit<BackgroundContext, "signal"> {
  /** The background client with recipe lookups from the catalogue: what the warm jobs read. */
  readonly gw2: Gw2Client;
  /** The background client's paged reads: what the crawl reads. */
  readonly pages: Gw2PagedReads;
  readonly names: NameIndex;
  readonly recipes: RecipeStore;
  /** This process's recipe lookup, reloaded when the crawl here publishes. */
  readonly catalogue?: Pick<RecipeCatalogue, "refresh">;
  /**
   * The achievement catalogue: its store, which the crawl fills after the items, and this
   * process's copy, reloaded when the crawl here publishes.
   */
  readonly achievements?: {
    readonly store: AchievementStore;
    readonly catalogue?: Pick<AchievementCatalogue, "refresh">;
  };
  /**
   * This process's market sheet, refreshed by the sheet job (read with `pages`); while it is
   * fresh the price job reads nothing. Absent: the sheet job does nothing.
   */
  readonly sheets?: MarketSheets;
  /** `PRIORY_CATALOGUE`. */
  readonly catalogueEnabled: boolean;
  readonly ratePerSec: number;
  /** The price history's store. */
  readonly history: HistoryStore;
  /** `PRIORY_SNAPSHOT_MINUTES`. */
  readonly snapshotMinutes: number;
  /**
   * A full garbage collection (`runtimeCollect()`, where the runtime offers one): run when the
   * hourly warm-up or a crawl slice that did work ends with no other job running (not after the
   * startup's warm-up), so the garbage such a burst left is not kept resident while the process
   * idles (docs/performance.md, "Memory").
   * Not after the minutely prices job: small, and a collection pauses requests for ~20 ms.
   */
  readonly collect?: (() => void) | undefined;
}

/** What every job run reports: whether it ran, and its own figures. */
interface JobReport {
  readonly ran: boolean;
}

/** The handlers `main.ts` registers, and their lifecycle. */
export interface BackgroundJobs {
  /** Aborted by {@linkcode BackgroundJobs.stop}: pass it to `Deno.cron` to unregister. */
  readonly signal: AbortSignal;
  /** Handler of {@linkcode CRON_JOBS}.warm; rejects on failure so the backoff retries it. */
  warm(): Promise<void>;
  /** Handler of {@linkcode CRON_JOBS}.prices. */
  prices(): Promise<void>;
  /** Handler of {@linkcode CRON_JOBS}.catalogue. */
  catalogue(): Promise<void>;
  /** Handler of {@linkcode CRON_JOBS}.sheet. */
  sheet(): Promise<void>;
  /** Handler of {@linkcode CRON_JOBS}.history: roll-ups, volumes and retention when due. */
  history(): Promise<void>;
  /**
   * Records a market sheet as a snapshot of the price history (the sheet job's hook, after each
   * publish, with the sheet before it); never rejects (a failure is logged; the next sheet is the
   * retry).
   */
  snapshot(sheet: MarketSheet, previous?: MarketSheet): Promise<void>;
  /**
   * The warm-up and the market sheet at startup, to start without awaiting (no request waits for
   * them); never rejects (a failure is logged, and the crons try again). No full collection
   * follows it (the restart's event loop is busy enough).
   */
  startup(): Promise<void>;
  /**
   * Stops the crons and new slices, ends running jobs' reads (their deadlines pass at once), then
   * waits up to `graceMs` for the jobs to settle.
   */
  stop(graceMs?: number): Promise<void>;
}

/** Builds the background jobs of one process. */
export function createBackgroundJobs(deps: BackgroundJobsDeps): BackgroundJobs {
  const controller = new AbortController();
  // Every job sees the stop signal: its reads end at once on shutdown (`jobDeadline`).
  const context = { ...deps, signal: controller.signal };
  const running = new Set<Promise<unknown>>();
  const { log } = deps;
  const track = <T>(run: Promise<T>): Promise<T> => {
    running.add(run);
    const forget = () => running.delete(run);
    run.then(forget, forget);
    return run;
  };
  // One line per run: `background job` with the job's report (info when it ran, debug when it
  // skipped: another instance's lease, nothing to do), or `background job failed` (warn).
  // `collect`: a burst of work (the warm-up, a crawl slice) is followed by a full collection.
  const logged = async <R extends JobReport>(
    job: string,
    run: () => Promise<R>,
    collect = false,
  ) => {
    const started = deps.clock.now();
    try {
      const { ran, ...report } = await track(run());
      log[ran ? "info" : "debug"]("background job", {
        job,
        outcome: ran ? "ran" : "skipped",
        ...report,
        ms: Math.round(deps.clock.now() - started),
      });
      if (ran && collect && running.size === 0) deps.collect?.();
    } catch (error) {
      log.warn("background job failed", {
        job,
        error: describeError(error),
        ms: Math.round(deps.clock.now() - started),
      });
      if (job === "warm" && !controller.signal.aborted) throw error;
    }
  };
  const sheetJob = async () => {
    const sheets = deps.sheets;
    if (sheets === undefined) return { ran: false, reason: "off" };
    return await refreshMarketSheet({ ...context, sheets, pages: deps.pages });
  };
  return {
    signal: controller.signal,
    warm: () => logged("warm", () => warmLegendaries(context), true),
    prices: () =>
      logged("prices", () =>
        warmPrices({
          ...context,
          ...(deps.sheets === undefined
            ? {}
            : { sheetFresh: () => deps.sheets?.isFresh() ?? false }),
        })),
    catalogue: () =>
      logged("catalogue", () =>
        crawlCatalogue({
          ...context,
          enabled: deps.catalogueEnabled,
          ...(deps.catalogue === undefined
            ? {}
            : { onRecipesPublished: () => deps.catalogue?.refresh() }),
          ...(deps.achievements === undefined ? {} : {
            achievements: {
              store: deps.achievements.store,
              onPublished: () => deps.achievements?.catalogue?.refresh(),
            },
          }),
        }), true),
    history: () => logged("history", () => historyUpkeep(context)),
    snapshot: (sheet, previous) =>
      logged("snapshot", () => recordSnapshot(context, sheet, previous)),
    sheet: () => logged("sheet", () => sheetJob()),
    startup: async () => {
      await Promise.all([
        // No full collection after this one: a restart's event loop is at its busiest (the name
        // index loading, the sheet, the first calls), and the collection stops it for tens of
        // milliseconds, more under load; the next burst (a crawl slice) collects what is left.
        logged("warm", () => warmLegendaries(context)).catch(() => undefined),
        logged("sheet", () => sheetJob()),
      ]);
    },
    stop: async (graceMs = 2_000) => {
      controller.abort();
      if (running.size === 0 || graceMs <= 0) return;
      await settlesWithin(Promise.allSettled([...running]), graceMs, deps.clock);
    },
  };
}
