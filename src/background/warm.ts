/**
 * The warm-up: what agents ask about most - the legendaries and everything their trees are made
 * of - is read into KV before anyone asks, so those items, their names (through the client's
 * write-through to the name index), their recipe lookups and their prices are answered without
 * an upstream request.
 *
 * **Items first, then their names in every language.** The warm set's own items - every
 * legendary of the list (`src/data/legendaries.ts`) and every item the curated Mystic Forge and
 * vendor recipes name - are known without asking anyone (the curated data), so a fresh server
 * reads them before anything else, in one batched read (one request per 200 ids), then their
 * names in German, French, Spanish and Chinese, one language after the other (as many requests
 * each, in flight together): their names are searchable in every language within seconds of
 * boot.
 *
 * **Then recipes, from the catalogue.** The rest of the warm set - every item the official
 * recipes under the curated ones reach - is found by walking the trees the way
 * `priory_recipe_tree` does, with the official recipes from the recipe catalogue (filled from
 * `/v2/recipes` pages first when none is usable: ~66 requests for the real API, instead of one
 * search per tree node); then the items the walk found beyond the static set are read, batched.
 * Without the catalogue (`PRIORY_CATALOGUE=off`) the walk searches, node by node, as before.
 *
 * Two jobs, each run under a short KV lease so instances starting or ticking together do not all
 * do the work:
 * - {@linkcode warmLegendaries} (hourly, and once at startup): the warm set's items, recipes and
 *   recipe lookups, then the set itself in KV for the price job;
 * - {@linkcode warmPrices} (every minute): the warm set's prices.
 *
 * Both run on the background client, which keeps a reserve of the shared budget for interactive
 * calls, yields to interactive reads waiting for it, and re-reads entries that would expire
 * before the next run (see `docs/background.md`). Each run's reads are bounded by its lease
 * ({@linkcode jobDeadline}): a run whose upstream hangs ends by the time another instance may
 * take over, and at once on shutdown.
 *
 * @module
 */

import { curatedTreeItemIds } from "../data/curated_recipes.ts";
import { withinDeadline } from "../async/deadline.ts";
import { LEGENDARIES, TREE_ITEM_IDS } from "../data/legendaries.ts";
import { type Gw2Client, LANGUAGES } from "../gw2/types.ts";
import { treeItemIds } from "../tree/resolve.ts";
import { type BackgroundContext, backgroundKey, jobDeadline } from "./context.ts";
import { acquireLease } from "./lease.ts";

/**
 * Where the warm set starts, known from the curated data alone - every legendary of the list,
 * every item the curated recipes name, and every item their trees reached when the data was
 * curated (official-recipe parts included) - and read first, before any recipe walk.
 */
export const WARM_ROOTS: readonly number[] = [
  ...new Set([...LEGENDARIES.map(({ id }) => id), ...curatedTreeItemIds(), ...TREE_ITEM_IDS]),
];
/**
 * How long a warm-up keeps others from warming: instances starting within it skip theirs. Long
 * enough for a cold warm-up's first burst, short enough that a crashed warmer is replaced soon.
 * Also the bound of its reads: past it the run fails (what it read stays cached) and the cron's
 * backoff retries.
 */
export const WARM_LEASE_MS = 2 * 60_000;
/** The price job's lease and read bound: under its one-minute period, so the next tick can run. */
export const PRICE_LEASE_MS = 45_000;

/** What the warm jobs need: the shared context and the background client. */
export interface WarmDeps extends BackgroundContext {
  /** The background client, with recipe lookups from the catalogue (see `main.ts`). */
  readonly gw2: Gw2Client;
  /**
   * Whether the market sheet is fresh (`src/market/sheets.ts`): every price read is then answered
   * from it, so the price job has nothing to read.
   */
  readonly sheetFresh?: () => boolean;
}

/** A job skipped because another instance holds its lease, or had nothing to do. */
export interface Skipped {
  readonly ran: false;
  readonly reason: "leased" | "no_warm_set" | "sheet_fresh";
}

/** What {@linkcode warmLegendaries} did. */
export interface WarmReport {
  readonly ran: true;
  /** Ids in the warm set. */
  readonly ids: number;
  /** Of those, ids upstream does not know. */
  readonly missing: number;
  readonly ms: number;
}

/** The languages besides English whose names the warm-up reads. */
const OTHER_LANGUAGES = LANGUAGES.filter((lang) => lang !== "en");

/**
 * Names of `ids` in every language but English, one language after the other: the four at once
 * would hold four times the pages (whole item records, as upstream sends them) in memory together
 * for a round trip each saved, and V8 grows its young generation to what survives a scavenge.
 */
async function readNames(reads: Gw2Client, ids: readonly number[]): Promise<void> {
  for (const lang of OTHER_LANGUAGES) await reads.itemNames(ids, lang);
}

/** What {@linkcode warmPrices} did. */
export interface PriceWarmReport {
  readonly ran: true;
  readonly ids: number;
  /** Ids with a Trading Post price (the others are untradeable). */
  readonly priced: number;
}

/**
 * The warm set through `gw2`: every id the trees of {@linkcode WARM_ROOTS} reach (the roots
 * included), walking recipes only - from the recipe catalogue when `gw2` is a view over it.
 *
 * @throws {Gw2Failure} when an upstream read fails
 */
export function warmSetIds(gw2: Gw2Client): Promise<number[]> {
  return treeItemIds(gw2, WARM_ROOTS);
}

/**
 * Warms the warm set: its static items first (one batched read), then the recipe walk (the
 * catalogue's, filled if needed), then the items the walk found beyond them; then stores the set
 * for {@linkcode warmPrices}. Skipped while another instance holds the lease. On a warm KV it
 * asks upstream nothing.
 *
 * @throws {Gw2Failure} when an upstream read fails (the cron's backoff retries; what was read
 * stays cached)
 */
export async function warmLegendaries(deps: WarmDeps): Promise<WarmReport | Skipped> {
  const { clock, gw2, kv, log, owner } = deps;
  const lease = await acquireLease(
    kv,
    backgroundKey(deps, "warm-lease"),
    owner,
    WARM_LEASE_MS,
    clock,
  );
  if (lease === undefined) return { ran: false, reason: "leased" };
  const started = clock.now();
  using deadline = jobDeadline(deps, WARM_LEASE_MS);
  // Every read of the run ends by its deadline.
  return await withinDeadline(deadline, async (): Promise<WarmReport> => {
    const first = await gw2.items(WARM_ROOTS);
    // The moment names become searchable; the run's own line comes from the job runner.
    log.info("warm-up items read", {
      ids: WARM_ROOTS.length,
      missing: first.missingIds.length,
      ms: Math.round(clock.now() - started),
    });
    // Only ids upstream knows (an unknown one would be asked again in every language).
    const found = first.found.map((item) => item.id);
    await readNames(gw2, found);
    log.info("warm-up names read", {
      ids: found.length,
      languages: OTHER_LANGUAGES.length,
      ms: Math.round(clock.now() - started),
    });
    const ids = await warmSetIds(gw2);
    const known = new Set(WARM_ROOTS);
    const rest = ids.filter((id) => !known.has(id));
    const more = rest.length === 0 ? undefined : await gw2.items(rest);
    if (more !== undefined && more.found.length > 0) {
      await readNames(gw2, more.found.map((item) => item.id));
    }
    await kv.set(backgroundKey(deps, "warm-set"), { ids, at: clock.now() });
    // Logged by the job's runner (`jobs.ts`), one line per run.
    return {
      ran: true,
      ids: ids.length,
      missing: first.missingIds.length + (more?.missingIds.length ?? 0),
      ms: Math.round(clock.now() - started),
    };
  });
}

/**
 * Re-reads the prices of the warm set (the background client always refetches them: they are
 * fresh for a minute), so trees and rankings price from warm data. Skipped while the market sheet
 * is fresh (prices are answered from it), while another instance holds the lease, and until a
 * warm-up has stored the set.
 *
 * @throws {Gw2Failure} when the read fails
 */
export async function warmPrices(deps: WarmDeps): Promise<PriceWarmReport | Skipped> {
  const { clock, gw2, kv, owner } = deps;
  if (deps.sheetFresh?.() === true) return { ran: false, reason: "sheet_fresh" };
  const stored = await kv.get(backgroundKey(deps, "warm-set"));
  const ids = parseIds(stored.value);
  if (ids === undefined) return { ran: false, reason: "no_warm_set" };
  const lease = await acquireLease(
    kv,
    backgroundKey(deps, "price-lease"),
    owner,
    PRICE_LEASE_MS,
    clock,
  );
  if (lease === undefined) return { ran: false, reason: "leased" };
  using deadline = jobDeadline(deps, PRICE_LEASE_MS);
  const read = await withinDeadline(deadline, () => gw2.prices(ids));
  return { ran: true, ids: ids.length, priced: read.found.length };
}

function parseIds(value: unknown): number[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const ids: unknown = Reflect.get(value, "ids");
  return Array.isArray(ids) && ids.length > 0 && ids.every((id) => Number.isSafeInteger(id))
    ? ids
    : undefined;
}
