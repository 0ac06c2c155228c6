/**
 * `priory_recipe_tree` over the real stack (MCP client → handler → real GW2 client on an
 * in-memory KV → the fake GW2 API), with `@gw2efficiency/recipe-calculation`'s `cheapestTree`
 * over the fake's own recipes and prices as the oracle for official trees.
 */
import assert from "node:assert/strict";
import { priceRecipeTree } from "../../src/tree/pricing.ts";
import { type ShapedTreeNode, shapeRecipeTree } from "../../src/tree/shape.ts";
import { assertSameAsOracle, oracle, type OracleNode } from "./_tree_oracle.ts";
import { readTreePrices } from "../../src/tree/prices.ts";
import { resolveRecipes } from "../../src/tree/resolve.ts";
import { purchases, shoppingList } from "../../src/tree/shopping_list.ts";
import { readHoldings } from "../support/holdings.ts";
import { GEN1_LEGENDARY_IDS, TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { silentLogger } from "../../src/log.ts";
import { prioryRecipeTree } from "../../src/tools/priory_recipe_tree.ts";
import { connectClient, startTestApp, textOf } from "../support/app.ts";
import { ECTO, ECTO_PRICE, StubGw2Client } from "./_stub_gw2.ts";

type Structured = {
  summary: Record<string, unknown>;
  names: Record<string, string>;
  tree: ShapedTreeNode;
};
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

Deno.test("priory_recipe_tree: The Bifrost buys its precursor at its sell price instead of crafting it from collection items", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const bifrost = 30698;
  const theLegend = 29180;
  const legendSell = app.fake.world.prices.get(theLegend)?.sells.unit_price;
  assert.ok(legendSell !== undefined && legendSell > 1_000_000, "The Legend sells on the fake");
  const result = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: bifrost },
  });
  const structured = result.structuredContent as Structured;
  // The oracle figure: the precursor's own sell price.
  assert.deepEqual(structured.tree.c?.find((node) => node.id === theLegend), {
    id: theLegend,
    cost: legendSell,
  });
  // The whole tree by hand: the library's plan without the rule, with The Legend's craft (from
  // account-bound collection items counted as 0) replaced by its sell price — and the same as
  // the library told to buy it.
  const unruled = oracle(app.fake.world, bifrost, 1);
  const legendCraft = unruled.components?.find((node) => node.id === theLegend);
  assert.equal(legendCraft?.craft, true, "without the rule the library crafts it");
  const expected = (unruled.craftPrice ?? 0) - (legendCraft?.craftPrice ?? 0) + legendSell;
  assert.equal(structured.summary.totalCraftCost, expected);
  assert.equal(expected, oracle(app.fake.world, bifrost, 1, [theLegend]).craftPrice);
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
  // Only the two gifts are earned: Dawn, whose craft needs collection items, is bought.
  assert.deepEqual(sunrise.summary.unavailable, [19678, 19677]);
  assert.deepEqual(sunrise.tree.c?.find((node) => node.id === WELL_KNOWN.dawn), {
    id: WELL_KNOWN.dawn,
    cost: app.fake.world.prices.get(WELL_KNOWN.dawn)?.sells.unit_price,
  });
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
    `every gen-1 legendary with its list ≤ 10,000 tokens (largest ${Math.max(...sizes.values())})`,
    () => {
      assert.ok(Math.max(...sizes.values()) <= 10_000);
    },
  );
  // Whatever the market: with nothing craftable on sale, every recipe in every tree is crafted.
  const resolved = await resolveRecipes(app.gw2, GEN1_LEGENDARY_IDS);
  const { prices } = await readTreePrices(app.gw2, resolved.itemIds);
  const uncraftableOnly = new Map([...prices].filter(([id]) => !resolved.recipes.has(id)));
  // With its list, every purchase flagged (no book read): the longest rows there are.
  const worst = Math.max(...GEN1_LEGENDARY_IDS.map((id) => {
    const plan = priceRecipeTree(resolved.recipes, id, 250, uncraftableOnly);
    const { toBuy } = shoppingList(purchases(plan, uncraftableOnly, resolved.recipes), new Map());
    return tokens({
      ...shapeRecipeTree(plan, resolved.names, resolved.currencyNames),
      toBuy,
    });
  }));
  await t.step(
    `every gen-1 legendary fully crafted, ×250, with its list: ≤ 10,000 tokens (largest ${worst})`,
    () => {
      assert.ok(worst <= 10_000);
    },
  );
});

Deno.test("priory_recipe_tree: identical input, identical output; a cold tree makes at most 2 price requests and one listings request, a warm one none", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const call = () =>
    client.callTool({ name: "priory_recipe_tree", arguments: { itemId: WELL_KNOWN.eternity } });
  const cold = await call();
  const requests = app.fake.control.requests.length;
  const to = (path: string) => app.fake.control.requests.filter((request) => request.path === path);
  const priceRequests = to("/v2/commerce/prices");
  assert.ok(priceRequests.length >= 1 && priceRequests.length <= 2, `${priceRequests.length}`);
  // ⌈n / 200⌉ for the n items the plan buys on the Trading Post, and only those.
  const bought = (cold.structuredContent as AccountTree).toBuy.filter((line) => "unit" in line);
  assert.deepEqual(to("/v2/commerce/listings").map((request) => request.idCount), [bought.length]);
  const warm = await call();
  assert.equal(app.fake.control.requests.length, requests, "the warm tree asked upstream nothing");
  assert.equal(textOf(warm), textOf(cold));
  assert.equal(JSON.stringify(warm.structuredContent), JSON.stringify(cold.structuredContent));
});

type Row = Record<string, number | string | boolean>;

function row(tree: AccountTree, id: number): Row | undefined {
  return tree.toBuy.find((line) => line.id === id) as Row | undefined;
}

Deno.test("priory_recipe_tree: toBuy walks the fake's order books, one row per item over the whole tree", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const sunrise = (await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: WELL_KNOWN.sunrise },
  })).structuredContent as AccountTree;
  // Figures worked by hand from the fake's books (docs/fake-gw2.md, "Order books").
  // Charged Lodestone, 100 needed; book 23 @ 114,270, 34 @ 132,533, 36 @ 153,044: 93 listed,
  // 7 short at 153,044.
  assert.deepEqual(row(sunrise, 24305), {
    id: 24305,
    count: 100,
    unit: 114_270,
    total: 23 * 114_270 + 34 * 132_533 + 36 * 153_044 + 7 * 153_044,
    short: 7,
  });
  // Crystalline Dust, 250 needed: fourteen levels (21 @ 4,211 … 20 @ 5,383), then 5 @ 5,484.
  assert.deepEqual(row(sunrise, WELL_KNOWN.pileOfCrystallineDust), {
    id: WELL_KNOWN.pileOfCrystallineDust,
    count: 250,
    unit: 4_211,
    total: 1_204_117,
  });
  // Ectoplasm: 250 for Gift of Fortune and 249 for the clovers' 249 attempts, one row, inside
  // the first level (7,319 @ 2,797).
  assert.deepEqual(row(sunrise, WELL_KNOWN.globOfEctoplasm), {
    id: WELL_KNOWN.globOfEctoplasm,
    count: 499,
    unit: 2_797,
    total: 499 * 2_797,
  });
  // Icy Runestone: 100 for Gift of Sunrise, 10,000 copper each from a vendor.
  assert.deepEqual(row(sunrise, WELL_KNOWN.icyRunestone), {
    id: WELL_KNOWN.icyRunestone,
    count: 100,
    vendor: "Rojan the Penitent",
    total: 1_000_000,
  });
  assert.equal(sunrise.toBuy.filter((line) => line.cur === 1).length, 0, "coin is in vendor rows");
  const ids = sunrise.toBuy.map((line) => line.id ?? -Number(line.cur));
  assert.equal(new Set(ids).size, ids.length, "one row per item or currency");
  const totals = sunrise.toBuy.reduce((sum, line) => sum + Number(line.total ?? 0), 0);
  assert.equal(sunrise.summary.buyCost, totals);
  assert.equal(
    sunrise.summary.depthExtra,
    sunrise.summary.buyCost - sunrise.summary.totalCraftCost,
  );
  assert.ok(sunrise.summary.depthExtra > 0);
});

Deno.test("priory_recipe_tree: craftCheaper when buying the count at depth costs more than crafting it", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const kudzu = (await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: 30685, quantity: 10 },
  })).structuredContent as AccountTree;
  // Superior Sigil of Celerity (24865), 10 needed, the book 2 short: at unit prices the tree buys
  // them (crafting costs more), at depth crafting would cost less.
  const sigils = row(kudzu, 24865);
  assert.ok(sigils);
  const node = find(kudzu.tree, 24865);
  assert.ok(node?.craft !== undefined && node.cost === 10 * Number(sigils.unit));
  assert.equal(sigils.short, 2);
  assert.ok(node.craft > Number(node.cost) && node.craft < Number(sigils.total));
  assert.equal(sigils.craftCheaper, true);
  // A precursor whose craft needs collection items is bought by the rule: its craft path has no
  // price, so the tree shows none and the list never calls crafting cheaper.
  const moot = (await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: 30692, quantity: 5 },
  })).structuredContent as AccountTree;
  const energizer = row(moot, 29173);
  assert.ok(energizer);
  assert.deepEqual([energizer.count, energizer.unit], [5, 12_020_736]);
  assert.equal("craftCheaper" in energizer, false);
  assert.equal(find(moot.tree, 29173)?.craft, undefined);
});

Deno.test("priory_recipe_tree: a huge book's 502 does not fail the tree; its row keeps the unit price, flagged noDepth", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  app.fake.control.setBook(WELL_KNOWN.globOfEctoplasm, "huge");
  app.fake.control.setBook(WELL_KNOWN.dawn, "sold_out");
  const result = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: WELL_KNOWN.sunrise, quantity: 2 },
  });
  assert.equal(result.isError, undefined);
  const sunrise = result.structuredContent as AccountTree;
  // 2 × 250 for the gifts, 497 for the clovers' ⌈154 / 0.31⌉ attempts.
  assert.deepEqual(row(sunrise, WELL_KNOWN.globOfEctoplasm), {
    id: WELL_KNOWN.globOfEctoplasm,
    count: 997,
    unit: 2_797,
    total: 997 * 2_797,
    noDepth: true,
  });
  // Dawn sold out since the price read: both units missing, priced at the last lowest listing.
  assert.deepEqual(row(sunrise, WELL_KNOWN.dawn), {
    id: WELL_KNOWN.dawn,
    count: 2,
    unit: 3_523_871,
    total: 2 * 3_523_871,
    short: 2,
  });
  assert.ok(sunrise.toBuy.filter((line) => "noDepth" in line).length === 1, "only the huge one");
  const listings = app.fake.control.requests.filter((request) =>
    request.path === "/v2/commerce/listings"
  );
  assert.ok(listings.some((request) => request.idCount === 1 && request.status === 502));
  assert.ok(listings.length <= 1 + 2 * Math.ceil(Math.log2(listings[0]?.idCount ?? 1)));
});

Deno.test("priory_recipe_tree: with the listings endpoint down the tree still answers, every purchase at its unit price", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  app.fake.control.injectFault("not_active", {
    endpoint: "/v2/commerce/listings",
    times: Infinity,
  });
  const result = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: WELL_KNOWN.sunrise },
  });
  assert.equal(result.isError, undefined);
  const sunrise = result.structuredContent as AccountTree;
  const market = sunrise.toBuy.filter((line) => "unit" in line);
  assert.ok(market.length > 0 && market.every((line) => line.noDepth === true));
  assert.ok(market.every((line) => line.total === Number(line.unit) * Number(line.count)));
  assert.equal(sunrise.summary.depthExtra, 0);
  assert.equal(sunrise.summary.buyCost, sunrise.summary.totalCraftCost);
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
    buyCost: 0,
    depthExtra: 0,
    partial: true,
    unavailable: [19976],
    guildUpgrades: [1024],
    currencies: [{ id: 2, name: "Karma", count: 300 }],
  });
  assert.deepEqual(result.tree.c, [{ id: 19976, q: 10, na: true }, { cur: 2, q: 300 }]);
  assert.deepEqual(result.toBuy, [{ id: 19976, count: 10, na: true }, { cur: 2, count: 300 }]);
});

type AccountTree = Structured & {
  summary: Structured["summary"] & {
    saved: number;
    totalCraftCost: number;
    buyCost: number;
    depthExtra: number;
  };
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
  // Orichalcum Ore's book lists far more than 500 at its lowest price: no depth.
  assert.ok((app.fake.world.listings.get(ore)?.sells[0]?.quantity ?? 0) > needed);
  assert.deepEqual(held.toBuy, [
    { id: ore, count: needed - owned, unit: oreSell, total: (needed - owned) * oreSell },
  ]);
  assert.deepEqual(plain.toBuy, [{
    id: ore,
    count: needed,
    unit: oreSell,
    total: needed * oreSell,
  }]);
  assert.equal("saved" in plain.summary, false, "saved only with useAccount");
});

Deno.test("priory_recipe_tree useAccount: a precursor a character wears is the player's, not bought", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.veteran },
  });
  const hunter = WELL_KNOWN.theHunter;
  const hunterSell = app.fake.world.prices.get(hunter)?.sells.unit_price ?? 0;
  assert.ok(hunterSell > 0);
  const call = async (useAccount: boolean) =>
    (await client.callTool({
      name: "priory_recipe_tree",
      arguments: { itemId: WELL_KNOWN.predator, useAccount },
    })).structuredContent as AccountTree;
  const plain = await call(false);
  assert.deepEqual(plain.tree.c?.find((node) => node.id === hunter), {
    id: hunter,
    cost: hunterSell,
  });
  // Aldric wears it (an inactive equipment tab), and it lies nowhere else on the account.
  const held = await call(true);
  assert.deepEqual(held.tree.c?.find((node) => node.id === hunter), { id: hunter, own: 1 });
  assert.ok((held.summary.saved ?? 0) >= hunterSell, "the holdings cover the precursor's price");
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
  assert.equal(itemsTotal + Number(coin), held.summary.buyCost);
  assert.equal(held.summary.buyCost - held.summary.depthExtra, held.summary.totalCraftCost);
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
