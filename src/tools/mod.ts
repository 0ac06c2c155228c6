/**
 * The tool registry: every tool the server advertises, in `tools/list` order. Adding a tool
 * means adding it here; the inventory test then holds it to the project's rules.
 *
 * @module
 */

import { gw2Items } from "./gw2_items.ts";
import { gw2Prices } from "./gw2_prices.ts";
import { gw2RecipeSearch } from "./gw2_recipe_search.ts";
import { gw2Recipes } from "./gw2_recipes.ts";
import { prioryLegendaries } from "./priory_legendaries.ts";
import { prioryRecipeTree } from "./priory_recipe_tree.ts";
import type { ToolDefinition } from "./types.ts";

export { MAX_IDS } from "./inputs.ts";
export type { ToolAnnotations, ToolDefinition, ToolDeps } from "./types.ts";
export { MissingGw2KeyError, requireGw2Key } from "./types.ts";

/** Every registered tool. */
export const TOOLS: readonly ToolDefinition[] = [
  gw2Items,
  gw2Recipes,
  gw2Prices,
  gw2RecipeSearch,
  prioryRecipeTree,
  prioryLegendaries,
];
