/**
 * The recipe catalogue in Deno KV: every `/v2/recipes` record reduced to what recipe lookups,
 * trees and the crafting scan need (id, output, output count, disciplines, minimum rating, flags,
 * ingredients), written page by page by the background
 * crawl (`src/background/crawl.ts`) into a **generation** of its own, and published by one
 * write of the head once the whole collection is in. A daily re-crawl writes the next
 * generation beside the current one, so lookups never see a half-written catalogue. Layout,
 * under `["catalogue", "v2", <upstream base URL>]` (a KV shared by the real API and the fake
 * keeps them apart; a layout change bumps the version: `v2` added disciplines, rating and flags,
 * and a `v1` catalogue is left unread, to be filled or crawled again). The packed layout itself
 * is `recipe_layout.ts`'s:
 *
 * | key suffix | value |
 * |---|---|
 * | `"recipes-head"` | `{generation, completedAt, count, previous?}`: the complete generation |
 * | `"recipes", gen, page, chunk` | a crawled page's packed recipes ({@linkcode packRecipes}) |
 *
 * Limits respected: a chunk holds at most {@linkcode CHUNK_JSON_BYTES} of JSON (V8's encoding
 * of small integers is no larger), far below KV's 64 KiB per value; one page is a few chunks,
 * committed with the crawl's progress in one atomic operation (<= 10 mutations, <= 100 KB).
 *
 * @module
 */

import type { CatalogueRecipe } from "../gw2/schemas.ts";
import { GenerationStore } from "../kv/generations.ts";
import { packRecipes, unpackRecipes } from "./recipe_layout.ts";

export {
  CHUNK_JSON_BYTES,
  INGREDIENT_TYPES,
  PACKED,
  packRecipe,
  packRecipes,
  RECIPE_FLAGS,
  recipeAt,
  unpackRecipes,
} from "./recipe_layout.ts";

/** What the head says: which generation is complete, since when, and how many recipes it holds. */
export interface CatalogueHead {
  readonly generation: number;
  /** When the crawl finished writing it (epoch ms). */
  readonly completedAt: number;
  /** Recipes stored in it: a load that finds another number is incomplete. */
  readonly count: number;
  /** The generation it replaced, kept until the next one is published (an instance may read it). */
  readonly previous?: number;
}

/** Options of {@linkcode RecipeStore}. */
export interface RecipeStoreOptions {
  readonly kv: Deno.Kv;
  /** Keeps the catalogues of different upstreams apart: pass the upstream base URL. */
  readonly namespace: string;
}

/** The KV side of the recipe catalogue: a {@linkcode GenerationStore} of packed pages. */
export class RecipeStore {
  readonly #kv: Deno.Kv;
  readonly #generations: GenerationStore<CatalogueHead>;

  /** @param options the KV and the namespace */
  constructor(options: RecipeStoreOptions) {
    this.#kv = options.kv;
    const root = ["catalogue", "v2", options.namespace];
    this.#generations = new GenerationStore({
      kv: options.kv,
      headKey: [...root, "recipes-head"],
      dataPrefix: [...root, "recipes"],
      parseHead,
    });
  }

  /** The head: the complete generation, if any. */
  head(): Promise<CatalogueHead | undefined> {
    return this.#generations.head();
  }

  /** Adds one crawled page of generation `generation` to `op` (a few chunk writes). */
  addPage(
    op: Deno.AtomicOperation,
    generation: number,
    page: number,
    recipes: readonly CatalogueRecipe[],
  ): Deno.AtomicOperation {
    packRecipes(recipes).forEach((chunk, index) => {
      op.set(this.#generations.key(generation, [page, index]), chunk);
    });
    return op;
  }

  /** Adds the publication of `head` to `op`: lookups switch to its generation on commit. */
  publish(op: Deno.AtomicOperation, head: CatalogueHead): Deno.AtomicOperation {
    return this.#generations.publish(op, head);
  }

  /**
   * Writes a whole catalogue read at once (the on-demand fill of `recipe_catalogue.ts`) as
   * `generation`, one commit per page, then publishes it: the head names it, with the
   * generation it replaces as `previous`.
   *
   * @returns the published head
   */
  async writeGeneration(
    generation: number,
    pages: readonly (readonly CatalogueRecipe[])[],
    completedAt: number,
  ): Promise<CatalogueHead> {
    for (const [page, recipes] of pages.entries()) {
      const result = await this.addPage(this.#kv.atomic(), generation, page, recipes).commit();
      if (!result.ok) throw new Error(`Recipe catalogue page ${page} was not written`);
    }
    const replaced = await this.head();
    const head: CatalogueHead = {
      generation,
      completedAt,
      count: pages.reduce((sum, page) => sum + page.length, 0),
      ...(replaced === undefined ? {} : { previous: replaced.generation }),
    };
    await this.publish(this.#kv.atomic(), head).commit();
    return head;
  }

  /** Every recipe of `generation`, in page order. */
  async load(generation: number): Promise<CatalogueRecipe[]> {
    const recipes: CatalogueRecipe[] = [];
    for await (const entry of this.#generations.list(generation)) {
      recipes.push(...unpackRecipes(entry.value));
    }
    return recipes;
  }

  /**
   * Deletes every generation but `keep`: the one replaced before the current (no instance loads
   * it any more) and any abandoned pass.
   */
  prune(keep: readonly number[]): Promise<void> {
    return this.#generations.prune(keep);
  }

  /**
   * Deletes generation `generation` alone (a crawl pass given up for a catalogue published by
   * someone else), leaving any other - one an on-demand fill is still writing, say.
   */
  deleteGeneration(generation: number): Promise<void> {
    return this.#generations.deleteGeneration(generation);
  }
}

function parseHead(value: unknown): CatalogueHead | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const generation: unknown = Reflect.get(value, "generation");
  const completedAt: unknown = Reflect.get(value, "completedAt");
  const count: unknown = Reflect.get(value, "count");
  const previous: unknown = Reflect.get(value, "previous");
  if (
    typeof generation !== "number" || typeof completedAt !== "number" || typeof count !== "number"
  ) {
    return undefined;
  }
  return typeof previous === "number"
    ? { generation, completedAt, count, previous }
    : { generation, completedAt, count };
}
