/**
 * The recipe graph of the whole game, for the crafting scan: every item any recipe makes or uses
 * is a node, and each node that can be made has the one recipe a tree uses for it - the
 * contract's rule, as `src/tree/resolve.ts` applies it: the official recipe with the lowest id,
 * else the curated Mystic Forge or vendor record (`src/data/curated_recipes.ts`). Built once per
 * recipe catalogue generation from its packed recipes (`RecipeCatalogue.all()`), held in typed
 * arrays (~13,000 recipes and ~25,000 items for the real API), pure.
 *
 * @module
 */

import { INGREDIENT_TYPES, PACKED } from "../catalogue/recipe_layout.ts";
import type { CatalogueRecipes } from "../catalogue/recipe_catalogue.ts";
import { COIN_ID, type CuratedRecipe } from "../data/curated_recipes.ts";
import { DISCIPLINES } from "../gw2/schemas.ts";
import type { TreeIngredient, TreeRecipe } from "../tree/pricing.ts";

/** Ingredient kinds as the graph holds them. */
export const INGREDIENT = { item: 0, coin: 1, currency: 2, guildUpgrade: 3 } as const;

/** Where a graph recipe comes from. */
export const SOURCE = { official: 0, mysticForge: 1, vendor: 2 } as const;

/** Recipe flag bits (`RECIPE_FLAGS` of the store). */
export const FLAG = { autoLearned: 1, learnedFromItem: 2 } as const;

/**
 * The graph. Nodes are items (`itemIds[node]`); recipes are the one each made item uses
 * (`recipeOf[node]`, -1 when none). A recipe's ingredients are `ingKind/ingRef/ingCount` from
 * `ingStart[r]` to `ingStart[r + 1]`: `ingRef` is a node for an item, else the currency or guild
 * upgrade id.
 */
export interface CraftGraph {
  /** The catalogue generation it was built from. */
  readonly generation: number;
  /** Official recipes in the catalogue (every one, not only those a tree uses). */
  readonly officialRecipes: number;
  readonly nodeOf: ReadonlyMap<number, number>;
  readonly itemIds: Int32Array;
  readonly recipeOf: Int32Array;
  /** Per recipe: its output node. */
  readonly outputNode: Int32Array;
  /** Per recipe: items per run (curated counts may be fractional, Mystic Clover's 0.31). */
  readonly outputCount: Float64Array;
  /** Per recipe: the `/v2/recipes` id; 0 for a curated record. */
  readonly recipeId: Int32Array;
  readonly source: Uint8Array;
  /** Per recipe: its disciplines as bits over `DISCIPLINES` (official recipes only). */
  readonly disciplines: Uint16Array;
  readonly minRating: Int32Array;
  /** Per recipe: {@linkcode FLAG} bits. */
  readonly flags: Uint8Array;
  readonly ingStart: Int32Array;
  readonly ingKind: Uint8Array;
  readonly ingRef: Int32Array;
  readonly ingCount: Float64Array;
  /** Per recipe: the curated record it came from (its merchant), for curated recipes. */
  readonly curated: ReadonlyMap<number, CuratedRecipe>;
}

/** The bit of `discipline` in a recipe's `disciplines`; 0 for a name the API does not use. */
export function disciplineBit(discipline: string): number {
  const index = DISCIPLINES.findIndex((name) => name === discipline);
  return index < 0 ? 0 : 1 << index;
}

/** The disciplines of bit set `bits`, in `DISCIPLINES` order. */
export function disciplinesOf(bits: number): string[] {
  return DISCIPLINES.filter((_, index) => (bits & (1 << index)) !== 0);
}

/**
 * Builds the graph of `catalogue`'s official recipes and the `curated` records (for items no
 * official recipe makes).
 *
 * @example
 * ```ts
 * const graph = buildCraftGraph((await catalogue.all())!, CURATED_RECIPES);
 * ```
 */
export function buildCraftGraph(
  catalogue: CatalogueRecipes,
  curated: ReadonlyMap<number, CuratedRecipe>,
): CraftGraph {
  const { packed, offsets } = catalogue;
  const nodeOf = new Map<number, number>();
  const itemIds: number[] = [];
  const node = (itemId: number): number => {
    let found = nodeOf.get(itemId);
    if (found === undefined) {
      found = itemIds.length;
      nodeOf.set(itemId, found);
      itemIds.push(itemId);
    }
    return found;
  };
  // The lowest official recipe id per output: recipes ascend by id, so the first one seen.
  const chosen = new Map<number, number>();
  for (const at of offsets) {
    const output = packed[at + PACKED.outputId] ?? 0;
    if (!chosen.has(output)) chosen.set(output, at);
  }
  const recipes = {
    outputNode: [] as number[],
    outputCount: [] as number[],
    recipeId: [] as number[],
    source: [] as number[],
    disciplines: [] as number[],
    minRating: [] as number[],
    flags: [] as number[],
    ingStart: [] as number[],
    ingKind: [] as number[],
    ingRef: [] as number[],
    ingCount: [] as number[],
  };
  const recipeOfItem = new Map<number, number>();
  const curatedOf = new Map<number, CuratedRecipe>();
  const add = (
    output: number,
    head: {
      count: number;
      id: number;
      source: number;
      disciplines: number;
      rating: number;
      flags: number;
    },
    ingredients: Iterable<readonly [kind: number, id: number, count: number]>,
  ): number => {
    const index = recipes.outputNode.length;
    recipes.outputNode.push(node(output));
    recipes.outputCount.push(head.count);
    recipes.recipeId.push(head.id);
    recipes.source.push(head.source);
    recipes.disciplines.push(head.disciplines);
    recipes.minRating.push(head.rating);
    recipes.flags.push(head.flags);
    recipes.ingStart.push(recipes.ingKind.length);
    for (const [kind, id, count] of ingredients) {
      recipes.ingKind.push(kind);
      recipes.ingRef.push(kind === INGREDIENT.item ? node(id) : id);
      recipes.ingCount.push(count);
    }
    recipeOfItem.set(output, index);
    return index;
  };
  for (const [output, at] of chosen) {
    add(output, {
      count: packed[at + PACKED.outputCount] ?? 0,
      id: packed[at + PACKED.id] ?? 0,
      source: SOURCE.official,
      disciplines: packed[at + PACKED.disciplines] ?? 0,
      rating: packed[at + PACKED.minRating] ?? 0,
      flags: packed[at + PACKED.flags] ?? 0,
    }, packedIngredients(packed, at));
  }
  for (const [output, record] of curated) {
    if (chosen.has(output)) continue;
    const index = add(
      output,
      {
        count: record.outputCount,
        id: 0,
        source: record.source === "vendor" ? SOURCE.vendor : SOURCE.mysticForge,
        disciplines: 0,
        rating: 0,
        flags: 0,
      },
      record.ingredients.map((ingredient) => [
        kindOf(ingredient.type, ingredient.id),
        ingredient.id,
        ingredient.count,
      ]),
    );
    curatedOf.set(index, record);
  }
  recipes.ingStart.push(recipes.ingKind.length);
  const recipeOf = new Int32Array(itemIds.length).fill(-1);
  for (const [output, index] of recipeOfItem) recipeOf[nodeOf.get(output) ?? 0] = index;
  return {
    generation: catalogue.generation,
    officialRecipes: catalogue.count,
    nodeOf,
    itemIds: Int32Array.from(itemIds),
    recipeOf,
    outputNode: Int32Array.from(recipes.outputNode),
    outputCount: Float64Array.from(recipes.outputCount),
    recipeId: Int32Array.from(recipes.recipeId),
    source: Uint8Array.from(recipes.source),
    disciplines: Uint16Array.from(recipes.disciplines),
    minRating: Int32Array.from(recipes.minRating),
    flags: Uint8Array.from(recipes.flags),
    ingStart: Int32Array.from(recipes.ingStart),
    ingKind: Uint8Array.from(recipes.ingKind),
    ingRef: Int32Array.from(recipes.ingRef),
    ingCount: Float64Array.from(recipes.ingCount),
    curated: curatedOf,
  };
}

/** The ingredients of the packed recipe at `at`, as graph kinds. */
function* packedIngredients(
  packed: ArrayLike<number>,
  at: number,
): Iterable<readonly [number, number, number]> {
  const n = packed[at + PACKED.ingredientCount] ?? 0;
  for (let next = at + PACKED.ingredients; next < at + PACKED.ingredients + n * 3; next += 3) {
    const id = packed[next + 1] ?? 0;
    yield [kindOf(INGREDIENT_TYPES[packed[next] ?? 0] ?? "", id), id, packed[next + 2] ?? 0];
  }
}

/** The graph's kind of an ingredient of `type` (`Item`, `Currency`, `GuildUpgrade`) and `id`. */
function kindOf(type: string, id: number): number {
  if (type === "Item") return INGREDIENT.item;
  if (type === "Currency") return id === COIN_ID ? INGREDIENT.coin : INGREDIENT.currency;
  return INGREDIENT.guildUpgrade;
}

/**
 * The recipe of graph recipe `r` as the tree takes it (what `resolveRecipes` gives for the same
 * item), for the exact pricing of a row.
 */
export function treeRecipe(graph: CraftGraph, r: number): TreeRecipe {
  const ingredients: TreeIngredient[] = [];
  for (let at = graph.ingStart[r] ?? 0; at < (graph.ingStart[r + 1] ?? 0); at++) {
    const kind = graph.ingKind[at] ?? 0;
    const ref = graph.ingRef[at] ?? 0;
    ingredients.push({
      type: kind === INGREDIENT.item
        ? "Item"
        : kind === INGREDIENT.guildUpgrade
        ? "GuildUpgrade"
        : "Currency",
      id: kind === INGREDIENT.item ? graph.itemIds[ref] ?? 0 : ref,
      count: graph.ingCount[at] ?? 0,
    });
  }
  const source = graph.source[r];
  const outputId = graph.itemIds[graph.outputNode[r] ?? 0] ?? 0;
  const outputCount = graph.outputCount[r] ?? 0;
  if (source === SOURCE.official) {
    return {
      outputId,
      outputCount,
      source: "official",
      recipeId: graph.recipeId[r] ?? 0,
      ingredients,
    };
  }
  const merchant = graph.curated.get(r)?.merchant;
  return {
    outputId,
    outputCount,
    source: source === SOURCE.vendor ? "vendor" : "mystic_forge",
    ingredients,
    ...(merchant === undefined ? {} : { merchant }),
  };
}

/**
 * The recipes a tree rooted at recipe `r`'s output can reach, by item id (`resolveRecipes`'s
 * `recipes` for that root): what `priceRecipeTree` prices a row from.
 */
export function subtreeRecipes(graph: CraftGraph, r: number): Map<number, TreeRecipe> {
  const found = new Map<number, TreeRecipe>();
  const stack = [r];
  const seen = new Set<number>([r]);
  while (stack.length > 0) {
    const recipe = stack.pop() ?? 0;
    const built = treeRecipe(graph, recipe);
    found.set(built.outputId, built);
    for (let at = graph.ingStart[recipe] ?? 0; at < (graph.ingStart[recipe + 1] ?? 0); at++) {
      if (graph.ingKind[at] !== INGREDIENT.item) continue;
      const child = graph.recipeOf[graph.ingRef[at] ?? 0] ?? -1;
      if (child < 0 || seen.has(child)) continue;
      seen.add(child);
      stack.push(child);
    }
  }
  return found;
}
