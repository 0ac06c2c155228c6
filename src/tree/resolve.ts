/**
 * Gathers what a recipe tree is made of, through the GW2 client: level by level from the roots,
 * the recipe of every item (the curated Mystic Forge and vendor data first, else an official
 * recipe: from the recipe catalogue when the client is a view over it, else found by
 * `/v2/recipes/search?output=` and read in one batch per level) and every item's name. Many
 * roots resolve together, sharing every item they have in common, so a ranking over all
 * legendaries reads each recipe once.
 *
 * @module
 */

import { mapWithConcurrency } from "../async/concurrency.ts";
import { CURATED_RECIPES, CURRENCY_NAMES } from "../data/curated_recipes.ts";
import type { TreeRecipe } from "./pricing.ts";
import { oldestStaleAge } from "../staleness.ts";
import type { CatalogueRecipe, Item, Recipe } from "../gw2/schemas.ts";
import type { BulkRead, Gw2Client } from "../gw2/types.ts";

/** Recipe searches of one level in flight at once (each is one upstream request when cold). */
const SEARCH_CONCURRENCY = 16;

/** Everything the trees of some roots are made of. */
export interface ResolvedRecipes {
  /** One recipe per craftable item id reached (may contain cycles; the computation cuts them). */
  readonly recipes: ReadonlyMap<number, TreeRecipe>;
  /** Every item id reached, roots first, in discovery order: the ids to price. */
  readonly itemIds: readonly number[];
  /** Item names by id (ids upstream does not know have none). */
  readonly names: ReadonlyMap<number, string>;
  /** Currency names by id, for every currency a recipe takes. */
  readonly currencyNames: ReadonlyMap<number, string>;
  /** Reached item ids upstream does not know (an unknown root among them). */
  readonly missingItemIds: readonly number[];
  /** Age of the oldest record served stale because upstream failed; absent when all fresh. */
  readonly staleAgeMs?: number;
}

/** Options of {@linkcode resolveRecipes}. */
export interface ResolveOptions {
  /**
   * Called after each level of the walk with its number (1 = the roots) and how many items
   * have been reached so far: a long, cold resolution can report progress.
   */
  readonly onLevel?: (level: number, itemsReached: number) => void;
  /**
   * Called once the walk is over with every item id reached (the ids `itemIds` will hold),
   * before the item names are awaited: a caller can start its price read beside them.
   */
  readonly onWalked?: (itemIds: readonly number[]) => void;
}

/**
 * Resolves the recipe trees of `rootIds` (duplicates ignored). An official recipe wins over the
 * curated record, as the contract orders, wherever the recipe catalogue answers (by search,
 * curated items are not looked up: the data was curated where the API has no recipe); when the
 * API lists several recipes for an item, the lowest recipe id is used. Items without a recipe
 * are leaves.
 *
 * @example
 * ```ts
 * const resolved = await resolveRecipes(gw2, [30703]);
 * resolved.recipes.get(19675)?.source; // "mystic_forge"
 * ```
 * @throws {Gw2Failure} when an upstream read fails (see `src/gw2/errors.ts`)
 */
export async function resolveRecipes(
  gw2: Gw2Client,
  rootIds: readonly number[],
  options: ResolveOptions = {},
): Promise<ResolvedRecipes> {
  const stale = new StaleAge();
  // Names are not on the critical path: each level's item read runs beside the recipe walk.
  const itemReads: Promise<PromiseSettledResult<BulkRead<Item>>>[] = [];
  const walked = await settle(walkRecipes(gw2, rootIds, stale, itemReads, options.onLevel));
  if (walked.status === "fulfilled") options.onWalked?.(walked.value.itemIds);
  const items = await Promise.all(itemReads);
  if (walked.status === "rejected") throw walked.reason;
  const names = new Map<number, string>();
  const missing: number[] = [];
  for (const read of items) {
    if (read.status === "rejected") throw read.reason;
    stale.add(read.value.staleAgeMs);
    for (const item of read.value.found) names.set(item.id, item.name);
    missing.push(...read.value.missingIds);
  }
  const { recipes, itemIds } = walked.value;
  const currencyNames = await readCurrencyNames(gw2, recipes.values(), stale);
  return { recipes, itemIds, names, currencyNames, missingItemIds: missing, ...stale.field() };
}

/**
 * Every item id the trees of `rootIds` reach (roots first, discovery order), walking recipes
 * only: the searches and recipe reads of {@linkcode resolveRecipes} without its item reads, so
 * a caller can read the items afterwards in one batch (the warm-up does: <= 3 requests).
 *
 * @throws {Gw2Failure} when an upstream read fails (see `src/gw2/errors.ts`)
 */
export async function treeItemIds(gw2: Gw2Client, rootIds: readonly number[]): Promise<number[]> {
  return (await walkRecipes(gw2, rootIds, new StaleAge())).itemIds;
}

/** The recipes and item ids a walk reached. */
interface Walked {
  readonly recipes: Map<number, TreeRecipe>;
  readonly itemIds: number[];
}

/**
 * Walks the trees level by level: per level, the searches run concurrently, then the chosen
 * official recipes are read in one batch; when `itemReads` is given, each level's item read is
 * started and pushed to it (settled, so a failure waits for the caller instead of going
 * unhandled).
 */
async function walkRecipes(
  gw2: Gw2Client,
  rootIds: readonly number[],
  stale: StaleAge,
  itemReads?: Promise<PromiseSettledResult<BulkRead<Item>>>[],
  onLevel?: ResolveOptions["onLevel"],
): Promise<Walked> {
  const recipes = new Map<number, TreeRecipe>();
  const seen = new Set<number>(rootIds);
  let level = [...seen];
  for (let depth = 1; level.length > 0; depth++) {
    itemReads?.push(settle(gw2.items(level)));
    const official = await officialRecipes(gw2, level, stale);
    const next: number[] = [];
    for (const id of level) {
      // The contract's order: an official recipe first, then the curated record.
      const recipe = official.get(id) ?? curatedRecipe(id);
      if (recipe === undefined) continue;
      recipes.set(id, recipe);
      for (const ingredient of recipe.ingredients) {
        if (ingredient.type !== "Item" || seen.has(ingredient.id)) continue;
        seen.add(ingredient.id);
        next.push(ingredient.id);
      }
    }
    level = next;
    onLevel?.(depth, seen.size);
  }
  return { recipes, itemIds: [...seen] };
}

/**
 * The official recipe of each of `itemIds` that has one (the lowest recipe id): from the recipe
 * catalogue in one lookup when the client offers it (no request once it is filled), curated
 * items included, so an official recipe upstream adds for one of them wins as the contract
 * orders; else one search per item the curated data does not make (a search per curated item
 * would cost hundreds of requests for recipes the data was checked to lack) and one batched read
 * of the chosen recipes.
 */
async function officialRecipes(
  gw2: Gw2Client,
  level: readonly number[],
  stale: StaleAge,
): Promise<Map<number, TreeRecipe>> {
  const official = new Map<number, TreeRecipe>();
  if (level.length === 0) return official;
  const catalogued = await gw2.officialRecipes?.(level);
  if (catalogued !== undefined) {
    for (const [itemId, recipes] of catalogued) {
      const lowest = recipes.reduce<CatalogueRecipe | undefined>(
        (best, recipe) => best === undefined || recipe.id < best.id ? recipe : best,
        undefined,
      );
      if (lowest !== undefined) official.set(itemId, officialRecipe(lowest));
    }
    return official;
  }
  const itemIds = level.filter((id) => !CURATED_RECIPES.has(id));
  if (itemIds.length === 0) return official;
  const searches = await mapWithConcurrency(
    itemIds,
    SEARCH_CONCURRENCY,
    (id) => gw2.searchRecipes({ output: id }),
  );
  const chosen = new Map<number, number>();
  searches.forEach((search, index) => {
    stale.add(search.staleAgeMs);
    const outputId = itemIds[index];
    if (outputId !== undefined && search.value.length > 0) {
      chosen.set(outputId, Math.min(...search.value));
    }
  });
  if (chosen.size === 0) return official;
  const read = await readRecipes(gw2, [...chosen.values()], stale);
  for (const [itemId, recipeId] of chosen) {
    const recipe = read.get(recipeId);
    if (recipe !== undefined) official.set(itemId, recipe);
  }
  return official;
}

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: "fulfilled", value }),
    (reason: unknown) => ({ status: "rejected", reason }),
  );
}

/** The oldest stale age among several reads. */
class StaleAge {
  #ms: number | undefined;

  add(ms: number | undefined): void {
    this.#ms = oldestStaleAge(this.#ms, ms);
  }

  field(): { staleAgeMs?: number } {
    return this.#ms === undefined ? {} : { staleAgeMs: this.#ms };
  }
}

function curatedRecipe(id: number): TreeRecipe | undefined {
  const curated = CURATED_RECIPES.get(id);
  if (curated === undefined) return undefined;
  return {
    outputId: curated.outputId,
    outputCount: curated.outputCount,
    source: curated.source,
    ingredients: curated.ingredients,
    ...(curated.merchant === undefined ? {} : { merchant: curated.merchant }),
  };
}

async function readRecipes(
  gw2: Gw2Client,
  recipeIds: readonly number[],
  stale: StaleAge,
): Promise<Map<number, TreeRecipe>> {
  const read = await gw2.recipes(recipeIds);
  stale.add(read.staleAgeMs);
  return new Map(read.found.map((recipe) => [recipe.id, officialRecipe(recipe)]));
}

function officialRecipe(recipe: Recipe | CatalogueRecipe): TreeRecipe {
  return {
    outputId: recipe.output_item_id,
    outputCount: recipe.output_item_count,
    source: "official",
    recipeId: recipe.id,
    ingredients: recipe.ingredients,
  };
}

/**
 * Names of the currencies the recipes take: the curated ones are known; any other (an official
 * recipe taking a currency) costs one cached `/v2/currencies` read.
 */
async function readCurrencyNames(
  gw2: Gw2Client,
  recipes: Iterable<TreeRecipe>,
  stale: StaleAge,
): Promise<ReadonlyMap<number, string>> {
  const ids = new Set<number>();
  for (const recipe of recipes) {
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type === "Currency") ids.add(ingredient.id);
    }
  }
  if ([...ids].every((id) => CURRENCY_NAMES.has(id))) return CURRENCY_NAMES;
  const read = await gw2.currencies();
  stale.add(read.staleAgeMs);
  return new Map([
    ...CURRENCY_NAMES,
    ...read.value.map((currency) => [currency.id, currency.name] as const),
  ]);
}
