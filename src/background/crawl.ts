/**
 * The catalogue crawl: every recipe, then every item in each of the five languages, read page by
 * page (`page_size=200`) in the background, so recipe lookups are answered from KV
 * (`src/catalogue/`) and name search covers every item in every language (`src/search/`), on
 * every instance.
 *
 * - **A tenth of the budget.** Requests start at least {@linkcode crawlIntervalMs} apart (2 s at
 *   upstream's 5/s), the background client makes one attempt per request, and it never takes the
 *   shared bucket below the interactive reserve. The real catalogue (~13,200 recipes and ~74,300
 *   items: 66 + 372 pages a language) takes 66 + 5 × 372 = 1,926 requests: the recipes about
 *   2 minutes, each language about 12.5 minutes, in 50-second slices.
 * - **In slices, resumable.** A cron tick runs one slice of at most `sliceMs` under a KV lease;
 *   after every page the progress (phase, next page, page count, when the last request started)
 *   is committed with a check on that lease - for recipes in the same atomic commit as the page's
 *   data - so a restart, a crash or another instance continues exactly where it stopped.
 * - **Kept small.** Items go to the name index (`putMany`: id, name, rarity, type; unchanged
 *   names cost no write); recipes to the catalogue's packed pages (id, output, ingredients).
 * - **Published whole.** Recipes are written into a new generation and published when the last
 *   page is in; the name index is marked complete when the last item page of the last language
 *   is in. English goes first (what most searches and every tool read), then German, French,
 *   Spanish and Chinese.
 * - **Refreshed daily.** A pass that completed more than `refreshMs` ago starts a new one.
 * - **Achievements last** (when wired, issue 30): every `/v2/achievements` page in each of the
 *   five languages (~28 pages a language for the real API: 140 requests, ~5 minutes at this
 *   pace) into the achievement catalogue (`src/achievements/store.ts`), its generation published
 *   once the last language is in; English is there before that when a call filled it on demand.
 *
 * @module
 */

import { z } from "zod";
import { englishEntries } from "../achievements/catalogue.ts";
import type { AchievementStore } from "../achievements/store.ts";
import type { RecipeStore } from "../catalogue/recipe_store.ts";
import { isGw2Failure } from "../gw2/errors.ts";
import { readPageOrEnd } from "../gw2/paging.ts";
import type { Deadline } from "../async/deadline.ts";
import { type Lang, LANGUAGES } from "../gw2/types.ts";
import type { Gw2PagedReads, Page } from "../gw2/types.ts";
import { describeError } from "../log.ts";
import { type NameIndex, NameStoreWriteError } from "../search/name_index.ts";
import { type BackgroundContext, backgroundKey, jobDeadline } from "./context.ts";
import { acquireLease, type Lease, releaseLease } from "./lease.ts";

/** The share of the upstream budget the crawl may spend. */
export const CRAWL_SHARE = 0.1;
/** Records per page: GW2's maximum. */
export const CRAWL_PAGE_SIZE = 200;
/** One slice per cron tick (every minute): a little under the period. */
export const CRAWL_SLICE_MS = 50_000;
/**
 * The crawl's lease outlasts its slice by this much (a page begun near the slice's end), and so
 * does the slice's read deadline: no read outlives the lease.
 */
export const CRAWL_LEASE_SLACK_MS = 30_000;
/** A completed pass is repeated after a day. */
export const CRAWL_REFRESH_MS = 24 * 60 * 60_000;

/** Milliseconds between two crawl requests so that it spends at most {@linkcode CRAWL_SHARE}. */
export function crawlIntervalMs(ratePerSec: number): number {
  return Math.ceil(1000 / (ratePerSec * CRAWL_SHARE));
}

/** What the crawl needs. */
export interface CrawlDeps extends BackgroundContext {
  /** `PRIORY_CATALOGUE`: when false the crawl does nothing. */
  readonly enabled: boolean;
  /** The background client's paged reads (items and recipes; achievements when wired). */
  readonly pages:
    & Pick<Gw2PagedReads, "itemsPage" | "recipesPage">
    & Partial<Pick<Gw2PagedReads, "achievementsPage">>;
  readonly names: Pick<NameIndex, "putMany" | "settle" | "markCatalogueComplete">;
  readonly recipes: RecipeStore;
  /** Upstream's refill rate (`GW2_RATE_PER_SEC`), of which the crawl takes a tenth. */
  readonly ratePerSec: number;
  /** Called once a new recipe catalogue is published (to reload this instance's copy). */
  readonly onRecipesPublished?: () => void;
  /**
   * The achievement catalogue's store, crawled after the items (with `pages.achievementsPage`),
   * and what to call once a generation is published (to reload this instance's copy).
   */
  readonly achievements?: {
    readonly store: AchievementStore;
    readonly onPublished?: () => void;
  };
}

/** Tunables, for tests. */
export interface CrawlOptions {
  /** @default CRAWL_SLICE_MS */
  readonly sliceMs?: number;
  /** @default CRAWL_REFRESH_MS */
  readonly refreshMs?: number;
  /** @default CRAWL_PAGE_SIZE */
  readonly pageSize?: number;
}

/** What one slice did. */
export interface CrawlReport {
  /** False when it did nothing: `off`, another instance's lease, or the catalogue is fresh. */
  readonly ran: boolean;
  readonly reason?: "off" | "leased" | "fresh";
  /** The phase the crawl is in after the slice. */
  readonly phase: Phase;
  /** In the items phase: the language being read. */
  readonly lang?: Lang;
  /** Pages read in this slice. */
  readonly pages: number;
  /** After a slice that ran: the next page of the phase, and the phase's page count if known. */
  readonly page?: number;
  readonly pageTotal?: number;
  /** After a slice that ran: requests of the pass so far. */
  readonly requests?: number;
  /** Why the slice stopped early, when a page failed. */
  readonly error?: string;
}

type Phase = "recipes" | "items" | "achievements" | "done";

const ProgressSchema = z.object({
  phase: z.enum(["recipes", "items", "achievements", "done"]),
  /** In the items and achievements phases: the language being read (absent: English). */
  lang: z.enum(LANGUAGES).optional(),
  /** The next page to read. */
  page: z.number().int().nonnegative(),
  /** The collection's page count, as of the last page read. */
  pageTotal: z.number().int().nonnegative().optional(),
  /** The recipe generation this pass writes. */
  generation: z.number(),
  startedAt: z.number(),
  /** When the last pass completed. */
  completedAt: z.number().optional(),
  /** When the last request started: the pace holds across slices and instances. */
  lastRequestAt: z.number().optional(),
  recipes: z.number().int().nonnegative(),
  items: z.number().int().nonnegative(),
  /** Achievements of this pass, in English. */
  achievements: z.number().int().nonnegative().optional(),
  /** Requests of this pass. */
  requests: z.number().int().nonnegative(),
});

/** The crawl's progress, as kept in KV. */
export type CrawlProgress = z.infer<typeof ProgressSchema>;

/** The lease was lost mid-slice (it expired and another instance took over). */
class LeaseLostError extends Error {
  constructor() {
    super("The catalogue crawl lost its lease");
    this.name = "LeaseLostError";
  }
}

/**
 * Runs one slice of the catalogue crawl: the cron handler (every minute). Never throws for an
 * upstream failure: the page is retried by the next slice.
 *
 * @throws only when KV itself fails
 */
export async function crawlCatalogue(
  deps: CrawlDeps,
  options: CrawlOptions = {},
): Promise<CrawlReport> {
  const { clock, kv } = deps;
  if (!deps.enabled) return { ran: false, reason: "off", phase: "done", pages: 0 };
  const sliceMs = options.sliceMs ?? CRAWL_SLICE_MS;
  const leaseMs = sliceMs + CRAWL_LEASE_SLACK_MS;
  const leaseKey = backgroundKey(deps, "crawl-lease");
  const lease = await acquireLease(kv, leaseKey, deps.owner, leaseMs, clock);
  if (lease === undefined) return { ran: false, reason: "leased", phase: "done", pages: 0 };
  try {
    // No page read outlives the lease (another instance may then take over), nor shutdown.
    using deadline = jobDeadline(deps, leaseMs);
    return await slice(deps, lease, deadline, clock.now() + sliceMs, options);
  } finally {
    // A no-op when the lease was lost: it is released only if still the one taken.
    await releaseLease(kv, lease).catch(() => undefined);
  }
}

/** Reads pages, at the crawl's pace, until the slice ends, the crawl is done, or a page fails. */
async function slice(
  deps: CrawlDeps,
  lease: Lease,
  deadline: Deadline,
  sliceEnd: number,
  options: CrawlOptions,
): Promise<CrawlReport> {
  const { clock, kv, log } = deps;
  const interval = crawlIntervalMs(deps.ratePerSec);
  const stopping = () => deps.signal?.aborted === true;
  let progress = parseProgress((await kv.get(backgroundKey(deps, "crawl"))).value) ??
    newPass(clock.now());
  if (progress.phase === "done") {
    const due = (progress.completedAt ?? 0) + (options.refreshMs ?? CRAWL_REFRESH_MS);
    if (clock.now() < due) return { ran: false, reason: "fresh", phase: "done", pages: 0 };
    progress = newPass(clock.now(), progress);
  }
  let pages = 0;
  let error: string | undefined;
  try {
    progress = await skipFilledRecipes(deps, lease, progress, options);
    while (progress.phase !== "done" && !stopping()) {
      const at = Math.max(clock.now(), (progress.lastRequestAt ?? -Infinity) + interval);
      if (at > sliceEnd) break;
      if (at > clock.now()) await clock.sleep(at - clock.now(), deps.signal).catch(() => {});
      if (stopping()) break;
      try {
        const pageSize = options.pageSize ?? CRAWL_PAGE_SIZE;
        progress = await step(deps, lease, deadline, progress, pageSize);
        pages++;
      } catch (failure) {
        if (!isGw2Failure(failure) && !(failure instanceof NameStoreWriteError)) throw failure;
        error = describeError(failure);
        log.warn("catalogue crawl page failed", {
          phase: progress.phase,
          page: progress.page,
          error,
        });
        // The failed attempt was a request too: keep the pace.
        progress = { ...progress, lastRequestAt: at, requests: progress.requests + 1 };
        await commit(deps, lease, progress, kv.atomic());
        break;
      }
    }
  } catch (failure) {
    if (!(failure instanceof LeaseLostError)) throw failure;
    log.warn("catalogue crawl lost its lease", { phase: progress.phase, page: progress.page });
    return { ran: true, phase: progress.phase, pages, error: failure.message };
  }
  // The slice's line is the job's (`jobs.ts` logs every run with this report).
  return {
    ran: true,
    phase: progress.phase,
    ...(progress.phase === "items" || progress.phase === "achievements"
      ? { lang: progress.lang ?? "en" }
      : {}),
    pages,
    page: progress.page,
    ...(progress.pageTotal === undefined ? {} : { pageTotal: progress.pageTotal }),
    requests: progress.requests,
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * A pass still on its recipes when a recipe catalogue younger than the refresh period is
 * published by someone else (filled on demand, `src/catalogue/recipe_catalogue.ts`): its pages
 * would be read again for nothing, so the pass goes on with the items, and what it wrote of its
 * own generation is deleted.
 */
async function skipFilledRecipes(
  deps: CrawlDeps,
  lease: Lease,
  progress: CrawlProgress,
  options: CrawlOptions,
): Promise<CrawlProgress> {
  if (progress.phase !== "recipes") return progress;
  const head = await deps.recipes.head();
  // (This pass's own generation is published only as it leaves the recipes, never seen here.)
  const fresh = head !== undefined &&
    deps.clock.now() - head.completedAt < (options.refreshMs ?? CRAWL_REFRESH_MS);
  if (!fresh) return progress;
  const next: CrawlProgress = { ...progress, phase: "items", page: 0 };
  await commit(deps, lease, next, deps.kv.atomic());
  deps.log.info("recipe catalogue already filled; the crawl reads items", {
    generation: head.generation,
  });
  // Only this pass's own pages: another generation may be a fill still being written elsewhere.
  await deps.recipes.deleteGeneration(progress.generation);
  return next;
}

/** Reads the next page of the current phase and commits what it holds with the progress. */
async function step(
  deps: CrawlDeps,
  lease: Lease,
  deadline: Deadline,
  progress: CrawlProgress,
  pageSize: number,
): Promise<CrawlProgress> {
  const { clock, kv, log, names, pages, recipes } = deps;
  const requestedAt = clock.now();
  const after = (page: Page<unknown>): CrawlProgress => ({
    ...progress,
    page: progress.page + 1,
    pageTotal: page.pageTotal,
    lastRequestAt: requestedAt,
    requests: progress.requests + 1,
  });
  const op = kv.atomic();
  if (progress.phase === "recipes") {
    const page = await readPageOrEnd(
      () => pages.recipesPage(progress.page, pageSize, deadline),
      progress.page,
    );
    let next: CrawlProgress = { ...after(page), recipes: progress.recipes + page.records.length };
    recipes.addPage(op, progress.generation, progress.page, page.records);
    const head = next.page >= page.pageTotal ? await recipes.head() : undefined;
    if (next.page >= page.pageTotal) {
      recipes.publish(op, {
        generation: progress.generation,
        completedAt: clock.now(),
        count: next.recipes,
        ...(head === undefined ? {} : { previous: head.generation }),
      });
      next = { ...next, phase: "items", page: 0 };
    }
    await commit(deps, lease, next, op);
    if (next.phase === "items") {
      log.info("recipe catalogue complete", { recipes: next.recipes, requests: next.requests });
      deps.onRecipesPublished?.();
      // Keep the new generation and the one it replaced (an instance may still be loading it).
      await recipes.prune([progress.generation, ...(head === undefined ? [] : [head.generation])]);
    }
    return next;
  }
  if (progress.phase === "achievements") {
    return await achievementsStep(deps, lease, deadline, progress, pageSize, op, after);
  }
  const lang = progress.lang ?? "en";
  const page = await readPageOrEnd(
    () => pages.itemsPage(progress.page, pageSize, deadline, lang),
    progress.page,
  );
  await names.putMany(page.records, lang);
  let next: CrawlProgress = { ...after(page), items: progress.items + page.records.length };
  if (next.page >= page.pageTotal) {
    const following = LANGUAGES[LANGUAGES.indexOf(lang) + 1];
    log.info("item names complete", { lang, requests: next.requests });
    await names.settle(lang);
    if (following !== undefined) {
      next = { ...next, page: 0, lang: following };
    } else {
      const completedAt = clock.now();
      await names.markCatalogueComplete(completedAt);
      const { lang: _done, ...rest } = next;
      next = achievementsWired(deps)
        ? { ...rest, phase: "achievements", page: 0, lang: "en", achievements: 0 }
        : { ...rest, phase: "done", page: 0, completedAt };
      log.info("item catalogue complete", { items: next.items, requests: next.requests });
    }
  }
  await commit(deps, lease, next, op);
  return next;
}

function achievementsWired(deps: CrawlDeps): boolean {
  return deps.achievements !== undefined && deps.pages.achievementsPage !== undefined;
}

/**
 * One page of achievements in the current language into the pass's generation; after the last
 * page of the last language, the generation is published (with the page, in one commit) and
 * the older ones pruned.
 */
async function achievementsStep(
  deps: CrawlDeps,
  lease: Lease,
  deadline: Deadline,
  progress: CrawlProgress,
  pageSize: number,
  op: Deno.AtomicOperation,
  after: (page: Page<unknown>) => CrawlProgress,
): Promise<CrawlProgress> {
  const { clock, log } = deps;
  const { store, onPublished } = deps.achievements ?? {};
  const read = deps.pages.achievementsPage?.bind(deps.pages);
  const lang = progress.lang ?? "en";
  if (store === undefined || read === undefined) {
    // No longer wired (a redeploy mid-pass): the pass ends here.
    const { lang: _none, ...rest } = progress;
    const done: CrawlProgress = { ...rest, phase: "done", page: 0, completedAt: clock.now() };
    await commit(deps, lease, done, op);
    return done;
  }
  const page = await readPageOrEnd(
    () => read(progress.page, pageSize, deadline, lang),
    progress.page,
  );
  store.addPage(
    op,
    progress.generation,
    lang,
    progress.page,
    lang === "en"
      ? englishEntries(page.records)
      : page.records.map(({ id, name }) => ({ id, name })),
  );
  const count = (progress.achievements ?? 0) + (lang === "en" ? page.records.length : 0);
  let next: CrawlProgress = { ...after(page), achievements: count };
  const published = next.page >= page.pageTotal && lang === LANGUAGES.at(-1);
  const head = published ? await store.head() : undefined;
  if (next.page >= page.pageTotal) {
    const following = LANGUAGES[LANGUAGES.indexOf(lang) + 1];
    if (following !== undefined) {
      next = { ...next, page: 0, lang: following };
    } else {
      const completedAt = clock.now();
      store.publish(op, {
        generation: progress.generation,
        completedAt,
        count,
        langs: [...LANGUAGES],
        ...(head === undefined ? {} : { previous: head.generation }),
      });
      const { lang: _done, ...rest } = next;
      next = { ...rest, phase: "done", page: 0, completedAt };
    }
  }
  await commit(deps, lease, next, op);
  if (published) {
    log.info("achievement catalogue complete", { achievements: count, requests: next.requests });
    onPublished?.();
    await store.prune([progress.generation, ...(head === undefined ? [] : [head.generation])]);
  }
  return next;
}

async function commit(
  deps: CrawlDeps,
  lease: Lease,
  progress: CrawlProgress,
  op: Deno.AtomicOperation,
): Promise<void> {
  const result = await op.check({ key: lease.key, versionstamp: lease.versionstamp })
    .set(backgroundKey(deps, "crawl"), progress).commit();
  if (!result.ok) throw new LeaseLostError();
}

function newPass(now: number, previous?: CrawlProgress): CrawlProgress {
  return {
    phase: "recipes",
    page: 0,
    generation: now,
    startedAt: now,
    ...(previous?.completedAt === undefined ? {} : { completedAt: previous.completedAt }),
    ...(previous?.lastRequestAt === undefined ? {} : { lastRequestAt: previous.lastRequestAt }),
    recipes: 0,
    items: 0,
    requests: 0,
  };
}

function parseProgress(value: unknown): CrawlProgress | undefined {
  const parsed = ProgressSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
