/**
 * Context economy: tokens (bytes / 4) of each tool's structured result — what Claude Code hands
 * the model — on fixed inputs, next to the same records as minified upstream JSON, which an agent
 * calling the API directly would read. The inputs are those of `tests/passthrough/economy_test.ts`:
 * the representative ids (the 21 gen-1 legendaries and 30 of their materials), 50 recipes using
 * Glob of Ectoplasm, and every priced item of the fake's catalogue.
 *
 * @module
 */

import { chunk, mapWithConcurrency } from "../../src/async/concurrency.ts";
import { REPRESENTATIVE_IDS, WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import type { McpWire } from "../support/wire.ts";
import {
  ITEMS,
  jsonBytes,
  OPEN_BUDGET,
  PRICES,
  RECIPE_SEARCH,
  RECIPES,
  structured,
} from "./calls.ts";

/** One comparison: shaped against upstream, both compact JSON. */
interface Comparison {
  readonly shapedBytes: number;
  readonly upstreamBytes: number;
}

/** How much smaller the shaped result is, in percent. */
export function reduction({ shapedBytes, upstreamBytes }: Comparison): number {
  return (1 - shapedBytes / upstreamBytes) * 100;
}

function figure(label: string, comparison: Comparison, detail: string): Figure {
  return {
    label,
    value: comparison.shapedBytes / 4,
    unit: "tokens",
    note: `upstream ${Math.round(comparison.upstreamBytes / 4).toLocaleString("en-US")} tokens, ${
      reduction(comparison).toFixed(1)
    } % smaller; ${detail}`,
  };
}

/** Calls `tool` on every id, 100 per call, and sums the structured results' bytes. */
async function sweep(client: McpWire, tool: string, ids: readonly number[]): Promise<number> {
  const sizes = await mapWithConcurrency(
    chunk(ids, 100),
    4,
    async (group) => jsonBytes(structured(await client.callTool(tool, { ids: group }), tool)),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** The economy scenario. */
export const economy: Scenario = {
  name: "economy",
  summary: "tokens of each tool's structured result vs the minified upstream JSON",
  tools: [ITEMS, RECIPES, PRICES, RECIPE_SEARCH],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET });
    const client = ctx.client(priory);
    const world = fake.fake.world;
    const ids = [...REPRESENTATIVE_IDS];
    const recipeIds = (world.recipesByInput.get(WELL_KNOWN.globOfEctoplasm) ?? []).slice(0, 50);
    const upstream = <T>(map: ReadonlyMap<number, T>, wanted: readonly number[]) =>
      jsonBytes(wanted.flatMap((id) => map.get(id) ?? []));

    const items = {
      shapedBytes: jsonBytes(structured(await client.callTool(ITEMS, { ids }), ITEMS)),
      upstreamBytes: upstream(world.items, ids),
    };
    const recipes = {
      shapedBytes: jsonBytes(
        structured(await client.callTool(RECIPES, { ids: recipeIds }), RECIPES),
      ),
      upstreamBytes: upstream(world.recipes, recipeIds),
    };
    const prices = {
      shapedBytes: jsonBytes(structured(await client.callTool(PRICES, { ids }), PRICES)),
      upstreamBytes: upstream(world.prices, ids),
    };
    const search = {
      shapedBytes: jsonBytes(
        structured(
          await client.callTool(RECIPE_SEARCH, { input: WELL_KNOWN.globOfEctoplasm }),
          RECIPE_SEARCH,
        ),
      ),
      upstreamBytes: jsonBytes(world.recipesByInput.get(WELL_KNOWN.globOfEctoplasm) ?? []),
    };
    const pricedIds = [...world.prices.keys()];
    const catalogue = {
      shapedBytes: await sweep(client, PRICES, pricedIds),
      upstreamBytes: upstream(world.prices, pricedIds),
    };
    const itemIds = [...world.items.keys()];
    const itemCatalogue = {
      shapedBytes: await sweep(client, ITEMS, itemIds),
      upstreamBytes: upstream(world.items, itemIds),
    };
    const n = `${ids.length} representative ids`;
    const figures: Figure[] = [
      figure("gw2_items", items, n),
      figure("gw2_recipes", recipes, "50 recipes using Glob of Ectoplasm"),
      figure("gw2_prices", prices, n),
      figure("gw2_recipe_search", search, "input 19721"),
      figure("gw2_prices, catalogue", catalogue, `${pricedIds.length} priced items`),
      figure("gw2_items, catalogue", itemCatalogue, `${itemIds.length} items`),
    ];
    const targets: Target[] = [
      {
        label: "items ≥ 70 % smaller (representative ids)",
        value: reduction(items),
        unit: "%",
        min: 70,
      },
      { label: "recipes ≥ 30 % smaller", value: reduction(recipes), unit: "%", min: 30 },
      {
        label: "prices ≥ 60 % smaller (representative ids)",
        value: reduction(prices),
        unit: "%",
        min: 60,
      },
      {
        label: "prices ≥ 70 % smaller (catalogue)",
        value: reduction(catalogue),
        unit: "%",
        min: 70,
      },
    ];
    return { figures, targets };
  },
};
