/**
 * The packed layout of a catalogue recipe, shared by the store (`recipe_store.ts`), the in-memory
 * catalogue (`recipe_catalogue.ts`) and the crafting scan (`src/craft/graph.ts`): a recipe as a
 * run of integers, many runs to a chunk. Pure.
 *
 * @module
 */

import { type CatalogueRecipe, DISCIPLINES } from "../gw2/schemas.ts";

/** JSON bytes per chunk value: a quarter of KV's 64 KiB value limit. */
export const CHUNK_JSON_BYTES = 16_000;
/** Ingredient types as stored: the index is the code. GW2 may add others; those are dropped. */
export const INGREDIENT_TYPES = ["Item", "Currency", "GuildUpgrade"] as const;
/** Recipe flags as stored: bit `i` is flag `i`. Others (none known) are dropped. */
export const RECIPE_FLAGS = ["AutoLearned", "LearnedFromItem"] as const;

/**
 * Packs recipes as flat integer arrays, `[id, outputId, outputCount, disciplines, minRating,
 * flags, n, (type, id, count) × n, ...]` ({@linkcode packRecipe} each), split so each chunk's JSON
 * stays under {@linkcode CHUNK_JSON_BYTES}.
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
 * One recipe as `[id, outputId, outputCount, disciplines, minRating, flags, n, (type, id, count)
 * × n]`: `disciplines` and `flags` as bit sets over {@linkcode DISCIPLINES} and
 * {@linkcode RECIPE_FLAGS} (names outside them dropped), each ingredient's type as its index in
 * {@linkcode INGREDIENT_TYPES} (ingredients of another type dropped).
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
    bits(DISCIPLINES, recipe.disciplines),
    recipe.min_rating,
    bits(RECIPE_FLAGS, recipe.flags),
    ingredients.length / 3,
    ...ingredients,
  ];
}

/** The bit set of `names` over `known` (bit `i` for `known[i]`; other names dropped). */
function bits(known: readonly string[], names: readonly string[]): number {
  let set = 0;
  for (const name of names) {
    const index = known.indexOf(name);
    if (index >= 0) set |= 1 << index;
  }
  return set;
}

/** The names of bit set `set` over `known`, in `known`'s order. */
function names<T extends string>(known: readonly T[], set: number): T[] {
  return known.filter((_, index) => (set & (1 << index)) !== 0);
}

/** Where a packed recipe's fields sit (see {@linkcode packRecipe}). */
export const PACKED = {
  id: 0,
  outputId: 1,
  outputCount: 2,
  disciplines: 3,
  minRating: 4,
  flags: 5,
  ingredientCount: 6,
  /** The first ingredient's `(type, id, count)`. */
  ingredients: 7,
} as const;

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
  if (at + PACKED.ingredients > numbers.length) return undefined;
  const n = numbers[at + PACKED.ingredientCount] ?? 0;
  const end = at + PACKED.ingredients + n * 3;
  if (n < 0 || end > numbers.length) return undefined;
  const ingredients = [];
  for (let next = at + PACKED.ingredients; next < end; next += 3) {
    const type = INGREDIENT_TYPES[numbers[next] ?? -1];
    if (type === undefined) return undefined;
    ingredients.push({ type, id: numbers[next + 1] ?? 0, count: numbers[next + 2] ?? 0 });
  }
  const recipe = {
    id: numbers[at] ?? 0,
    output_item_id: numbers[at + PACKED.outputId] ?? 0,
    output_item_count: numbers[at + PACKED.outputCount] ?? 0,
    disciplines: names(DISCIPLINES, numbers[at + PACKED.disciplines] ?? 0),
    min_rating: numbers[at + PACKED.minRating] ?? 0,
    flags: names(RECIPE_FLAGS, numbers[at + PACKED.flags] ?? 0),
    ingredients,
  };
  return { recipe, end };
}
