/**
 * Recipe lookups by output or input item, and the recipes themselves, answered from the recipe
 * catalogue (`recipe_store.ts`) with no upstream request. Each instance holds the complete
 * generation in memory (~13,000 recipes: the records, packed, and two maps by item), loaded on
 * first use and reloaded when the head names a newer generation; the head is re-read at most
 * every {@linkcode HEAD_CHECK_MS}. While no complete catalogue exists (first crawl still running,
 * `PRIORY_CATALOGUE=off`, KV failing) or the last one is older than
 * {@linkcode MAX_CATALOGUE_AGE_MS}, a lookup answers `undefined` and the caller asks upstream
 * (`recipe_lookup.ts`).
 *
 * **Filled on demand.** The background crawl writes the catalogue slowly (a tenth of the budget);
 * a caller that needs many recipes now - the warm-up's walk of every legendary tree, a ranking on
 * a fresh server - calls {@linkcode RecipeCatalogue.fill}, which reads every `/v2/recipes` page
 * at once ({@linkcode FILL_CONCURRENCY} in flight: ~66 requests for the real API's ~13,000
 * recipes, instead of one search per tree node), publishes it as a generation in KV for every
 * instance, and holds it here. One fill at a time per instance: later callers, and lookups made
 * meanwhile, wait for the one in flight.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { CollectionRead } from "../gw2/paging.ts";
import type { CatalogueRecipe } from "../gw2/schemas.ts";
import type { Page, RecipeSearchQuery } from "../gw2/types.ts";
import { type Held, HeldGeneration } from "../kv/held_generation.ts";
import { describeError, type Logger } from "../log.ts";
import { packRecipe, recipeAt } from "./recipe_layout.ts";
import type { CatalogueHead, RecipeStore } from "./recipe_store.ts";

/** How often an instance re-reads the head to notice a newer generation. */
export const HEAD_CHECK_MS = 30_000;
/**
 * A catalogue older than this is not used (the daily re-crawl has been failing for a week):
 * the same bound as a cached recipe search's fresh day plus stale week.
 */
export const MAX_CATALOGUE_AGE_MS = 8 * 24 * 60 * 60_000;
/** Recipes per page a fill asks for: GW2's maximum. */
export const FILL_PAGE_SIZE = 200;
/** Pages of a fill in flight at once. */
export const FILL_CONCURRENCY = 8;
/**
 * The most pages a fill reads: 30,000 recipes (the real API has ~13,200 in 66 pages), half the
 * default upstream burst in requests. The page count is upstream's `X-Page-Total`; above this a
 * fill declines before reading on (lookups keep asking upstream, and the crawl reads the
 * collection at its own pace) rather than spend the budget and the memory on it.
 */
export const FILL_MAX_PAGES = 150;

/**
 * One `/v2/recipes?page=&page_size=` read, through the caller's client and under its deadline:
 * what {@linkcode RecipeCatalogue.fill} reads with.
 */
export type RecipePageReader = (page: number, pageSize: number) => Promise<Page<CatalogueRecipe>>;

/**
 * Item -> numbers, packed: the items ascending in `keys`, the numbers of `keys[i]` at
 * `values[at[i], at[i + 1])`. Typed arrays, so their bytes are outside V8's heap (see
 * docs/performance.md, "Memory"); looked up by binary search.
 */
interface ItemIndex {
  readonly keys: Int32Array;
  readonly at: Int32Array;
  readonly values: Int32Array;
}

/**
 * What a loaded generation answers from. The recipes are held packed, one typed array of all of
 * them in the store's layout (`packRecipe`), not as objects, and so are the two lookups by item:
 * every instance holds them (the real API's ~13,200 recipes: ~7.8 MB as objects, ~2 MB packed
 * with the lookups as maps, none of it in the heap now).
 */
interface Loaded {
  /** Every recipe once, ascending id, packed. */
  readonly packed: Int32Array | Float64Array;
  /** Where each recipe starts in `packed`, ascending id. */
  readonly offsets: Int32Array;
  /** Item -> offsets in `packed` of the recipes making it (ascending recipe id). */
  readonly byOutput: ItemIndex;
  /** Item -> ids of the recipes using it (ascending). */
  readonly byInput: ItemIndex;
}

/** The numbers `index` holds for `item` (none: empty), a fresh array. */
function lookup(index: ItemIndex, item: number): number[] {
  const { keys, at, values } = index;
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const key = keys[middle]!;
    if (key === item) return Array.from(values.subarray(at[middle]!, at[middle + 1]!));
    if (key < item) low = middle + 1;
    else high = middle - 1;
  }
  return [];
}

/** `map` packed as an {@linkcode ItemIndex}, its lists kept in order. */
function packIndex(map: ReadonlyMap<number, readonly number[]>): ItemIndex {
  const keys = Int32Array.from([...map.keys()].sort((a, b) => a - b));
  const at = new Int32Array(keys.length + 1);
  let total = 0;
  for (const [index, key] of keys.entries()) {
    at[index] = total;
    total += map.get(key)?.length ?? 0;
  }
  at[keys.length] = total;
  const values = new Int32Array(total);
  for (const [index, key] of keys.entries()) values.set(map.get(key) ?? [], at[index]!);
  return { keys, at, values };
}

/** Options of {@linkcode RecipeCatalogue}. */
export interface RecipeCatalogueOptions {
  readonly store: RecipeStore;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * Every recipe of a loaded generation at once, for a scan over all of them (the crafting scan):
 * packed in the store's layout (`packRecipe`; read one with `recipeAt`, its fields at `PACKED`),
 * ascending id, with the generation's identity so a caller can keep what it derives per
 * generation.
 */
export interface CatalogueRecipes {
  readonly generation: number;
  /** Recipes in it. */
  readonly count: number;
  /** Offsets in `packed` of each recipe, ascending id. */
  readonly offsets: Int32Array;
  readonly packed: Int32Array | Float64Array;
}

/** The catalogue's state, for logs and tests. */
export interface RecipeCatalogueStatus {
  readonly complete: boolean;
  readonly recipes: number;
  readonly completedAt?: number;
}

/** The in-memory recipe lookup of one instance over the shared catalogue. */
export class RecipeCatalogue {
  readonly #store: RecipeStore;
  readonly #clock: Clock;
  readonly #log: Logger;
  /** The generation held here: loaded, reloaded and aged by the shared rules. */
  readonly #held: HeldGeneration<CatalogueHead, Loaded>;
  #filling: Promise<boolean> | undefined;
  /** The pages of the fill in flight, once it reads: a later caller's reader joins them. */
  #fillPages: CollectionRead<CatalogueRecipe> | undefined;

  /** @param options the store, a clock and a logger */
  constructor(options: RecipeCatalogueOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#held = new HeldGeneration({
      clock: options.clock,
      log: options.log,
      what: "recipe catalogue",
      readHead: () => options.store.head(),
      // A count that differs: read while being replaced, or damaged (the held copy stays).
      load: async (head) => {
        const recipes = await options.store.load(head.generation);
        return recipes.length === head.count ? index(recipes) : undefined;
      },
      holds: (held, next) => held.generation === next.generation,
      checkEveryMs: HEAD_CHECK_MS,
      maxAgeMs: MAX_CATALOGUE_AGE_MS,
    });
  }

  /**
   * Recipe ids using (`input`) or making (`output`) an item, ascending, as
   * `/v2/recipes/search` would answer; `undefined` when no usable catalogue exists.
   */
  async search(query: RecipeSearchQuery): Promise<readonly number[] | undefined> {
    const loaded = (await this.#usable())?.value;
    if (loaded === undefined) return undefined;
    if ("input" in query) return lookup(loaded.byInput, query.input);
    return lookup(loaded.byOutput, query.output).map((at) => loaded.packed[at] ?? 0);
  }

  /**
   * Every recipe making each of `itemIds` (ascending recipe id; an item no recipe makes maps to
   * an empty list), as `/v2/recipes/search?output=` then `/v2/recipes?ids=` would answer;
   * `undefined` when no usable catalogue exists.
   */
  async recipesMaking(
    itemIds: readonly number[],
  ): Promise<ReadonlyMap<number, readonly CatalogueRecipe[]> | undefined> {
    const loaded = (await this.#usable())?.value;
    if (loaded === undefined) return undefined;
    return new Map(itemIds.map((id) => [
      id,
      lookup(loaded.byOutput, id).flatMap((at) => recipeAt(loaded.packed, at)?.recipe ?? []),
    ]));
  }

  /**
   * Every recipe of the usable catalogue, packed (see {@linkcode CatalogueRecipes}); `undefined`
   * when none is usable.
   */
  async all(): Promise<CatalogueRecipes | undefined> {
    const held = await this.#usable();
    if (held === undefined) return undefined;
    return {
      generation: held.head.generation,
      count: held.value.offsets.length,
      offsets: held.value.offsets,
      packed: held.value.packed,
    };
  }

  /**
   * Makes sure a usable catalogue is loaded: when none is (neither here nor in KV), reads every
   * recipe page with `read` ({@linkcode FILL_CONCURRENCY} at once), publishes them in KV as a
   * new generation and loads them. A fill already in flight on this instance is joined instead,
   * and `read` helps it: its workers take the pages nobody reads yet (`CollectionRead`), so a
   * tool call joining a background fill is not held to the background client's pace.
   *
   * @returns whether a usable catalogue is loaded afterwards (false when a page read failed:
   * the caller asks upstream as before)
   */
  async fill(read: RecipePageReader): Promise<boolean> {
    if (await this.#current() !== undefined) return true;
    if (this.#filling !== undefined) {
      this.#fillPages?.join(read, FILL_CONCURRENCY);
      return await this.#filling;
    }
    this.#filling = this.#fill(read).finally(() => {
      this.#filling = undefined;
      this.#fillPages = undefined;
    });
    return await this.#filling;
  }

  /** Whether a usable catalogue is loaded, and its size. */
  async status(): Promise<RecipeCatalogueStatus> {
    const held = await this.#current();
    return held === undefined
      ? { complete: false, recipes: 0 }
      : { complete: true, recipes: held.head.count, completedAt: held.head.completedAt };
  }

  /** Makes the next lookup re-read the head (the crawl on this instance just published one). */
  refresh(): void {
    this.#held.refresh();
  }

  /** Loads the catalogue now (`main.ts` calls it at startup without awaiting). */
  async warm(): Promise<void> {
    await this.#current();
  }

  /** The loaded catalogue, after any fill in flight (a lookup made meanwhile waits for it). */
  async #usable(): Promise<Held<CatalogueHead, Loaded> | undefined> {
    const loaded = await this.#current();
    if (loaded !== undefined || this.#filling === undefined) return loaded;
    await this.#filling;
    return await this.#current();
  }

  async #fill(read: RecipePageReader): Promise<boolean> {
    const started = this.#clock.now();
    try {
      // Another instance may have published one since this one last looked.
      this.refresh();
      if (await this.#current() !== undefined) return true;
      const collection = new CollectionRead<CatalogueRecipe>({
        pageSize: FILL_PAGE_SIZE,
        maxPages: FILL_MAX_PAGES,
        what: "recipe catalogue",
        clock: this.#clock,
      });
      this.#fillPages = collection;
      collection.join((page, pageSize) => read(page, pageSize), FILL_CONCURRENCY);
      const pages = (await collection.done).map((page) => page.records);
      const recipes = pages.flat();
      const generation = this.#clock.now();
      let head: CatalogueHead = { generation, completedAt: generation, count: recipes.length };
      try {
        head = await this.#store.writeGeneration(generation, pages, generation);
      } catch (error) {
        // Still usable here; other instances will fill (or crawl) their own.
        this.#log.warn("recipe catalogue not stored", { error: describeError(error) });
      }
      this.#held.hold(head, index(recipes));
      this.#log.info("recipe catalogue filled", {
        recipes: recipes.length,
        pages: pages.length,
        ms: Math.round(this.#clock.now() - started),
      });
      return true;
    } catch (error) {
      this.#log.warn("recipe catalogue fill failed", { error: describeError(error) });
      return false;
    }
  }

  /** The held catalogue when usable (the head re-read when due). */
  #current(): Promise<Held<CatalogueHead, Loaded> | undefined> {
    return this.#held.current();
  }
}

/** The lookups of a generation's recipes (a recipe read twice, as pages shift, indexed once). */
function index(recipes: readonly CatalogueRecipe[]): Loaded {
  const unique = [...new Map(recipes.map((recipe) => [recipe.id, recipe])).values()]
    .sort((a, b) => a.id - b.id);
  const numbers: number[] = [];
  const offsets = new Int32Array(unique.length);
  const byOutput = new Map<number, number[]>();
  const byInput = new Map<number, number[]>();
  // In ascending id, so every list below is too.
  for (const [index, recipe] of unique.entries()) {
    offsets[index] = numbers.length;
    addTo(byOutput, recipe.output_item_id, numbers.length);
    numbers.push(...packRecipe(recipe));
    const inputs = new Set(
      recipe.ingredients.filter((ingredient) => ingredient.type === "Item")
        .map((ingredient) => ingredient.id),
    );
    for (const input of inputs) addTo(byInput, input, recipe.id);
  }
  // Four bytes a number when every one fits (GW2's ids and counts do), else eight.
  const packed = numbers.every((n) => (n | 0) === n)
    ? Int32Array.from(numbers)
    : Float64Array.from(numbers);
  return {
    packed,
    offsets,
    byOutput: packIndex(byOutput),
    byInput: packIndex(byInput),
  };
}

function addTo(map: Map<number, number[]>, itemId: number, recipeId: number): void {
  const list = map.get(itemId);
  if (list === undefined) map.set(itemId, [recipeId]);
  else list.push(recipeId);
}
