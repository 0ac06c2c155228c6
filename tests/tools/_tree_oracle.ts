/**
 * The test oracle of priced trees: `@gw2efficiency/recipe-calculation`'s `cheapestTree` straight
 * over the fake's recipes and prices (and the curated data where the API has no recipe), and a
 * walk asserting that a shaped tree carries its figures.
 *
 * @module
 */
import assert from "node:assert/strict";
import { cheapestTree } from "@gw2efficiency/recipe-calculation";
import { nestRecipeByOutputId } from "@gw2efficiency/recipe-nesting";
import { CURATED_RECIPES } from "../../src/data/curated_recipes.ts";
import type { ShapedTreeNode } from "../../src/tree/shape.ts";
import type { FakeWorld } from "../fake_gw2/mod.ts";

/** A node of the library's priced tree. */
export type OracleNode = ReturnType<typeof cheapestTree>;

/**
 * `cheapestTree` straight over the fake's recipes (the lowest recipe id per output), the curated
 * data where the API has no recipe (Howl's tree ends in Obsidian Shards bought for karma), and
 * the fake's prices.
 */
export function oracle(
  world: FakeWorld,
  rootId: number,
  quantity: number,
  forceBuyItems: number[] = [],
): OracleNode {
  const byOutput = new Map<number, Parameters<typeof nestRecipeByOutputId>[0][number]>();
  for (const curated of CURATED_RECIPES.values()) {
    byOutput.set(curated.outputId, {
      id: 0,
      type: curated.source,
      output_item_id: curated.outputId,
      output_item_count: curated.outputCount,
      disciplines: [],
      flags: [],
      ingredients: curated.ingredients.map((ingredient) => ({ ...ingredient })),
      chat_link: "",
      multipleRecipeCount: 1,
    });
  }
  for (const recipe of world.recipes.values()) {
    const held = byOutput.get(recipe.output_item_id);
    if (held !== undefined && (held.id === 0 || held.id < recipe.id)) continue;
    byOutput.set(recipe.output_item_id, {
      ...recipe,
      disciplines: [...recipe.disciplines],
      flags: [...recipe.flags],
      ingredients: recipe.ingredients.map((ingredient) => ({ ...ingredient })),
      multipleRecipeCount: 1,
    });
  }
  const nested = nestRecipeByOutputId([...byOutput.values()], rootId);
  assert.ok(nested, `the fake has a recipe for ${rootId}`);
  const sells: Record<number, number> = {};
  for (const price of world.prices.values()) {
    if (price.sells.unit_price > 0) sells[price.id] = price.sells.unit_price;
  }
  return cheapestTree(quantity, nested, sells, {}, forceBuyItems);
}

/** Asserts that a node of our tree carries the oracle's figures, down the crafted path. */
export function assertSameAsOracle(node: ShapedTreeNode, expected: OracleNode, path: string): void {
  const here = `${path}/${expected.id}`;
  assert.equal(node.id ?? node.cur, expected.id, here);
  assert.equal(node.q ?? 1, expected.totalQuantity, `${here}: quantity`);
  if (expected.type === "Currency") return;
  const components = expected.components ?? [];
  if (expected.craft && components.length > 0) {
    assert.equal(node.cost ?? 0, expected.craftPrice, `${here}: craft cost`);
    assert.equal(node.buy, expected.buyPrice === false ? undefined : expected.buyPrice, here);
    if (node.rep === true) return;
    assert.equal(node.c?.length, components.length, `${here}: ingredients`);
    components.forEach((component, index) => {
      const ingredient = node.c?.[index];
      assert.ok(ingredient, `${here}: ingredient ${index}`);
      assertSameAsOracle(ingredient, component, here);
    });
  } else if (expected.buyPrice !== false) {
    assert.equal(node.cost, expected.buyPrice, `${here}: buy cost`);
    assert.equal(node.c, undefined, `${here}: a bought item is not expanded`);
  } else {
    assert.equal(node.na, true, `${here}: unavailable`);
  }
}
