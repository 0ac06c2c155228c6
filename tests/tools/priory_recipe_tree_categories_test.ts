/**
 * `priory_recipe_tree` for every kind of legendary, on the fake's real records (issue 14): a
 * generation-2 and a generation-3 weapon, an armor piece, a trinket, a back, the rune and the
 * sigil. Each is checked against what the game says the recipe is (its gifts and their counts,
 * written here by hand) and against figures derived by hand from the fake's prices; the rune
 * against gw2efficiency's `cheapestTree` too. Then every legendary with a tree: within 10,000
 * tokens, the worst case included, and the same answer twice.
 */
import assert from "node:assert/strict";
import { LEGENDARIES } from "../../src/data/legendaries.ts";
import { rankableIds } from "../../src/ranking/rank.ts";
import { priceRecipeTree } from "../../src/tree/pricing.ts";
import { readTreePrices } from "../../src/tree/prices.ts";
import { resolveRecipes } from "../../src/tree/resolve.ts";
import { type ShapedTreeNode, shapeRecipeTree } from "../../src/tree/shape.ts";
import { purchases, shoppingList } from "../../src/tree/shopping_list.ts";
import { WELL_KNOWN } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, type TestApp } from "../support/app.ts";
import { assertSameAsOracle, oracle } from "./_tree_oracle.ts";

type Tree = {
  summary: { totalCraftCost: number; partial?: true; unavailable?: number[] };
  names: Record<string, string>;
  tree: ShapedTreeNode;
};

const MYSTIC_COIN = 19976;
const ECTO = 19721;
const MYSTIC_CLOVER = 19675;
const MYSTIC_TRIBUTE = 71820;
const CONDENSED_MIGHT = 70867;
const CONDENSED_MAGIC = 76530;

/**
 * The fine-material families, tier 6 to tier 3 (real ids). A condensed gift takes, per family,
 * 100 of tier 6, 250 of tier 5 and 50 each of tiers 4 and 3; Gift of Might and Gift of Magic
 * take 250 of each family's tier 6.
 */
const MIGHT_FAMILIES = [
  [24351, 24350, 24349, 24348], // claws
  [24289, 24288, 24287, 24286], // scales
  [24358, 24341, 24345, 24344], // bones
  [24357, 24356, 24355, 24354], // fangs
] as const;
const MAGIC_FAMILIES = [
  [24295, 24294, 24293, 24292], // blood
  [24283, 24282, 24281, 24280], // venom
  [24300, 24299, 24363, 24298], // totems
  [24277, 24276, 24275, 24274], // dust
] as const;

/** The fake's lowest sell listing of `id`. */
function sell(app: TestApp, id: number): number {
  const price = app.fake.world.prices.get(id)?.sells.unit_price;
  assert.ok(price !== undefined && price > 0, `${id} sells on the fake`);
  return price;
}

/** What a condensed gift costs, every material bought. */
function condensed(app: TestApp, families: typeof MIGHT_FAMILIES | typeof MAGIC_FAMILIES): number {
  return families.reduce(
    (sum, [t6, t5, t4, t3]) =>
      sum + 100 * sell(app, t6) + 250 * sell(app, t5) + 50 * (sell(app, t4) + sell(app, t3)),
    0,
  );
}

/**
 * `count` Mystic Clovers from the Mystic Forge at gw2efficiency's expected 0.31 per attempt: each
 * attempt an Obsidian Shard (karma), a Mystic Coin, a Glob of Ectoplasm and 6 Philosopher's
 * Stones (spirit shards) — coin and ectoplasm are the copper.
 */
function clovers(app: TestApp, count: number): number {
  return Math.ceil(count / 0.31) * (sell(app, MYSTIC_COIN) + sell(app, ECTO));
}

/** Mystic Tribute: 2 of each condensed gift, 77 Mystic Clovers, 250 Mystic Coins. */
function mysticTribute(app: TestApp): number {
  return 2 * condensed(app, MAGIC_FAMILIES) + 2 * condensed(app, MIGHT_FAMILIES) +
    clovers(app, 77) + 250 * sell(app, MYSTIC_COIN);
}

function child(node: ShapedTreeNode | undefined, id: number): ShapedTreeNode {
  const found = node?.c?.find((entry) => entry.id === id);
  assert.ok(found, `${node?.id} has ingredient ${id}`);
  return found;
}

/** The ingredients of a crafted node as `[id, quantity]`, currencies as negative ids. */
function ingredients(node: ShapedTreeNode): [number, number][] {
  return (node.c ?? []).map((entry) => [entry.id ?? -(entry.cur ?? 0), entry.q ?? 1]);
}

async function setup() {
  const app = await startTestApp();
  const client = await connectClient(app.handler);
  const tree = async (itemId: number) => {
    const result = await client.callTool({ name: "priory_recipe_tree", arguments: { itemId } });
    assert.equal(result.isError, undefined, `${itemId}`);
    return result.structuredContent as Tree;
  };
  return {
    app,
    tree,
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await app[Symbol.asyncDispose]();
    },
  };
}

Deno.test("a generation-2 weapon (Astralaria): the Mystic Forge of its four parts, Mystic Tribute priced by hand", async () => {
  await using env = await setup();
  const { app } = env;
  const astralaria = await env.tree(WELL_KNOWN.astralaria);
  const { tree } = astralaria;
  assert.equal(tree.via, "forge");
  // The Mechanism (its precursor), Mystic Tribute, Gift of Astralaria, Gift of Maguuma Mastery.
  assert.deepEqual(ingredients(tree), [[71426, 1], [MYSTIC_TRIBUTE, 1], [71972, 1], [73239, 1]]);
  const tribute = child(tree, MYSTIC_TRIBUTE);
  assert.deepEqual(ingredients(tribute), [
    [CONDENSED_MAGIC, 2],
    [CONDENSED_MIGHT, 2],
    [MYSTIC_CLOVER, 77],
    [MYSTIC_COIN, 250],
  ]);
  assert.equal(tribute.cost, mysticTribute(app));
  // 250 Crystalline Ingots in Gift of Maguuma Mastery: account bound, refined (official).
  const ingots = child(child(tree, 73239), 46683);
  assert.equal(ingots.q, 250);
  assert.ok(ingots.c !== undefined && ingots.via === undefined, "crafted by an official recipe");
  // The precursor is account bound (no price): crafted, its collection items to earn.
  const mechanism = child(tree, 71426);
  assert.equal(mechanism.na, undefined);
  assert.deepEqual(child(mechanism, 74457), { id: 74457, na: true });
  assert.equal(astralaria.summary.partial, true);
  assert.ok(astralaria.summary.unavailable?.includes(74457));
  assert.equal(astralaria.names[WELL_KNOWN.astralaria], "Astralaria");
});

Deno.test("a generation-3 weapon (Aurene's Bite): its tradeable precursor bought, Draconic Tribute priced by hand", async () => {
  await using env = await setup();
  const { app } = env;
  const { tree } = await env.tree(WELL_KNOWN.aurenesBite);
  assert.equal(tree.via, "forge");
  // Gift of Aurene's Bite, Dragon's Bite (the precursor), Gift of Jade Mastery, Draconic Tribute.
  assert.deepEqual(ingredients(tree), [[97027, 1], [96357, 1], [96033, 1], [96137, 1]]);
  const precursor = child(tree, 96357);
  assert.equal(precursor.cost, sell(app, 96357), "bought at its sell price");
  assert.equal(precursor.c, undefined);
  // Draconic Tribute: one of each condensed gift, 5 Amalgamated Draconic Lodestones, 38 clovers.
  const tribute = child(tree, 96137);
  assert.deepEqual(ingredients(tribute), [
    [CONDENSED_MIGHT, 1],
    [CONDENSED_MAGIC, 1],
    [92687, 5],
    [MYSTIC_CLOVER, 38],
  ]);
  assert.equal(
    tribute.cost,
    condensed(app, MIGHT_FAMILIES) + condensed(app, MAGIC_FAMILIES) + 5 * sell(app, 92687) +
      clovers(app, 38),
  );
  assert.deepEqual([child(tribute, MYSTIC_CLOVER).runs], [123]);
});

Deno.test("legendary armor (Perfected Envoy Helmet): its four parts, Gift of Prosperity priced by hand", async () => {
  await using env = await setup();
  const { app } = env;
  const helmet = await env.tree(WELL_KNOWN.perfectedEnvoyHelmet);
  const { tree } = helmet;
  // Refined Envoy Helmet, Gift of Prosperity, Gift of Prowess, Gift of Dedication.
  assert.deepEqual(ingredients(tree), [[80387, 1], [78866, 1], [78989, 1], [78936, 1]]);
  const prosperity = child(tree, 78866);
  assert.equal(
    prosperity.cost,
    clovers(app, 15) + condensed(app, MAGIC_FAMILIES) + condensed(app, MIGHT_FAMILIES),
  );
  // Gift of Prowess takes 25 Legendary Insights, a currency: counted, never priced.
  const prowess = child(tree, 78989);
  assert.deepEqual(prowess.c?.find((entry) => entry.cur === 70), { cur: 70, q: 25 });
  assert.equal(helmet.summary.partial, true);
});

Deno.test("a trinket (Aurora): Spark of Sentience is earned, Mystic Tribute priced by hand", async () => {
  await using env = await setup();
  const { app } = env;
  const aurora = await env.tree(WELL_KNOWN.aurora);
  const { tree } = aurora;
  // Spark of Sentience, Mystic Tribute, Gift of Sentience, Gift of Draconic Mastery.
  assert.deepEqual(ingredients(tree), [[81729, 1], [MYSTIC_TRIBUTE, 1], [81796, 1], [81861, 1]]);
  assert.deepEqual(child(tree, 81729), { id: 81729, na: true });
  assert.equal(child(tree, MYSTIC_TRIBUTE).cost, mysticTribute(app));
  assert.ok(aurora.summary.unavailable?.includes(81729));
});

Deno.test("a back (Ad Infinitum): Gift of Fortune as for generation 1, Gift of Ascension paid in coin", async () => {
  await using env = await setup();
  const { app } = env;
  const { tree } = await env.tree(WELL_KNOWN.adInfinitum);
  // Unbound, Gift of Infinity (earned), Gift of Fortune, Gift of Ascension.
  assert.deepEqual(ingredients(tree), [[72309, 1], [74377, 1], [WELL_KNOWN.giftOfFortune, 1], [
    37070,
    1,
  ]]);
  assert.deepEqual(child(tree, 74377), { id: 74377, na: true });
  // Gift of Fortune: Gift of Magic and Gift of Might (250 of each family's tier 6), 77 clovers,
  // 250 Glob of Ectoplasm.
  const tier6 = (families: typeof MIGHT_FAMILIES | typeof MAGIC_FAMILIES) =>
    families.reduce((sum, [t6]) => sum + 250 * sell(app, t6), 0);
  assert.equal(
    child(tree, WELL_KNOWN.giftOfFortune).cost,
    tier6(MAGIC_FAMILIES) + tier6(MIGHT_FAMILIES) + clovers(app, 77) + 250 * sell(app, ECTO),
  );
  // Gift of Ascension from a vendor: 500 Fractal Relics (counted) and 2,520 copper.
  const ascension = child(tree, 37070);
  assert.deepEqual([ascension.via, ascension.cost], ["vendor", 2_520]);
  assert.deepEqual(ingredients(ascension), [[-7, 500], [-1, 2_520]]);
});

Deno.test("the Legendary Rune and Sigil: totals by hand, and the rune equal to cheapestTree", async () => {
  await using env = await setup();
  const { app } = env;
  const rune = await env.tree(WELL_KNOWN.legendaryRune);
  // Gift of Runes (50 Mystic Aspects, 20 clovers, 100 ectoplasm, 50 Obsidian Shards for karma),
  // Gift of Craftsmanship (Provisioner Tokens), and one of each condensed gift.
  assert.deepEqual(ingredients(rune.tree), [[89218, 1], [77451, 1], [CONDENSED_MIGHT, 1], [
    CONDENSED_MAGIC,
    1,
  ]]);
  const gifts = condensed(app, MIGHT_FAMILIES) + condensed(app, MAGIC_FAMILIES);
  assert.equal(
    rune.summary.totalCraftCost,
    50 * sell(app, 89105) + clovers(app, 20) + 100 * sell(app, ECTO) + gifts,
  );
  assertSameAsOracle(rune.tree, oracle(app.fake.world, WELL_KNOWN.legendaryRune, 1), "");
  // The sigil: Gift of Sigils takes 75 Mystic Motes, 30 clovers, 150 ectoplasm, 75 shards.
  const sigil = await env.tree(WELL_KNOWN.legendarySigil);
  assert.equal(
    sigil.summary.totalCraftCost,
    75 * sell(app, 89133) + clovers(app, 30) + 150 * sell(app, ECTO) + gifts,
  );
});

Deno.test("every legendary with a tree answers within 10,000 tokens, the worst case included, the same twice", async (t) => {
  await using env = await setup();
  const ids = rankableIds(LEGENDARIES);
  const sizes = new Map<number, number>();
  for (const id of ids) {
    const first = await env.tree(id);
    const again = await env.tree(id);
    assert.deepEqual(again, first, `${id}: deterministic`);
    sizes.set(id, JSON.stringify(first).length / 4);
  }
  const sorted = [...sizes.values()].sort((a, b) => a - b);
  const largest = [...sizes].reduce((best, entry) => entry[1] > best[1] ? entry : best);
  await t.step(
    `${ids.length} trees: largest ${largest[1]} tokens (${largest[0]}), median ${
      sorted[Math.floor(sorted.length / 2)]
    }`,
    () => assert.ok(largest[1] <= 10_000),
  );
  // Whatever the market: with nothing craftable on sale, every recipe of every tree is crafted.
  const resolved = await resolveRecipes(env.app.gw2, ids);
  const { prices } = await readTreePrices(env.app.gw2, resolved.itemIds);
  const uncraftableOnly = new Map([...prices].filter(([id]) => !resolved.recipes.has(id)));
  // With its shopping list (unread books: the rows carry `noDepth`, the longest form).
  const worst = Math.max(...ids.map((id) => {
    const plan = priceRecipeTree(resolved.recipes, id, 250, uncraftableOnly);
    const { toBuy } = shoppingList(purchases(plan, prices, resolved.recipes), new Map());
    return JSON.stringify({
      ...shapeRecipeTree(plan, resolved.names, resolved.currencyNames),
      toBuy,
    }).length / 4;
  }));
  await t.step(`every tree fully crafted, ×250, with its list: largest ${worst} tokens`, () => {
    assert.ok(worst <= 10_000);
  });
});
