import assert from "node:assert/strict";
import {
  netSellValue,
  NotCraftableError,
  type PricedNode,
  priceRecipeTree,
  reachableRecipes,
  type RecipeSource,
  type TreePrice,
  type TreeRecipe,
} from "../../src/tree/pricing.ts";

/** A recipe making `outputId` from `[id, count]` items (negative ids: currencies). */
function recipe(
  outputId: number,
  ingredients: readonly (readonly [number, number])[],
  options: { outputCount?: number; source?: RecipeSource; guild?: number } = {},
): TreeRecipe {
  return {
    outputId,
    outputCount: options.outputCount ?? 1,
    source: options.source ?? "official",
    ingredients: [
      ...ingredients.map(([id, count]) =>
        id < 0 ? { type: "Currency", id: -id, count } : { type: "Item", id, count }
      ),
      ...(options.guild === undefined
        ? []
        : [{ type: "GuildUpgrade", id: options.guild, count: 1 }]),
    ],
  };
}

function recipeMap(...recipes: TreeRecipe[]): Map<number, TreeRecipe> {
  return new Map(recipes.map((entry) => [entry.outputId, entry]));
}

function prices(entries: Record<number, number | [number, number]>): Map<number, TreePrice> {
  return new Map(
    Object.entries(entries).map(([id, value]) => {
      const [sell, buy] = typeof value === "number" ? [value, value - 1] : value;
      return [Number(id), { sell, buy }];
    }),
  );
}

function child(node: PricedNode, id: number): PricedNode {
  const found = node.children.find((entry) => entry.id === id);
  assert.ok(found, `node ${node.id} has ingredient ${id}`);
  return found;
}

Deno.test("priceRecipeTree() crafts the root and takes the cheaper of buying and crafting per ingredient", () => {
  const recipes = recipeMap(
    recipe(1, [[2, 2], [3, 1]]),
    recipe(2, [[4, 1]]), // crafting 2 costs 100, buying 10: bought
    recipe(3, [[5, 3]]), // crafting 3 costs 15, buying 20: crafted
  );
  const table = prices({ 1: [500, 400], 2: 10, 3: 20, 4: 100, 5: 5 });
  const { root, summary } = priceRecipeTree(recipes, 1, 1, table);
  assert.equal(root.action, "craft");
  assert.equal(root.cost, 2 * 10 + 15);
  assert.equal(root.buyCost, 500);
  assert.deepEqual(child(root, 2), {
    kind: "item",
    id: 2,
    quantity: 2,
    owned: 0,
    action: "buy",
    cost: 20,
    craftCost: 200,
    children: [],
  });
  const crafted = child(root, 3);
  assert.equal(crafted.action, "craft");
  assert.equal(crafted.cost, 15);
  assert.equal(crafted.buyCost, 20);
  assert.equal(child(crafted, 5).cost, 15);
  assert.deepEqual(summary, {
    rootId: 1,
    quantity: 1,
    totalCraftCost: 35,
    rootBuyPrice: 500,
    netSell: 340,
    profit: 305,
    unavailableIds: [],
    guildUpgradeIds: [],
    currencies: [],
    partial: false,
  });
});

Deno.test("priceRecipeTree() crafts the root even when buying it is cheaper, and scales by quantity", () => {
  const recipes = recipeMap(recipe(1, [[2, 3]]));
  const { root, summary } = priceRecipeTree(recipes, 1, 4, prices({ 1: 5, 2: 10 }));
  assert.equal(root.action, "craft");
  assert.equal(root.quantity, 4);
  assert.equal(child(root, 2).quantity, 12);
  assert.equal(summary.totalCraftCost, 120);
  assert.equal(summary.rootBuyPrice, 20);
  assert.equal(summary.netSell, 4 * 3); // floor(4 × 0.85) = 3 per unit
  assert.equal(summary.profit, 12 - 120);
});

Deno.test("priceRecipeTree() crafts whole recipe outputs, and expected yields in whole attempts", () => {
  const recipes = recipeMap(
    recipe(1, [[2, 7], [3, 77]]),
    recipe(2, [[4, 1]], { outputCount: 5 }),
    recipe(3, [[4, 1]], { outputCount: 0.31, source: "mystic_forge" }),
  );
  const { root } = priceRecipeTree(recipes, 1, 1, prices({ 4: 2 }));
  const batched = child(root, 2);
  assert.deepEqual([batched.quantity, batched.runs, child(batched, 4).quantity], [10, 2, 2]);
  const forged = child(root, 3);
  assert.deepEqual([forged.quantity, forged.runs, forged.source], [77, 249, "mystic_forge"]);
  assert.equal(child(forged, 4).quantity, 249);
  assert.equal(root.cost, 2 * 2 + 249 * 2);
});

Deno.test("priceRecipeTree() marks what can be neither bought nor crafted, never pricing it at 0", () => {
  const recipes = recipeMap(recipe(1, [[2, 1], [3, 250]]));
  const { root, summary } = priceRecipeTree(recipes, 1, 1, prices({ 3: 4 }));
  const bound = child(root, 2);
  assert.equal(bound.action, "unavailable");
  assert.equal(bound.cost, undefined);
  assert.equal(summary.totalCraftCost, 1000);
  assert.deepEqual(summary.unavailableIds, [2]);
  assert.equal(summary.partial, true);
  assert.equal(summary.rootBuyPrice, null);
  assert.equal(summary.netSell, null);
  assert.equal(summary.profit, null);
});

Deno.test("priceRecipeTree() buys an item whose craft needs something unpriced, at its sell price", () => {
  // 2 (sells for 1,000) is made from 4, which can be neither bought nor crafted: counted as 0,
  // crafting 2 would look free. The contract: buy it. Oracle: 1,000 + 10.
  const recipes = recipeMap(recipe(1, [[2, 1], [3, 1]]), recipe(2, [[4, 1], [3, 2]]));
  const table = prices({ 2: 1_000, 3: 10 });
  const { root, summary } = priceRecipeTree(recipes, 1, 1, table);
  assert.deepEqual(child(root, 2), {
    kind: "item",
    id: 2,
    quantity: 1,
    owned: 0,
    action: "buy",
    cost: 1_000,
    children: [],
  }, "bought at its sell price, with no craft figure: that path has no price");
  assert.equal(summary.totalCraftCost, 1_010);
  assert.deepEqual(summary.unavailableIds, [], "nothing left to earn");
  assert.equal(summary.partial, false);
});

Deno.test("priceRecipeTree() crafts it after all when the holdings cover the unpriced part", () => {
  const recipes = recipeMap(recipe(1, [[2, 1], [3, 1]]), recipe(2, [[4, 1], [3, 2]]));
  const table = prices({ 2: 1_000, 3: 10 });
  const { root, summary } = priceRecipeTree(recipes, 1, 1, table, new Map([[4, 1]]));
  assert.equal(child(root, 2).action, "craft");
  assert.equal(child(child(root, 2), 4).action, "owned");
  assert.equal(summary.totalCraftCost, 10 + 20);
  // One of two needed held: the path still needs an unpriced unit, so 2 is bought.
  const short = recipeMap(recipe(1, [[2, 1]]), recipe(2, [[4, 2]]));
  const { root: shortRoot } = priceRecipeTree(short, 1, 1, table, new Map([[4, 1]]));
  assert.deepEqual([child(shortRoot, 2).action, child(shortRoot, 2).cost], ["buy", 1_000]);
});

Deno.test("priceRecipeTree() buys the nearest buyable item above the unpriced leaf, never the root", () => {
  // 1 ← 5 (sells 5,000) ← {6 (sells 800) ← 8 (a gift, no price) ← 9 (unavailable), 2 × 7 (100)}.
  const recipes = recipeMap(
    recipe(1, [[5, 1]]),
    recipe(5, [[6, 1], [7, 2]]),
    recipe(6, [[8, 1]]),
    recipe(8, [[9, 1]]),
  );
  const table = prices({ 5: 5_000, 6: 800, 7: 100 });
  const { root, summary } = priceRecipeTree(recipes, 1, 1, table);
  const five = child(root, 5);
  assert.equal(five.action, "craft", "5's path is priced once 6 is bought: 800 + 200 < 5,000");
  assert.deepEqual([child(five, 6).action, child(five, 6).cost], ["buy", 800]);
  assert.equal(summary.totalCraftCost, 1_000);
  // With no buyable item above it, the leaf stays: the root is always crafted, partial.
  const bare = priceRecipeTree(recipeMap(recipe(1, [[8, 1]]), recipe(8, [[9, 1]])), 1, 1, table);
  assert.equal(bare.root.action, "craft");
  assert.deepEqual(bare.summary.unavailableIds, [9]);
  assert.equal(bare.summary.partial, true);
});

Deno.test("priceRecipeTree() treats a currency the library cannot estimate as unpriced, karma as priced", () => {
  const table = prices({ 2: 1_000, 3: 10 });
  // 70 (Legendary Insight) has no estimate in the library's choice: 2 is bought.
  const insight = recipeMap(recipe(1, [[2, 1]]), recipe(2, [[-70, 3], [3, 1]]));
  const bought = priceRecipeTree(insight, 1, 1, table);
  assert.deepEqual([child(bought.root, 2).action, bought.summary.totalCraftCost], ["buy", 1_000]);
  // Karma (2) is estimated at 1 copper: 3 karma + 10 copper beat 1,000, so 2 is crafted.
  const karma = recipeMap(recipe(1, [[2, 1]]), recipe(2, [[-2, 3], [3, 1]]));
  const crafted = priceRecipeTree(karma, 1, 1, table);
  assert.deepEqual([child(crafted.root, 2).action, crafted.summary.totalCraftCost], ["craft", 10]);
});

Deno.test("priceRecipeTree() prices coin paid to a vendor and totals other currencies apart", () => {
  const recipes = recipeMap(
    recipe(1, [[2, 100], [3, 250], [4, 1]], { source: "mystic_forge" }),
    recipe(2, [[-1, 10_000]], { source: "vendor" }),
    recipe(3, [[-2, 2_100]], { source: "vendor" }),
    recipe(4, [[-23, 200]], { source: "vendor" }),
  );
  const { root, summary } = priceRecipeTree(recipes, 1, 1, new Map());
  assert.equal(child(root, 2).cost, 1_000_000);
  assert.deepEqual(child(child(root, 2), 1), {
    kind: "currency",
    id: 1,
    quantity: 1_000_000,
    owned: 0,
    action: "pay",
    cost: 1_000_000,
    children: [],
  });
  assert.equal(child(child(root, 3), 2).cost, undefined, "karma has no copper cost");
  assert.equal(summary.totalCraftCost, 1_000_000);
  assert.deepEqual(summary.currencies, [{ id: 2, count: 525_000 }, { id: 23, count: 200 }]);
  assert.equal(summary.partial, false, "currency totals are known, in their own unit");
});

Deno.test("priceRecipeTree() gives a bought item no craft figure when its craft path is not all coin", () => {
  // 2 sells at 97; a vendor also sells it for 1 Guild Commendation (16, estimated 3,600): bought.
  // The vendor path costs 0 copper, yet it is not a price: no `craftCost` that would read as "cheaper".
  const commendation = recipeMap(
    recipe(1, [[2, 250]]),
    recipe(2, [[-16, 1]], { source: "vendor" }),
  );
  const bought = child(priceRecipeTree(commendation, 1, 1, prices({ 2: 97 })).root, 2);
  assert.deepEqual([bought.action, bought.cost, bought.craftCost], ["buy", 24_250, undefined]);
  // An unavailable part (3: no price, no recipe) leaves the coin figure short too.
  const unpriced = recipeMap(recipe(1, [[2, 1]]), recipe(2, [[3, 1], [4, 1]]));
  const forced = child(priceRecipeTree(unpriced, 1, 1, prices({ 2: 500, 4: 10 })).root, 2);
  assert.deepEqual([forced.action, forced.craftCost], ["buy", undefined]);
  // A path wholly in coin keeps its figure: bought at 97 against 150 copper of coin.
  const coin = recipeMap(recipe(1, [[2, 1]]), recipe(2, [[-1, 150]], { source: "vendor" }));
  const kept = child(priceRecipeTree(coin, 1, 1, prices({ 2: 97 })).root, 2);
  assert.deepEqual([kept.action, kept.craftCost], ["buy", 150]);
});

Deno.test("priceRecipeTree() refuses cycles: the recipe closing one is dropped, its output a leaf", () => {
  const recipes = recipeMap(
    recipe(1, [[2, 1]]),
    recipe(2, [[3, 1]]),
    recipe(3, [[2, 2], [4, 1]]), // 3 is made from 2, which is made from 3
  );
  assert.deepEqual(reachableRecipes(recipes, 1).map((entry) => entry.outputId), [2, 1]);
  const { root } = priceRecipeTree(recipes, 1, 1, prices({ 3: 50, 4: 1 }));
  const middle = child(root, 2);
  assert.equal(middle.action, "craft");
  assert.deepEqual(
    [child(middle, 3).action, child(middle, 3).children.length, child(middle, 3).cost],
    ["buy", 0, 50],
  );
  const selfMade = recipeMap(recipe(1, [[1, 1]]));
  assert.throws(() => priceRecipeTree(selfMade, 1, 1, new Map()), NotCraftableError);
});

Deno.test("priceRecipeTree() uses holdings before buying or crafting, never for the root", () => {
  const recipes = recipeMap(recipe(1, [[2, 3], [3, 1]]), recipe(3, [[4, 10]]));
  const table = prices({ 1: 1000, 2: 10, 3: 500, 4: 1 });
  const { root, summary } = priceRecipeTree(
    recipes,
    1,
    1,
    table,
    new Map([[1, 5], [2, 2], [3, 1]]),
  );
  assert.equal(root.owned, 0);
  assert.deepEqual([child(root, 2).owned, child(root, 2).cost], [2, 10]);
  assert.equal(child(root, 3).action, "owned");
  assert.equal(summary.totalCraftCost, 10);
});

Deno.test("priceRecipeTree() names guild-upgrade ingredients instead of pricing them at 0", () => {
  const recipes = recipeMap(recipe(1, [[2, 1]], { guild: 77 }));
  const { summary } = priceRecipeTree(recipes, 1, 1, prices({ 2: 3 }));
  assert.deepEqual(summary.guildUpgradeIds, [77]);
  assert.equal(summary.partial, true);
});

Deno.test("priceRecipeTree() buys an item whose craft needs a guild upgrade, which has no price", () => {
  // 2 (sells for 1,000) is made from 3 (10) and guild upgrade 77: the library drops the upgrade,
  // so crafting 2 would look like 10 copper. The contract: buy it. Oracle: 1,000.
  const recipes = recipeMap(recipe(1, [[2, 1]]), recipe(2, [[3, 1]], { guild: 77 }));
  const { root, summary } = priceRecipeTree(recipes, 1, 1, prices({ 2: 1_000, 3: 10 }));
  assert.deepEqual([child(root, 2).action, child(root, 2).craftCost], ["buy", undefined]);
  assert.equal(summary.totalCraftCost, 1_000);
  assert.deepEqual(summary.guildUpgradeIds, [], "nothing left to build");
  assert.equal(summary.partial, false);
  // Not buyable either: crafted, the upgrade named, the total partial.
  const unbuyable = priceRecipeTree(recipes, 1, 1, prices({ 3: 10 }));
  assert.equal(child(unbuyable.root, 2).action, "craft");
  assert.deepEqual(unbuyable.summary.guildUpgradeIds, [77]);
  assert.equal(unbuyable.summary.partial, true);
  // Bought anyway (5 against 10 without the upgrade): no craft figure that would read as a price.
  const cheap = child(priceRecipeTree(recipes, 1, 1, prices({ 2: 5, 3: 10 })).root, 2);
  assert.deepEqual([cheap.action, cheap.cost, cheap.craftCost], ["buy", 5, undefined]);
  // One level down. 4 (20) crafts from 2, whose recipe takes the upgrade; 2 cannot be bought, so
  // 4, the nearest buyable item above it, is bought.
  const deeper = recipeMap(
    recipe(1, [[4, 1]]),
    recipe(4, [[2, 1]]),
    recipe(2, [[3, 1]], { guild: 77 }),
  );
  const four = child(priceRecipeTree(deeper, 1, 1, prices({ 3: 10, 4: 20 })).root, 4);
  assert.deepEqual([four.action, four.cost, four.craftCost], ["buy", 20, undefined]);
  // At 5, 4 is bought anyway: its path still has no coin figure.
  const cheaper = child(priceRecipeTree(deeper, 1, 1, prices({ 3: 10, 4: 5 })).root, 4);
  assert.deepEqual([cheaper.action, cheaper.cost, cheaper.craftCost], ["buy", 5, undefined]);
});

Deno.test("priceRecipeTree() refuses a root without a recipe", () => {
  assert.throws(
    () => priceRecipeTree(recipeMap(recipe(2, [[3, 1]])), 1, 1, new Map()),
    (error: unknown) => error instanceof NotCraftableError && error.itemId === 1,
  );
});

Deno.test("priceRecipeTree() prices three units of a two-level tree to the copper worked out by hand", () => {
  // Everything here can be bought, so no rule about unavailable items can move these figures.
  const recipes = recipeMap(
    recipe(1, [[2, 2], [3, 1]]),
    recipe(2, [[4, 3]], { outputCount: 2 }),
    recipe(3, [[5, 2], [6, 1]]),
  );
  const table = prices({ 1: [1_000, 900], 2: 40, 3: 25, 4: 7, 5: 12, 6: 4 });
  const { root, summary } = priceRecipeTree(recipes, 1, 3, table);
  // Item 2: 6 needed; crafted in ceil(6 / 2) = 3 runs of 3 × item 4 = 9 × 7 = 63 copper, against
  // 6 × 40 = 240 bought: crafted.
  const two = child(root, 2);
  assert.deepEqual([two.action, two.quantity, two.runs, two.cost], ["craft", 6, 3, 63]);
  assert.deepEqual([child(two, 4).quantity, child(two, 4).cost], [9, 63]);
  // Item 3: 3 needed; crafted, 3 × (2 × 12 + 4) = 84, against 3 × 25 = 75 bought: bought.
  const three = child(root, 3);
  assert.deepEqual([three.action, three.quantity, three.cost, three.craftCost], ["buy", 3, 75, 84]);
  // The root is crafted: 63 + 75 = 138. It sells for floor(900 × 0.85) = 765 a unit: 2,295.
  assert.deepEqual(summary, {
    rootId: 1,
    quantity: 3,
    totalCraftCost: 138,
    rootBuyPrice: 3_000,
    netSell: 2_295,
    profit: 2_157,
    unavailableIds: [],
    guildUpgradeIds: [],
    currencies: [],
    partial: false,
  });
});

Deno.test("netSellValue() is floor(buy × 0.85) per unit, times the quantity", () => {
  assert.equal(netSellValue(2603, 1), 2212);
  assert.equal(netSellValue(20, 1), 17);
  assert.equal(netSellValue(100, 3), 255);
  assert.equal(netSellValue(1, 250), 0);
  assert.equal(netSellValue(13_788_406, 1), 11_720_145);
});
