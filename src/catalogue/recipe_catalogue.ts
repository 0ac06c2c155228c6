/**
 * Recipe lookups by output or input item, answered from the crawled recipe catalogue
 * (`recipe_store.ts`) with no upstream request. Each instance holds the complete generation in
 * memory (~13,000 recipes: two maps of recipe ids), loaded on first use and reloaded when the
 * head names a newer generation; the head is re-read at most every {@linkcode HEAD_CHECK_MS}.
 * While no complete catalogue exists (first crawl still running, `PRIORY_CATALOGUE=off`, KV
 * failing) or the last one is older than {@linkcode MAX_CATALOGUE_AGE_MS}, a lookup answers
 * `undefined` and the caller asks upstream (`recipe_lookup.ts`).
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import type { RecipeSearchQuery } from "../gw2/types.ts";
import { describeError, type Logger } from "../log.ts";
import type { CatalogueHead, RecipeStore } from "./recipe_store.ts";

/** How often an instance re-reads the head to notice a newer generation. */
export const HEAD_CHECK_MS = 30_000;
/**
 * A catalogue older than this is not used (the daily re-crawl has been failing for a week):
 * the same bound as a cached recipe search's fresh day plus stale week.
 */
export const MAX_CATALOGUE_AGE_MS = 8 * 24 * 60 * 60_000;

/** What a loaded generation answers from. */
interface Loaded {
  readonly head: CatalogueHead;
  readonly byOutput: ReadonlyMap<number, readonly number[]>;
  readonly byInput: ReadonlyMap<number, readonly number[]>;
}

/** Options of {@linkcode RecipeCatalogue}. */
export interface RecipeCatalogueOptions {
  readonly store: RecipeStore;
  readonly clock: Clock;
  readonly log: Logger;
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
  #loaded: Loaded | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #syncing: Promise<void> | undefined;

  /** @param options the store, a clock and a logger */
  constructor(options: RecipeCatalogueOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#log = options.log;
  }

  /**
   * Recipe ids using (`input`) or making (`output`) an item, ascending, as
   * `/v2/recipes/search` would answer; `undefined` when no usable catalogue exists.
   */
  async search(query: RecipeSearchQuery): Promise<readonly number[] | undefined> {
    const loaded = await this.#current();
    if (loaded === undefined) return undefined;
    const found = "input" in query
      ? loaded.byInput.get(query.input)
      : loaded.byOutput.get(query.output);
    return found ?? [];
  }

  /** Whether a usable catalogue is loaded, and its size. */
  async status(): Promise<RecipeCatalogueStatus> {
    const loaded = await this.#current();
    return loaded === undefined
      ? { complete: false, recipes: 0 }
      : { complete: true, recipes: loaded.head.count, completedAt: loaded.head.completedAt };
  }

  /** Makes the next lookup re-read the head (the crawl on this instance just published one). */
  refresh(): void {
    this.#checkedAt = Number.NEGATIVE_INFINITY;
  }

  /** Loads the catalogue now (`main.ts` calls it at startup without awaiting). */
  async warm(): Promise<void> {
    await this.#current();
  }

  async #current(): Promise<Loaded | undefined> {
    if (this.#clock.now() - this.#checkedAt >= HEAD_CHECK_MS) {
      this.#syncing ??= this.#sync().finally(() => this.#syncing = undefined);
      await this.#syncing;
    }
    const loaded = this.#loaded;
    if (loaded === undefined) return undefined;
    return this.#clock.now() - loaded.head.completedAt < MAX_CATALOGUE_AGE_MS ? loaded : undefined;
  }

  async #sync(): Promise<void> {
    try {
      const head = await this.#store.head();
      this.#checkedAt = this.#clock.now();
      if (head === undefined) {
        this.#loaded = undefined;
        return;
      }
      if (this.#loaded?.head.generation === head.generation) {
        this.#loaded = { ...this.#loaded, head };
        return;
      }
      const recipes = await this.#store.load(head.generation);
      if (recipes.length !== head.count) {
        // Read while being replaced, or damaged: keep what was loaded, retry on the next check.
        this.#log.warn("recipe catalogue incomplete in KV", {
          generation: head.generation,
          expected: head.count,
          found: recipes.length,
        });
        return;
      }
      const byOutput = new Map<number, number[]>();
      const byInput = new Map<number, number[]>();
      // A recipe read twice (pages shifted while the crawl ran) is indexed once.
      for (const recipe of new Map(recipes.map((r) => [r.id, r])).values()) {
        addTo(byOutput, recipe.output_item_id, recipe.id);
        const inputs = new Set(
          recipe.ingredients.filter((ingredient) => ingredient.type === "Item")
            .map((ingredient) => ingredient.id),
        );
        for (const input of inputs) addTo(byInput, input, recipe.id);
      }
      for (const ids of [...byOutput.values(), ...byInput.values()]) ids.sort((a, b) => a - b);
      this.#loaded = { head, byOutput, byInput };
      this.#log.info("recipe catalogue loaded", { recipes: recipes.length });
    } catch (error) {
      // Lookups fall back to upstream (or keep the loaded copy) until the next check.
      this.#checkedAt = this.#clock.now();
      this.#log.warn("recipe catalogue read failed", { error: describeError(error) });
    }
  }
}

function addTo(map: Map<number, number[]>, itemId: number, recipeId: number): void {
  const list = map.get(itemId);
  if (list === undefined) map.set(itemId, [recipeId]);
  else list.push(recipeId);
}
