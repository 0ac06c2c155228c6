/**
 * The tool registry: every tool the server advertises, in `tools/list` order. Adding a tool
 * means adding it here; the inventory test then holds it to the project's rules.
 *
 * @module
 */

import { gw2Api } from "./gw2_api.ts";
import { gw2Items } from "./gw2_items.ts";
import { gw2Prices } from "./gw2_prices.ts";
import { gw2RecipeSearch } from "./gw2_recipe_search.ts";
import { gw2Recipes } from "./gw2_recipes.ts";
import { prioryAccount } from "./priory_account.ts";
import { prioryAchievements } from "./priory_achievements.ts";
import { prioryAccountMaterials } from "./priory_account_materials.ts";
import { prioryAccountWallet } from "./priory_account_wallet.ts";
import { prioryCraftProfit } from "./priory_craft_profit.ts";
import { prioryFindItems } from "./priory_find_items.ts";
import { prioryFlips } from "./priory_flips.ts";
import { prioryItemSearch } from "./priory_item_search.ts";
import { prioryLegendaryRanking } from "./priory_legendary_ranking.ts";
import { prioryLegendaries } from "./priory_legendaries.ts";
import { prioryPriceHistory } from "./priory_price_history.ts";
import { prioryRecipeTree } from "./priory_recipe_tree.ts";
import { prioryToday } from "./priory_today.ts";
import { prioryWizardsVault } from "./priory_wizards_vault.ts";
import { prioryTradingPost } from "./priory_trading_post.ts";
import type { ToolDefinition } from "./types.ts";

export { MAX_IDS } from "./inputs.ts";
export type { ToolAnnotations, ToolDefinition, ToolDeps } from "./types.ts";
export { MissingGw2KeyError, requireGw2Key, UnexpandedGw2KeyError } from "./types.ts";

/** Every registered tool. */
export const TOOLS: readonly ToolDefinition[] = [
  // Shaped pass-throughs of the official API.
  gw2Items,
  gw2Recipes,
  gw2Prices,
  gw2RecipeSearch,
  gw2Api,
  // Game data and the market, computed.
  prioryItemSearch,
  prioryRecipeTree,
  prioryLegendaries,
  prioryLegendaryRanking,
  prioryCraftProfit,
  prioryPriceHistory,
  prioryFlips,
  // The player's account.
  prioryAccount,
  prioryAccountMaterials,
  prioryAccountWallet,
  prioryFindItems,
  prioryTradingPost,
  prioryToday,
  prioryWizardsVault,
  prioryAchievements,
];
