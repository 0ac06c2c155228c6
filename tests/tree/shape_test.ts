import assert from "node:assert/strict";
import type { PricedNode, PricedTree, TreeSummary } from "../../src/tree/pricing.ts";
import { shapeRecipeTree } from "../../src/tree/shape.ts";

function leaf(id: number, quantity: number, cost: number | undefined): PricedNode {
  return cost === undefined
    ? { kind: "item", id, quantity, owned: 0, action: "unavailable", children: [] }
    : { kind: "item", id, quantity, owned: 0, action: "buy", cost, children: [] };
}

function crafted(id: number, quantity: number, children: PricedNode[], extra = {}): PricedNode {
  const cost = children.reduce((sum, entry) => sum + (entry.cost ?? 0), 0);
  return {
    kind: "item",
    id,
    quantity,
    owned: 0,
    action: "craft",
    cost,
    runs: quantity,
    source: "official",
    children,
    ...extra,
  };
}

const SUMMARY: TreeSummary = {
  rootId: 1,
  quantity: 1,
  totalCraftCost: 0,
  rootBuyPrice: null,
  netSell: null,
  profit: null,
  unavailableIds: [],
  guildUpgradeIds: [],
  currencies: [],
  partial: false,
};

const NAMES = new Map([[1, "Root"], [2, "Ingot"], [3, "Ore"], [4, "Gift"], [5, "Bound"], [
  9,
  "Unused",
]]);

Deno.test("shapeRecipeTree() omits defaults, names each item once, and expands only crafted nodes", () => {
  const ingot = crafted(2, 5, [leaf(3, 10, 40)]);
  const root = crafted(1, 1, [
    ingot,
    { ...leaf(4, 1, 90), craftCost: 120 },
    leaf(5, 2, undefined),
  ], { buyCost: 300, source: "mystic_forge" });
  const result = shapeRecipeTree(
    { root, summary: { ...SUMMARY, totalCraftCost: 130 } },
    NAMES,
    new Map(),
  );
  assert.deepEqual(result.tree, {
    id: 1,
    cost: 130,
    buy: 300,
    via: "forge",
    c: [
      { id: 2, q: 5, cost: 40, c: [{ id: 3, q: 10, cost: 40 }] },
      { id: 4, cost: 90, craft: 120 },
      { id: 5, q: 2, na: true },
    ],
  });
  assert.deepEqual(result.names, { 1: "Root", 2: "Ingot", 3: "Ore", 4: "Gift", 5: "Bound" });
  assert.deepEqual(Object.keys(result), ["summary", "names", "tree"]);
});

Deno.test("shapeRecipeTree() writes a repeated crafted subtree once, then marks it rep", () => {
  const ingot = () => crafted(2, 5, [leaf(3, 10, 40)]);
  const differentIngot = crafted(2, 6, [leaf(3, 12, 48)]);
  const root = crafted(1, 1, [
    crafted(4, 1, [ingot()]),
    crafted(4, 1, [ingot()]),
    differentIngot,
    ingot(),
  ]);
  const { tree } = shapeRecipeTree({ root, summary: SUMMARY }, NAMES, new Map());
  assert.deepEqual(tree.c, [
    { id: 4, cost: 40, c: [{ id: 2, q: 5, cost: 40, c: [{ id: 3, q: 10, cost: 40 }] }] },
    { id: 4, cost: 40, rep: true },
    { id: 2, q: 6, cost: 48, c: [{ id: 3, q: 12, cost: 48 }] },
    { id: 2, q: 5, cost: 40, rep: true },
  ]);
});

Deno.test("shapeRecipeTree() writes currencies, owned units, runs and the partial summary", () => {
  const coin: PricedNode = {
    kind: "currency",
    id: 1,
    quantity: 10_000,
    owned: 0,
    action: "pay",
    cost: 10_000,
    children: [],
  };
  const karma: PricedNode = {
    kind: "currency",
    id: 2,
    quantity: 2_100,
    owned: 0,
    action: "pay",
    children: [],
  };
  const root = crafted(1, 1, [
    { ...crafted(2, 1, [coin]), source: "vendor" },
    { ...crafted(3, 1, [karma]), source: "vendor", cost: 0 },
    { ...crafted(4, 77, []), runs: 249, owned: 3 },
    { kind: "item", id: 5, quantity: 4, owned: 4, action: "owned", children: [] },
  ]);
  const summary: TreeSummary = {
    ...SUMMARY,
    totalCraftCost: 10_000,
    rootBuyPrice: 12,
    netSell: 10,
    profit: -9_990,
    unavailableIds: [7],
    currencies: [{ id: 2, count: 2_100 }, { id: 99, count: 1 }],
    partial: true,
  };
  const result = shapeRecipeTree({ root, summary }, NAMES, new Map([[2, "Karma"]]), 1500);
  assert.deepEqual(result.tree.c, [
    { id: 2, cost: 10_000, via: "vendor", c: [{ cur: 1, q: 10_000 }] },
    { id: 3, via: "vendor", c: [{ cur: 2, q: 2_100 }] },
    { id: 4, q: 77, own: 3, runs: 249, c: [] },
    { id: 5, q: 4, own: 4 },
  ]);
  assert.deepEqual(result.summary, {
    rootId: 1,
    quantity: 1,
    totalCraftCost: 10_000,
    rootBuyPrice: 12,
    netSell: 10,
    profit: -9_990,
    partial: true,
    unavailable: [7],
    currencies: [{ id: 2, name: "Karma", count: 2_100 }, { id: 99, count: 1 }],
  });
  assert.equal(result.stale_age_s, 2);
});

Deno.test("shapeRecipeTree() keeps the contract's summary fields even when unknown", () => {
  const tree: PricedTree = { root: crafted(1, 1, [leaf(3, 2, 8)]), summary: SUMMARY };
  const { summary } = shapeRecipeTree(tree, NAMES, new Map());
  assert.deepEqual(Object.keys(summary), [
    "rootId",
    "quantity",
    "totalCraftCost",
    "rootBuyPrice",
    "netSell",
    "profit",
  ]);
  assert.equal(summary.rootBuyPrice, null);
});
