import assert from "node:assert/strict";
import { LEGENDARIES, LEGENDARIES_WITHOUT_TREE } from "../../src/data/legendaries.ts";
import {
  planLegendaries,
  rankableIds,
  rankingPurchases,
  rankLegendaries,
  shapeRanking,
} from "../../src/ranking/rank.ts";
import type { TreePrice, TreeRecipe } from "../../src/tree/pricing.ts";
import { recipe } from "../tree/_recipes.ts";

/**
 * Four legendaries: 101 needs 10 × item 1 (bought, 100 each) and sells for 2,000; 102 needs
 * item 2 (no price, no recipe) and 5 × item 1 plus 50 spirit shards; 103 has no buy order;
 * 104 has no recipe; 105 has a recipe but upstream does not know it (no name).
 */
const LEGENDS = [
  { id: 101, name: "Alpha" },
  { id: 102, name: "Beta" },
  { id: 103, name: "Gamma" },
  { id: 104, name: "Delta" },
  { id: 105, name: "Epsilon" },
];
const RECIPES = new Map<number, TreeRecipe>([
  [101, recipe(101, [[1, 10]])],
  [102, recipe(102, [[2, 1], [1, 5], [-23, 50]])],
  [103, recipe(103, [[1, 1]])],
  [105, recipe(105, [[1, 1]])],
]);
const PRICES = new Map<number, TreePrice>([
  [1, { sell: 100, buy: 90 }],
  [101, { sell: 3_000, buy: 2_353 }], // floor(2353 × 0.85) = 2000
  [102, { sell: 9_000, buy: 8_000 }], // 6800
  [103, { sell: 500, buy: 0 }],
]);
const NAMES = new Map([
  [101, "Alpha"],
  [102, "Beta"],
  [103, "Gamma"],
  [104, "Delta"],
  [1, "Ore"],
  [2, "Gift of Exploration"],
]);
const CURRENCY_NAMES = new Map([[23, "Spirit Shard"]]);
/** The player holds 4 ore. */
const INPUTS = { recipes: RECIPES, names: NAMES, prices: PRICES, owned: new Map([[1, 4]]) };
/** No book read: every purchase at its unit price. */
const UNREAD = { currencyNames: CURRENCY_NAMES, books: new Map() };

Deno.test("rankLegendaries() ranks by profit with holdings used first, and counts what it cannot price", () => {
  const ranking = rankLegendaries(planLegendaries(LEGENDS, INPUTS), UNREAD);
  assert.deepEqual(ranking.rows, [
    {
      id: 102,
      name: "Beta",
      cost: 100,
      sell: 6_800,
      profit: 6_700,
      saved: 400,
      partial: true,
      na: [2],
      cur: { "Spirit Shard": 50 },
    },
    { id: 101, name: "Alpha", cost: 600, sell: 2_000, profit: 1_400, saved: 400 },
    { id: 103, name: "Gamma", cost: 0, sell: null, profit: null, saved: 100 },
  ]);
  assert.equal(ranking.unpriced, 2, "Delta has no recipe; Epsilon is unknown upstream");
});

Deno.test("rankLegendaries() with order books: cost and profit are each row's list at depth; saved stays at unit prices", () => {
  const plans = planLegendaries(LEGENDS, INPUTS);
  assert.deepEqual(rankingPurchases(plans), [1], "Alpha and Beta buy ore; Gamma owns it");
  // Ore: 2 at 100, then 1,000. Alpha buys 6: 2 × 100 + 4 × 1,000 = 4,200; Beta buys 1: 100.
  const books = new Map([[1, { id: 1, sells: [[100, 2], [1_000, 100]] as [number, number][] }]]);
  const ranking = rankLegendaries(plans, { ...UNREAD, books });
  assert.deepEqual(
    ranking.rows.map(({ id, cost, sell, profit, saved }) => ({ id, cost, sell, profit, saved })),
    [
      { id: 102, cost: 100, sell: 6_800, profit: 6_700, saved: 400 },
      { id: 101, cost: 4_200, sell: 2_000, profit: -2_200, saved: 400 },
      { id: 103, cost: 0, sell: null, profit: null, saved: 100 },
    ],
  );
});

Deno.test("shapeRanking() keeps the best rows and names only the items they mention", () => {
  const plans = planLegendaries(LEGENDS, { ...INPUTS, owned: new Map() });
  const ranking = rankLegendaries(plans, { currencyNames: new Map(), books: new Map() });
  const context = { names: NAMES, characters: 19, staleAgeMs: 1_500 };
  const top = shapeRanking(ranking, 1, context);
  assert.deepEqual(top, {
    ranking: [{
      id: 102,
      name: "Beta",
      cost: 500,
      sell: 6_800,
      profit: 6_300,
      saved: 0,
      partial: true,
      na: [2],
      cur: { 23: 50 },
    }],
    priced: 3,
    unpriced: 2,
    characters: 19,
    names: { 2: "Gift of Exploration" },
    stale_age_s: 2,
  });
  const rest = shapeRanking({ ...ranking, rows: ranking.rows.slice(1) }, 5, {
    names: NAMES,
    characters: 19,
  });
  assert.equal("names" in rest, false, "no dictionary when no row needs one");
});

Deno.test("rankableIds() is every legendary but those the curated data gives no tree", () => {
  const expected = LEGENDARIES.filter(({ id }) => !LEGENDARIES_WITHOUT_TREE.has(id));
  assert.deepEqual(rankableIds(LEGENDARIES), expected.map(({ id }) => id));
  const types = new Set(expected.map(({ type }) => type));
  assert.deepEqual([...types].sort(), ["armor", "back", "trinket", "upgrade", "weapon"]);
  for (const generation of [1, 2, 3]) {
    assert.ok(
      expected.some((legendary) => legendary.generation === generation),
      `gen ${generation}`,
    );
  }
});
