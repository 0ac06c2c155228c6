/**
 * `priory_recipe_tree` over the real stack (MCP client → handler → real GW2 client on an
 * in-memory KV → the fake GW2 API), with `@gw2efficiency/recipe-calculation`'s `cheapestTree`
 * over the fake's own recipes and prices as the oracle for official trees.
 */
import assert from "node:assert/strict";
import { cheapestTree } from "@gw2efficiency/recipe-calculation";
import { nestRecipeByOutputId } from "@gw2efficiency/recipe-nesting";
import { CURATED_RECIPES } from "../../src/data/curated_recipes.ts";
import { priceRecipeTree } from "../../src/tree/pricing.ts";
import { type ShapedTreeNode, shapeRecipeTree } from "../../src/tree/shape.ts";
import { readTreePrices } from "../../src/tree/prices.ts";
import { resolveRecipes } from "../../src/tree/resolve.ts";
import { readHoldings } from "../support/holdings.ts";
import { type FakeWorld, GEN1_LEGENDARY_IDS, TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { silentLogger } from "../../src/log.ts";
import { prioryRecipeTree } from "../../src/tools/priory_recipe_tree.ts";
import { connectClient, startTestApp, textOf } from "../support/app.ts";
import { ECTO, ECTO_PRICE, StubGw2Client } from "./_stub_gw2.ts";

type Structured = {
  summary: Record<string, unknown>;
  names: Record<string, string>;
  tree: ShapedTreeNode;
};
type OracleNode = ReturnType<typeof cheapestTree>;

/**
 * `cheapestTree` straight over the fake's recipes (the lowest recipe id per output), the curated
 * data where the API has no recipe (Howl's tree ends in Obsidian Shards bought for karma), and
 * the fake's prices.
 */
function oracle(world: FakeWorld, rootId: number, quantity: number): OracleNode {
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
  return cheapestTree(quantity, nested, sells);
}

/** Asserts that a node of our tree carries the oracle's figures, down the crafted path. */
function assertSameAsOracle(node: ShapedTreeNode, expected: OracleNode, path: string): void {
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

function depth(node: OracleNode): number {
  return 1 + Math.max(0, ...(node.components ?? []).map(depth));
}

function ids(node: ShapedTreeNode): number[] {
  return [...(node.id === undefined ? [] : [node.id]), ...(node.c ?? []).flatMap(ids)];
}

function tokens(structured: unknown): number {
  return JSON.stringify(structured).length / 4;
}

Deno.test("priory_recipe_tree equals cheapestTree on the same recipes and prices: Orichalcum Ingot and the 7-level Howl", async (t) => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const cases = [
    ["Orichalcum Ingot ×1", WELL_KNOWN.orichalcumIngot, 1],
    ["Orichalcum Ingot ×250", WELL_KNOWN.orichalcumIngot, 250],
    ["Howl (29184)", 29184, 1],
    ["Howl ×3", 29184, 3],
  ] as const;
  for (const [label, itemId, quantity] of cases) {
    await t.step(label, async () => {
      const result = await client.callTool({
        name: "priory_recipe_tree",
        arguments: { itemId, quantity },
      });
      const structured = result.structuredContent as Structured;
      const expected = oracle(app.fake.world, itemId, quantity);
      if (itemId === 29184) assert.ok(depth(expected) >= 7, "a deep tree");
      assertSameAsOracle(structured.tree, expected, "");
      assert.equal(structured.summary.totalCraftCost, expected.craftPrice);
      assert.equal(structured.summary.quantity, quantity);
    });
  }
});

Deno.test("priory_recipe_tree: Sunrise holds its Mystic Forge path, account-bound gifts unavailable, within the token bound", async (t) => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const call = async (itemId: number) =>
    (await client.callTool({ name: "priory_recipe_tree", arguments: { itemId } }))
      .structuredContent as Structured;

  const sunrise = await call(WELL_KNOWN.sunrise);
  const path = [
    WELL_KNOWN.dawn,
    WELL_KNOWN.giftOfSunrise,
    WELL_KNOWN.giftOfMastery,
    WELL_KNOWN.giftOfFortune,
    WELL_KNOWN.mysticClover,
  ];
  const present = ids(sunrise.tree);
  for (const id of path) assert.ok(present.includes(id), `Sunrise's tree holds ${id}`);
  assert.equal(sunrise.names[WELL_KNOWN.mysticClover], "Mystic Clover");
  assert.deepEqual(sunrise.tree.c?.map((node) => node.id), path.slice(0, 4));
  assert.equal(sunrise.tree.via, "forge");
  const mastery = sunrise.tree.c?.find((node) => node.id === WELL_KNOWN.giftOfMastery);
  for (const gift of [19677, 19678]) {
    const node = mastery?.c?.find((entry) => entry.id === gift);
    assert.deepEqual(node, { id: gift, na: true }, `${gift} unavailable, no price`);
  }
  assert.equal(sunrise.summary.partial, true);
  // The two gifts are earned. (Dawn's own craft path also needs collection items since the coin
  // vendors joined the trees: until the buy-when-a-craft-needs-the-unavailable fix of issue 14,
  // the plan crafts Dawn and lists them too.)
  const unavailable = sunrise.summary.unavailable as number[];
  for (const gift of [19678, 19677]) assert.ok(unavailable.includes(gift), `${gift} unavailable`);
  const clover = sunrise.tree.c?.find((node) => node.id === WELL_KNOWN.giftOfFortune)?.c
    ?.find((node) => node.id === WELL_KNOWN.mysticClover);
  assert.deepEqual([clover?.q, clover?.runs, clover?.via], [77, 249, "forge"]);
  const currencies = sunrise.summary.currencies as { id: number; count: number }[];
  assert.ok(currencies.some((currency) => currency.id === 23 && currency.count > 0));

  const sizes = new Map<number, number>();
  for (const id of GEN1_LEGENDARY_IDS) sizes.set(id, tokens(await call(id)));
  for (
    const [name, id] of [["Sunrise", 30703], ["Twilight", 30704], ["Eternity", 30689]] as const
  ) {
    await t.step(`${name} (${id}): ${sizes.get(id)} tokens`, () => {
      assert.ok((sizes.get(id) ?? Infinity) <= 10_000);
    });
  }
  await t.step(
    `every gen-1 legendary ≤ 10,000 tokens (largest ${Math.max(...sizes.values())})`,
    () => {
      assert.ok(Math.max(...sizes.values()) <= 10_000);
    },
  );
  // Whatever the market: with nothing craftable on sale, every recipe in every tree is crafted.
  const resolved = await resolveRecipes(app.gw2, GEN1_LEGENDARY_IDS);
  const { prices } = await readTreePrices(app.gw2, resolved.itemIds);
  const uncraftableOnly = new Map([...prices].filter(([id]) => !resolved.recipes.has(id)));
  const worst = Math.max(...GEN1_LEGENDARY_IDS.map((id) =>
    tokens(shapeRecipeTree(
      priceRecipeTree(resolved.recipes, id, 250, uncraftableOnly),
      resolved.names,
      resolved.currencyNames,
    ))
  ));
  await t.step(
    `every gen-1 legendary fully crafted, ×250: ≤ 10,000 tokens (largest ${worst})`,
    () => {
      assert.ok(worst <= 10_000);
    },
  );
});

Deno.test("priory_recipe_tree: identical input, identical output; a cold tree makes at most 2 price requests, a warm one none", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const call = () =>
    client.callTool({ name: "priory_recipe_tree", arguments: { itemId: WELL_KNOWN.eternity } });
  const cold = await call();
  const requests = app.fake.control.requests.length;
  const priceRequests = app.fake.control.requests.filter((request) =>
    request.path === "/v2/commerce/prices"
  );
  assert.ok(priceRequests.length >= 1 && priceRequests.length <= 2, `${priceRequests.length}`);
  const warm = await call();
  assert.equal(app.fake.control.requests.length, requests, "the warm tree asked upstream nothing");
  assert.equal(textOf(warm), textOf(cold));
  assert.equal(JSON.stringify(warm.structuredContent), JSON.stringify(cold.structuredContent));
});

Deno.test("priory_recipe_tree: unknown and uncraftable items are tool errors naming them", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const unknown = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: WELL_KNOWN.absentItem },
  });
  assert.equal(unknown.isError, true);
  assert.equal(unknown.structuredContent, undefined);
  assert.match(textOf(unknown), /^Not found: the GW2 API has no item with id 1\b/);
  const leaf = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: WELL_KNOWN.globOfEctoplasm },
  });
  assert.equal(leaf.isError, true);
  assert.match(textOf(leaf), /^Not craftable: item 19721 \(Glob of Ectoplasm\) has no recipe/);
  assert.match(textOf(leaf), /gw2_prices/);
});

Deno.test("priory_recipe_tree: quantity defaults to 1 and is bounded to 1–250", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const single = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: WELL_KNOWN.orichalcumIngot },
  });
  assert.equal((single.structuredContent as Structured).summary.quantity, 1);
  for (const quantity of [0, 251, 2.5]) {
    const refused = await client.callTool({
      name: "priory_recipe_tree",
      arguments: { itemId: WELL_KNOWN.orichalcumIngot, quantity },
    });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /quantity must be a whole number from 1 to 250, not /);
  }
});

Deno.test("priory_recipe_tree carries stale_age_s, other currencies and guild upgrades into the summary", async () => {
  const gw2 = new StubGw2Client({ staleAgeMs: 4_200 });
  const result = await prioryRecipeTree.handle(
    { itemId: ECTO.id, quantity: 2, useAccount: false },
    {
      gw2,
      log: silentLogger,
    },
  );
  assert.equal(result.stale_age_s, 5);
  assert.deepEqual(result.summary, {
    rootId: ECTO.id,
    quantity: 2,
    totalCraftCost: 0,
    rootBuyPrice: 2 * ECTO_PRICE.sells.unit_price,
    netSell: 2 * 2212,
    profit: 2 * 2212,
    partial: true,
    unavailable: [19976],
    guildUpgrades: [1024],
    currencies: [{ id: 2, name: "Karma", count: 300 }],
  });
  assert.deepEqual(result.tree.c, [{ id: 19976, q: 10, na: true }, { cur: 2, q: 300 }]);
});

type AccountTree = Structured & {
  summary: Structured["summary"] & { saved: number; totalCraftCost: number };
  toBuy: Record<string, number | boolean>[];
};

function find(node: ShapedTreeNode, id: number): ShapedTreeNode | undefined {
  if (node.id === id) return node;
  for (const child of node.c ?? []) {
    const found = find(child, id);
    if (found !== undefined) return found;
  }
  return undefined;
}

Deno.test("priory_recipe_tree useAccount lowers the cost by exactly what owned materials cover and lists the rest", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.full },
  });
  const ore = WELL_KNOWN.orichalcumOre;
  const oreSell = app.fake.world.prices.get(ore)?.sells.unit_price ?? 0;
  const owned = (await readHoldings(app.gw2, TEST_KEYS.full)).counts.get(ore) ?? 0;
  const needed = 2 * 250; // an ingot is refined from 2 ore; the root is always crafted
  assert.ok(owned > 0 && owned < needed, `the account holds ${owned} ore, some of the ${needed}`);
  const call = async (useAccount: boolean) =>
    (await client.callTool({
      name: "priory_recipe_tree",
      arguments: { itemId: WELL_KNOWN.orichalcumIngot, quantity: 250, useAccount },
    })).structuredContent as AccountTree;

  const plain = await call(false);
  const held = await call(true);
  assert.equal(plain.summary.totalCraftCost, needed * oreSell);
  assert.equal(held.summary.totalCraftCost, plain.summary.totalCraftCost - owned * oreSell);
  assert.equal(held.summary.saved, owned * oreSell);
  assert.equal(held.summary.profit, (held.summary.netSell as number) - held.summary.totalCraftCost);
  assert.deepEqual(held.tree.c, [{
    id: ore,
    q: needed,
    own: owned,
    cost: (needed - owned) * oreSell,
  }]);
  assert.deepEqual(held.toBuy, [
    { id: ore, count: needed - owned, unit: oreSell, total: (needed - owned) * oreSell },
  ]);
  assert.equal("toBuy" in plain, false, "without useAccount the result is unchanged");
  assert.equal("saved" in plain.summary, false);
});

Deno.test("priory_recipe_tree useAccount: an owned gift removes its whole subtree; the list adds up to the cost", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, {
    era: "2026",
    headers: { "X-GW2-Key": TEST_KEYS.veteran },
  });
  const call = async (useAccount: boolean) =>
    (await client.callTool({
      name: "priory_recipe_tree",
      arguments: { itemId: WELL_KNOWN.sunrise, useAccount },
    })).structuredContent as AccountTree;
  const plain = await call(false);
  const held = await call(true);
  // The veteran holds Gift of Fortune and Gift of Mastery (bank): nothing below them is needed,
  // including the account-bound gifts under Mastery that the plain tree lists as unavailable.
  const accountBound = [19677, 19678];
  const unavailable = (tree: AccountTree) => (tree.summary.unavailable ?? []) as number[];
  for (const gift of accountBound) {
    assert.ok(unavailable(plain).includes(gift), `plain: ${gift} unavailable`);
    assert.ok(!unavailable(held).includes(gift), `held: ${gift} not needed`);
  }
  for (const gift of [WELL_KNOWN.giftOfFortune, WELL_KNOWN.giftOfMastery]) {
    assert.deepEqual(find(held.tree, gift), { id: gift, own: 1 });
  }
  const listed = held.toBuy.map((line) => line.id ?? -Number(line.cur));
  for (const below of [WELL_KNOWN.mysticClover, ...accountBound]) {
    assert.ok(!listed.includes(below), `${below} is not to buy`);
  }
  const itemsTotal = held.toBuy.reduce((sum, line) => sum + Number(line.total ?? 0), 0);
  const coin = held.toBuy.find((line) => line.cur === 1)?.count ?? 0;
  assert.equal(itemsTotal + Number(coin), held.summary.totalCraftCost);
  assert.ok(held.summary.saved > 0);
  assert.equal(
    held.summary.saved,
    plain.summary.totalCraftCost - held.summary.totalCraftCost,
  );
  for (const line of held.toBuy) {
    if (line.id !== undefined) assert.ok(held.names[String(line.id)], `${line.id} is named`);
  }
});

Deno.test("priory_recipe_tree useAccount without a key, or with one lacking scopes, spends no tree request", async () => {
  await using app = await startTestApp();
  const args = { itemId: WELL_KNOWN.sunrise, useAccount: true };
  {
    await using client = await connectClient(app.handler);
    const result = await client.callTool({ name: "priory_recipe_tree", arguments: args });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^No GW2 API key: .*X-GW2-Key/);
    assert.equal(app.fake.control.requests.length, 0);
  }
  await using client = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.accountOnly },
  });
  const result = await client.callTool({ name: "priory_recipe_tree", arguments: args });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /lacks the "inventories", "characters" permissions/);
  assert.deepEqual(app.fake.control.requests.map((request) => request.path), ["/v2/tokeninfo"]);
});
