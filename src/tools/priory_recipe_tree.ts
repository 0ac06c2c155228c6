/**
 * `priory_recipe_tree`: the priced buy-or-craft tree of an item, Mystic Forge included. The
 * work is split so other tools reuse it: `resolveRecipes` gathers the tree (I/O),
 * `readTreePrices` is its one price read, `priceRecipeTree` the pure computation, and
 * `shapeRecipeTree` the compact result.
 *
 * @module
 */

import { z } from "zod";
import { NotCraftableError, priceRecipeTree } from "../domain/recipe_tree.ts";
import { shapeRecipeTree } from "../domain/tree_shape.ts";
import { Gw2NotFoundError } from "../gw2/errors.ts";
import { readTreePrices } from "../trees/prices.ts";
import { resolveRecipes } from "../trees/resolve.ts";
import { argumentsSchema, idSchema, MAX_IDS, staleAgeField } from "./inputs.ts";
import { defineTool, UPSTREAM_READ } from "./types.ts";

/** The most units one tree prices. */
export const MAX_TREE_QUANTITY = 250;

const quantityError = (issue: { input: unknown }) =>
  `quantity must be a whole number from 1 to ${MAX_TREE_QUANTITY}, not ${
    JSON.stringify(issue.input) ?? "nothing"
  }`;

const Copper = z.number();
const CopperOrNull = z.number().nullable();

/** The `priory_recipe_tree` tool. */
export const prioryRecipeTree = defineTool({
  name: "priory_recipe_tree",
  title: "Priced recipe tree",
  description:
    `Priory-computed: an item's buy-or-craft tree, priced on this server from official recipes plus Priory's curated Mystic Forge and vendor data (gen-1 legendaries, gifts, Mystic Clover) that the GW2 API lacks. Copper. Per ingredient the cheaper of buying (lowest sell listing) and crafting; the root is crafted. summary: totalCraftCost, rootBuyPrice, netSell (best buy order less 15% fee), profit; partial + unavailable: items neither buyable nor craftable (never priced 0); currencies: non-coin costs, not in the total. names: id→name. Node: id or cur (currency, 1 = coin), q (default 1), cost, buy/craft (the alternative's cost), via forge|vendor, runs, na (unavailable), rep (repeat, ingredients omitted), c (ingredients). One itemId; MAX_IDS = ${MAX_IDS} is for lists.`,
  inputSchema: argumentsSchema({
    itemId: idSchema("item").describe("Item to craft"),
    quantity: z.number({ error: quantityError }).int({ error: quantityError })
      .min(1, { error: quantityError }).max(MAX_TREE_QUANTITY, { error: quantityError })
      .default(1).describe("Units to craft"),
  }),
  outputSchema: z.object({
    summary: z.looseObject({
      rootId: z.number(),
      quantity: z.number(),
      totalCraftCost: Copper,
      rootBuyPrice: CopperOrNull,
      netSell: CopperOrNull,
      profit: CopperOrNull,
    }),
    names: z.record(z.string(), z.string()),
    tree: z.looseObject({}),
    stale_age_s: staleAgeField,
  }),
  annotations: UPSTREAM_READ,
  async handle({ itemId, quantity }, { gw2 }) {
    const resolved = await resolveRecipes(gw2, [itemId]);
    if (resolved.missingItemIds.includes(itemId)) throw new Gw2NotFoundError([itemId], "item");
    if (!resolved.recipes.has(itemId)) {
      throw new NotCraftableError(itemId, resolved.names.get(itemId));
    }
    const priced = await readTreePrices(gw2, resolved.itemIds);
    const tree = priceRecipeTree(resolved.recipes, itemId, quantity, priced.prices);
    const staleAgeMs = oldest(resolved.staleAgeMs, priced.staleAgeMs);
    return shapeRecipeTree(tree, resolved.names, resolved.currencyNames, staleAgeMs);
  },
});

function oldest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.max(a, b);
}
