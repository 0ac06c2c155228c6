/**
 * Hand-built inputs for the crafting scan's pure tests: a catalogue of recipes packed as the
 * recipe catalogue holds them, and a market sheet of set prices.
 *
 * @module
 */

import type { CatalogueRecipes } from "../../src/catalogue/recipe_catalogue.ts";
import { packRecipe } from "../../src/catalogue/recipe_layout.ts";
import type { CatalogueRecipe, Price } from "../../src/gw2/schemas.ts";
import { buildSheet, type MarketSheet } from "../../src/market/sheet.ts";

/** A recipe: `[item id, count]` ingredients (a currency as `["coin", n]` or `["cur", id, n]`). */
export function recipe(
  id: number,
  output: number,
  ingredients: readonly (
    | readonly [number, number]
    | readonly ["coin", number]
    | readonly ["cur", number, number]
    | readonly ["guild", number, number]
  )[],
  options: {
    count?: number;
    disciplines?: string[];
    rating?: number;
    flags?: string[];
  } = {},
): CatalogueRecipe {
  return {
    id,
    output_item_id: output,
    output_item_count: options.count ?? 1,
    disciplines: options.disciplines ?? ["Weaponsmith"],
    min_rating: options.rating ?? 0,
    flags: options.flags ?? ["AutoLearned"],
    ingredients: ingredients.map((entry) => {
      if (entry[0] === "coin") return { type: "Currency", id: 1, count: entry[1] };
      if (entry[0] === "cur") return { type: "Currency", id: entry[1], count: entry[2] };
      if (entry[0] === "guild") return { type: "GuildUpgrade", id: entry[1], count: entry[2] };
      return { type: "Item", id: entry[0], count: entry[1] };
    }),
  };
}

/** The catalogue of `recipes` as `RecipeCatalogue.all()` hands it over (ascending id). */
export function catalogueOf(recipes: readonly CatalogueRecipe[], generation = 1): CatalogueRecipes {
  const sorted = [...recipes].sort((a, b) => a.id - b.id);
  const numbers: number[] = [];
  const offsets: number[] = [];
  for (const entry of sorted) {
    offsets.push(numbers.length);
    numbers.push(...packRecipe(entry));
  }
  return {
    generation,
    count: sorted.length,
    offsets: Int32Array.from(offsets),
    packed: Int32Array.from(numbers),
  };
}

/** A sheet from `[id, buy, sell]` rows (units: plenty), taken at `takenAt`. */
export function sheetOf(
  rows: readonly (readonly [number, number, number])[],
  takenAt = 1_000,
): MarketSheet {
  const prices: Price[] = rows.map(([id, buy, sell]) => ({
    id,
    whitelisted: false,
    buys: { quantity: buy > 0 ? 10_000 : 0, unit_price: buy },
    sells: { quantity: sell > 0 ? 10_000 : 0, unit_price: sell },
  }));
  return buildSheet(prices, takenAt);
}
