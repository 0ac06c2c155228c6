/**
 * `priory_recipe_tree` over the fake prices a recipe far from any legendary with the market's
 * vendor data (issue 31): Bronze Ingot and Weak Potion of Dredge Slaying take their Lump of Tin
 * from the master craftsmen (10 for 80 coin) when that is cheaper than the Trading Post, as the
 * oracle (`cheapestTree` over the fake's recipes and prices, the curated data included) does.
 */
import assert from "node:assert/strict";
import type { ShapedTreeNode } from "../../src/tree/shape.ts";
import { assertSameAsOracle, oracle } from "./_tree_oracle.ts";
import { connectClient, startTestApp } from "../support/app.ts";

const BRONZE_INGOT = 19679;
const POTION = 8817;
const LUMP_OF_TIN = 19704;

type Structured = {
  summary: Record<string, unknown>;
  tree: ShapedTreeNode;
  toBuy: Record<string, unknown>[];
};

Deno.test("priory_recipe_tree: Bronze Ingot and Weak Potion of Dredge Slaying buy their tin from the vendor", async (t) => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const tin = app.fake.world.prices.get(LUMP_OF_TIN)?.sells.unit_price ?? 0;
  assert.ok(tin * 10 > 80, "the fake's tin costs more on the Trading Post than at the vendor");
  for (const itemId of [BRONZE_INGOT, POTION]) {
    await t.step(String(itemId), async () => {
      const result = await client.callTool({ name: "priory_recipe_tree", arguments: { itemId } });
      const structured = result.structuredContent as Structured;
      const expected = oracle(app.fake.world, itemId, 1);
      assertSameAsOracle(structured.tree, expected, "");
      assert.equal(structured.summary.totalCraftCost, expected.craftPrice);
      assert.deepEqual(
        structured.toBuy.find((row) => row.id === LUMP_OF_TIN),
        { id: LUMP_OF_TIN, count: 10, vendor: "Master Armorsmiths", total: 80 },
      );
    });
  }
});
