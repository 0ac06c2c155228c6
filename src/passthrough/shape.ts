/**
 * Context economy: pure functions turning validated upstream records into the lean shapes the
 * tools return (arrays are fresh copies, so results are mutable without touching cached
 * records). Every shape is built field by field, never by deleting from the record, so a field
 * added upstream (or to `src/gw2/schemas.ts`) cannot reach a tool result by default.
 *
 * @module
 */

import type { Item, Price, Recipe, RecipeIngredient } from "../gw2/schemas.ts";
import type { BulkRead } from "../gw2/types.ts";
import { type Staleness, staleness } from "../staleness.ts";

/** An item as `gw2_items` returns it. */
export interface ShapedItem {
  readonly id: number;
  readonly name: string;
  readonly rarity: string;
  readonly type: string;
  /** Kept despite its weight: tradeable-versus-bound decisions depend on it. */
  readonly flags: string[];
  /** What an NPC merchant pays, in copper. */
  readonly vendor_value: number;
}

/** A recipe ingredient; `type` only when it is not an item (`Currency`, `GuildUpgrade`). */
export interface ShapedIngredient {
  readonly id: number;
  readonly count: number;
  readonly type?: string;
}

/** A recipe as `gw2_recipes` returns it. */
export interface ShapedRecipe {
  readonly id: number;
  readonly output_item_id: number;
  readonly output_item_count: number;
  readonly disciplines: string[];
  readonly min_rating: number;
  readonly ingredients: ShapedIngredient[];
}

/** A Trading Post price as `gw2_prices` returns it, unit prices in copper. */
export interface ShapedPrice {
  readonly id: number;
  /** Highest buy order; 0 when there is none. */
  readonly buy: number;
  /** Lowest sell listing; 0 when there is none. */
  readonly sell: number;
}

/** `gw2_items` structured result. */
export interface ItemsResult extends Staleness {
  readonly items: ShapedItem[];
  readonly missing_ids: number[];
}

/** `gw2_recipes` structured result. */
export interface RecipesResult extends Staleness {
  readonly recipes: ShapedRecipe[];
  readonly missing_ids: number[];
}

/** `gw2_prices` structured result. */
export interface PricesResult extends Staleness {
  readonly prices: ShapedPrice[];
  readonly missing_ids: number[];
}

/** `gw2_recipe_search` structured result. */
export interface RecipeSearchResult extends Staleness {
  readonly recipe_ids: number[];
}

/**
 * Keeps the declared item fields.
 *
 * @example
 * ```ts
 * shapeItem(record); // {id: 19721, name: "Glob of Ectoplasm", rarity: "Exotic", ...}
 * ```
 */
export function shapeItem(item: Item): ShapedItem {
  return {
    id: item.id,
    name: item.name,
    rarity: item.rarity,
    type: item.type,
    flags: [...item.flags],
    vendor_value: item.vendor_value,
  };
}

/** Keeps id and count, and `type` only when the ingredient is not an item. */
export function shapeIngredient(ingredient: RecipeIngredient): ShapedIngredient {
  return ingredient.type === "Item"
    ? { id: ingredient.id, count: ingredient.count }
    : { id: ingredient.id, count: ingredient.count, type: ingredient.type };
}

/** Keeps the declared recipe fields; drops type, flags, chat_link and the rest. */
export function shapeRecipe(recipe: Recipe): ShapedRecipe {
  return {
    id: recipe.id,
    output_item_id: recipe.output_item_id,
    output_item_count: recipe.output_item_count,
    disciplines: [...recipe.disciplines],
    min_rating: recipe.min_rating,
    ingredients: recipe.ingredients.map(shapeIngredient),
  };
}

/** Flattens `buys`/`sells` to their unit prices; drops quantities and `whitelisted`. */
export function shapePrice(price: Price): ShapedPrice {
  return { id: price.id, buy: price.buys.unit_price, sell: price.sells.unit_price };
}

/** `gw2_items` result from a bulk read. */
export function shapeItemsResult(read: BulkRead<Item>): ItemsResult {
  return {
    items: read.found.map(shapeItem),
    missing_ids: [...read.missingIds],
    ...staleness(read.staleAgeMs),
  };
}

/** `gw2_recipes` result from a bulk read. */
export function shapeRecipesResult(read: BulkRead<Recipe>): RecipesResult {
  return {
    recipes: read.found.map(shapeRecipe),
    missing_ids: [...read.missingIds],
    ...staleness(read.staleAgeMs),
  };
}

/** `gw2_prices` result from a bulk read. */
export function shapePricesResult(read: BulkRead<Price>): PricesResult {
  return {
    prices: read.found.map(shapePrice),
    missing_ids: [...read.missingIds],
    ...staleness(read.staleAgeMs),
  };
}

/** `gw2_recipe_search` result. */
export function shapeRecipeSearchResult(
  recipeIds: readonly number[],
  staleAgeMs: number | undefined,
): RecipeSearchResult {
  return { recipe_ids: [...recipeIds], ...staleness(staleAgeMs) };
}
