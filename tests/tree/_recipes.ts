/**
 * A compact way to write recipes in domain tests.
 *
 * @module
 */

import type { TreeRecipe } from "../../src/tree/pricing.ts";

/** A recipe making one `outputId` from `[id, count]` ingredients (negative ids: currencies). */
export function recipe(
  outputId: number,
  ingredients: readonly (readonly [number, number])[],
): TreeRecipe {
  return {
    outputId,
    outputCount: 1,
    source: "official",
    ingredients: ingredients.map(([id, count]) =>
      id < 0 ? { type: "Currency", id: -id, count } : { type: "Item", id, count }
    ),
  };
}
