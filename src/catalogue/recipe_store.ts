/**
 * The recipe catalogue in Deno KV: every `/v2/recipes` record reduced to what recipe lookups and
 * trees need (id, output, output count, ingredients), written page by page by the background
 * crawl (`src/background/crawl.ts`) into a **generation** of its own, and published by one
 * write of the head once the whole collection is in. A daily re-crawl writes the next
 * generation beside the current one, so lookups never see a half-written catalogue. Layout,
 * under `["catalogue", "v1", <upstream base URL>]` (a KV shared by the real API and the fake
 * keeps them apart; a layout change bumps `v1`):
 *
 * | key suffix | value |
 * |---|---|
 * | `"recipes-head"` | `{generation, completedAt, count, previous?}`: the complete generation |
 * | `"recipes", gen, page, chunk` | a crawled page's packed recipes ({@linkcode packRecipes}) |
 *
 * Limits respected: a chunk holds at most {@linkcode CHUNK_JSON_BYTES} of JSON (V8's encoding
 * of small integers is no larger), far below KV's 64 KiB per value; one page is a few chunks,
 * committed with the crawl's progress in one atomic operation (≤ 10 mutations, ≤ 100 KB).
 *
 * @module
 */

import type { CatalogueRecipe } from "../gw2/schemas.ts";
import { GenerationStore } from "../kv/generations.ts";

/** JSON bytes per chunk value: a quarter of KV's 64 KiB value limit. */
export const CHUNK_JSON_BYTES = 16_000;
/** Ingredient types as stored: the index is the code. GW2 may add others; those are dropped. */
export const INGREDIENT_TYPES = ["Item", "Currency", "GuildUpgrade"] as const;

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
    const root = ["catalogue", "v1", options.namespace];
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
   * someone else), leaving any other — one an on-demand fill is still writing, say.
   */
  deleteGeneration(generation: number): Promise<void> {
    return this.#generations.deleteGeneration(generation);
  }
}

/**
 * Packs recipes as flat integer arrays, `[id, outputId, outputCount, n, (type, id, count) × n,
 * …]` ({@linkcode packRecipe} each), split so each chunk's JSON stays under
 * {@linkcode CHUNK_JSON_BYTES}.
 */
export function packRecipes(recipes: readonly CatalogueRecipe[]): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  let bytes = 2;
  for (const recipe of recipes) {
    const packed = packRecipe(recipe);
    const size = JSON.stringify(packed).length - 1;
    if (current.length > 0 && bytes + size > CHUNK_JSON_BYTES) {
      chunks.push(current);
      current = [];
      bytes = 2;
    }
    current.push(...packed);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * One recipe as `[id, outputId, outputCount, n, (type, id, count) × n]`, the type as its index in
 * {@linkcode INGREDIENT_TYPES}; ingredients of a type outside it are dropped.
 */
export function packRecipe(recipe: CatalogueRecipe): number[] {
  const ingredients = recipe.ingredients.flatMap((ingredient) => {
    const code = INGREDIENT_TYPES.findIndex((type) => type === ingredient.type);
    return code === -1 ? [] : [code, ingredient.id, ingredient.count];
  });
  return [
    recipe.id,
    recipe.output_item_id,
    recipe.output_item_count,
    ingredients.length / 3,
    ...ingredients,
  ];
}

/** The recipes of one packed chunk; a value that does not fit the layout reads as empty. */
export function unpackRecipes(value: unknown): CatalogueRecipe[] {
  if (!Array.isArray(value) || !value.every((n) => Number.isSafeInteger(n))) return [];
  const recipes: CatalogueRecipe[] = [];
  for (let index = 0; index < value.length;) {
    const read = recipeAt(value, index);
    if (read === undefined) return [];
    recipes.push(read.recipe);
    index = read.end;
  }
  return recipes;
}

/**
 * The recipe packed ({@linkcode packRecipe}) at offset `at` of `numbers`, and where the next one
 * starts; `undefined` when what is there does not fit the layout.
 */
export function recipeAt(
  numbers: ArrayLike<number>,
  at: number,
): { readonly recipe: CatalogueRecipe; readonly end: number } | undefined {
  if (at + 4 > numbers.length) return undefined;
  const n = numbers[at + 3] ?? 0;
  const end = at + 4 + n * 3;
  if (n < 0 || end > numbers.length) return undefined;
  const ingredients = [];
  for (let next = at + 4; next < end; next += 3) {
    const type = INGREDIENT_TYPES[numbers[next] ?? -1];
    if (type === undefined) return undefined;
    ingredients.push({ type, id: numbers[next + 1] ?? 0, count: numbers[next + 2] ?? 0 });
  }
  const recipe = {
    id: numbers[at] ?? 0,
    output_item_id: numbers[at + 1] ?? 0,
    output_item_count: numbers[at + 2] ?? 0,
    ingredients,
  };
  return { recipe, end };
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
