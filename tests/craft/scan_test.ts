/**
 * The crafting scan's pure core on hand-checked recipes (`src/craft/graph.ts`, `pass.ts`,
 * `rows.ts`, `fit.ts`): one level, several levels, a recipe making 5, a vendor ingredient, an
 * unavailable or unpriced ingredient left out, an untradeable output, time gates, the lowest
 * recipe id, cycles, the bound never hiding a better row, disciplines and the account's fit.
 */

import assert from "node:assert/strict";
import type { CuratedRecipe } from "../../src/data/curated_recipes.ts";
import { accountCrafting, craftFilter, craftsWith } from "../../src/craft/fit.ts";
import { buildCraftGraph, disciplineBit } from "../../src/craft/graph.ts";
import { runPass } from "../../src/craft/pass.ts";
import { CraftRows, DAILY_COOLDOWN_IDS } from "../../src/craft/rows.ts";
import type { CatalogueRecipe } from "../../src/gw2/schemas.ts";
import { catalogueOf, recipe, sheetOf } from "./_catalogue.ts";

const X = 1;
const Y = 2;
const INGOT = 3;
const VENDOR_ITEM = 4;
const UNAVAILABLE = 5;
const UNLISTED = 6;
const UNPRICED = 7;
const LUMP = 46_742; // Lump of Mithrillium: a daily cooldown
const [A, B, RATIONS, VENDORED, CHARM, BROOCH, FROM_UNPRICED, UNTRADEABLE, ALLOY] = [
  101,
  102,
  103,
  104,
  105,
  106,
  107,
  108,
  109,
];

/** A curated vendor offer: 10 of the item for 80 coin. */
const VENDOR: ReadonlyMap<number, CuratedRecipe> = new Map([[VENDOR_ITEM, {
  outputId: VENDOR_ITEM,
  name: "Sample Water",
  outputCount: 10,
  source: "vendor",
  rule: 2,
  ingredients: [{ type: "Currency", id: 1, count: 80 }],
  merchant: "Sample Merchant",
}]]);

const RECIPES: CatalogueRecipe[] = [
  recipe(1, A, [[X, 3], [Y, 2]], { disciplines: ["Weaponsmith"], rating: 100 }),
  // A second recipe for A, cheaper, but with a higher id: trees use the lowest.
  recipe(60, A, [[X, 1]]),
  recipe(2, INGOT, [[X, 2]]),
  recipe(3, B, [[INGOT, 2], [Y, 1]], { disciplines: ["Weaponsmith", "Armorsmith"] }),
  recipe(4, RATIONS, [[X, 1], [Y, 1]], { count: 5, disciplines: ["Chef"] }),
  recipe(5, VENDORED, [[VENDOR_ITEM, 10], [Y, 1]], { disciplines: ["Chef"] }),
  recipe(6, CHARM, [[UNAVAILABLE, 1], [X, 1]], { disciplines: ["Jeweler"] }),
  recipe(7, BROOCH, [[UNLISTED, 1], [X, 1]], { disciplines: ["Jeweler"] }),
  recipe(8, UNPRICED, [[X, 1]]),
  recipe(9, FROM_UNPRICED, [[UNPRICED, 1]], {
    disciplines: ["Tailor"],
    flags: ["LearnedFromItem"],
  }),
  recipe(10, UNTRADEABLE, [[X, 1]]),
  recipe(11, LUMP, [[X, 1]]),
  recipe(12, ALLOY, [[LUMP, 1]], { rating: 450 }),
];

const SHEET = sheetOf([
  [X, 90, 100],
  [Y, 40, 50],
  [INGOT, 230, 260],
  [VENDOR_ITEM, 7, 9],
  [UNLISTED, 5, 0], // buy orders only: cannot be bought
  [A, 600, 700],
  [B, 800, 950],
  [RATIONS, 50, 60],
  [VENDORED, 300, 340],
  [CHARM, 9_000, 9_500],
  [BROOCH, 9_000, 9_500],
  [FROM_UNPRICED, 500, 550],
  [ALLOY, 1_000, 1_100],
]);

function scan(recipes = RECIPES, sheet = SHEET) {
  const graph = buildCraftGraph(catalogueOf(recipes), VENDOR);
  const pass = runPass(graph, sheet);
  return { graph, pass, rows: new CraftRows(graph, pass) };
}

/** The rows as `[output, cost, sell, profit]`. */
function figures(rows: ReturnType<CraftRows["top"]>) {
  return rows.map((row) => [row.outputId, row.cost, row.sell, row.profit]);
}

Deno.test("hand-checked crafts, best profit first: one level, two levels, a recipe making 5, a vendor ingredient", () => {
  const { rows } = scan();
  assert.deepEqual(figures(rows.top({ includeTimeGated: false }, 10)), [
    // An intermediate with a recipe and no price is crafted: 1 × 100.
    [FROM_UNPRICED, 100, 425, 325],
    // Ingots crafted (2 × 100 = 200 < 260): 2 × 200 + 50; 800 → floor(680).
    [B, 450, 680, 230],
    // Ten from the vendor (80 coin) beat ten at 9: 80 + 50; floor(300 × 0.85) = 255.
    [VENDORED, 130, 255, 125],
    // 3 × 100 + 2 × 50 (the lowest recipe id, not the cheaper id 60); floor(600 × 0.85) = 510.
    [A, 400, 510, 110],
    // One craft makes 5: 100 + 50; 5 × floor(50 × 0.85) = 5 × 42.
    [RATIONS, 150, 210, 60],
  ]);
});

Deno.test("left out: an unavailable ingredient, one that cannot be bought, an untradeable output", () => {
  const { pass, rows } = scan();
  const listed = rows.top({ includeTimeGated: true }, 50).map((row) => row.outputId);
  for (const id of [CHARM, BROOCH, UNTRADEABLE]) assert.ok(!listed.includes(id), `${id}`);
  // The pass already knows them: no bound for the first two, no buy order for the third.
  const candidates = pass.candidates.map((candidate) => candidate.recipe);
  assert.equal(candidates.length, 6, "A, B, rations, vendored, from-unpriced, alloy");
});

Deno.test("time gates: a craft touching a daily cooldown is left out unless asked for, then flagged", () => {
  assert.ok(DAILY_COOLDOWN_IDS.has(LUMP));
  assert.ok(DAILY_COOLDOWN_IDS.has(46_738), "Deldrimor Steel Ingot, made from it");
  const { rows } = scan();
  assert.ok(!rows.top({ includeTimeGated: false }, 50).some((row) => row.outputId === ALLOY));
  const [first] = rows.top({ includeTimeGated: true }, 1);
  assert.equal(first?.outputId, ALLOY);
  assert.equal(first?.daily, true);
  assert.deepEqual([first?.cost, first?.profit], [100, 750]);
});

Deno.test("the bound never hides a better row: a craft whose exact cost is higher is ranked by it", () => {
  const BATCH = 8;
  const [E, F] = [110, 111];
  const recipes = [
    // 5 batch items per run of 1 × 100: 20 each by the bound, but the tree (the library) needs
    // whole runs of it: one run, 100 (buying a run's five would be 450).
    recipe(20, BATCH, [[X, 1]], { count: 5 }),
    recipe(21, E, [[BATCH, 1]]),
    recipe(22, F, [[X, 1]]),
  ];
  // The batch item is listed but nobody buys it: not a row itself.
  const sheet = sheetOf([[X, 90, 100], [BATCH, 0, 90], [E, 200, 220], [F, 250, 270]]);
  const { pass, rows } = scan(recipes, sheet);
  assert.deepEqual(
    pass.candidates.map((candidate) => [candidate.recipe, candidate.upper]).map(([, upper]) =>
      upper
    ),
    [150, 112],
    "by the bound, E first",
  );
  assert.deepEqual(figures(rows.top({ includeTimeGated: false }, 1)), [[F, 100, 212, 112]]);
  assert.deepEqual(figures(rows.top({ includeTimeGated: false }, 2)), [
    [F, 100, 212, 112],
    [E, 100, 170, 70],
  ]);
});

Deno.test("a cycle in the recipes is cut, and the craft above it priced as the tree prices it", () => {
  const [P, Q, TOP] = [201, 202, 203];
  const recipes = [
    recipe(30, P, [[Q, 1]]),
    recipe(31, Q, [[P, 1]]),
    recipe(32, TOP, [[P, 2]]),
  ];
  const { rows } = scan(recipes, sheetOf([[P, 90, 100], [Q, 40, 50], [TOP, 400, 450]]));
  // Above the cycle, P is made from Q (50 < 100); Q's recipe would close it, so Q is bought.
  // P itself as a row: the same; Q as a row would be made from a bought P (100): a loss.
  assert.deepEqual(figures(rows.top({ includeTimeGated: false }, 5)), [
    [TOP, 100, 340, 240],
    [P, 50, 76, 26],
  ]);
});

Deno.test("a cycle met first from its other side does not make the bound hide a craft through it", () => {
  const [XX, YY, ROOT, OTHER] = [301, 302, 303, 304];
  const recipes = [
    // Walked first from YY: YY → XX → YY closes the cycle there.
    recipe(30, YY, [[XX, 1]]),
    recipe(31, XX, [[YY, 1]]),
    // From ROOT the tree makes XX from a bought YY (30), far below XX's own listing (100).
    recipe(32, ROOT, [[XX, 1]]),
    recipe(33, OTHER, [[YY, 2]]),
  ];
  const sheet = sheetOf([[XX, 0, 100], [YY, 0, 30], [ROOT, 300, 320], [OTHER, 300, 320]]);
  const { rows } = scan(recipes, sheet);
  // ROOT: 30 → floor(300 × 0.85) − 30 = 225; OTHER: 255 − 60 = 195.
  assert.deepEqual(figures(rows.top({ includeTimeGated: false }, 1)), [[ROOT, 30, 255, 225]]);
});

Deno.test("a discipline filter and the account's fit: learned or auto-learned, a character at the rating", () => {
  const { graph, rows } = scan();
  const recipeOf = (output: number) => graph.recipeOf[graph.nodeOf.get(output) ?? -1] ?? -1;
  const chef = disciplineBit("Chef");
  const onlyChef = rows.top({
    includeTimeGated: false,
    accepts: (r) => ((graph.disciplines[r] ?? 0) & chef) !== 0,
  }, 10);
  assert.deepEqual(onlyChef.map((row) => row.outputId), [VENDORED, RATIONS]);
  const account = accountCrafting([], [
    { crafting: [{ discipline: "Weaponsmith", rating: 120, active: true }] },
    {
      crafting: [{ discipline: "Tailor", rating: 500, active: true }, {
        discipline: "Chef",
        rating: 0,
        active: false,
      }],
    },
  ]);
  assert.equal(craftsWith(account, graph, recipeOf(A)), "Weaponsmith", "rating 100 ≤ 120");
  assert.equal(craftsWith(account, graph, recipeOf(ALLOY)), undefined, "rating too low: 450");
  assert.equal(
    craftsWith(account, graph, recipeOf(FROM_UNPRICED)),
    undefined,
    "a sheet not learned",
  );
  assert.equal(craftsWith(account, graph, recipeOf(RATIONS)), "Chef");
  const learned = accountCrafting([9], [{
    crafting: [{ discipline: "Tailor", rating: 0, active: true }],
  }]);
  assert.equal(craftsWith(learned, graph, recipeOf(FROM_UNPRICED)), "Tailor", "a sheet learned");
  const mine = rows.top({
    includeTimeGated: false,
    accepts: (r) => craftsWith(account, graph, r) !== undefined,
  }, 10);
  assert.deepEqual(mine.map((row) => row.outputId), [B, VENDORED, A, RATIONS]);
});

Deno.test("a recipe no discipline crafts is not a row; the pass counts what sells", () => {
  const recipes = [recipe(40, A, [[X, 1]], { disciplines: [] }), recipe(41, B, [[X, 1]])];
  const { pass, rows } = scan(recipes);
  assert.equal(pass.sellable, 1);
  assert.deepEqual(rows.top({ includeTimeGated: false }, 5).map((row) => row.outputId), [B]);
});

Deno.test("a currency the library has no estimate for does not hide a craft the tree prices: at the root, or under an untradeable item", () => {
  // Currency 18 has no decision price in the library: the tree pays it (a row's `cur`), adds no
  // coin for it, and can force-buy nothing above it when nothing above is buyable.
  const [ROOT, MIDDLE, ABOVE] = [401, 402, 403];
  const recipes = [
    recipe(50, ROOT, [[X, 1], ["cur", 18, 1]]),
    recipe(51, MIDDLE, [[X, 1], ["cur", 18, 2]]),
    recipe(52, ABOVE, [[MIDDLE, 1]]),
  ];
  const sheet = sheetOf([[X, 90, 100], [ROOT, 400, 450], [ABOVE, 300, 350]]);
  const { rows } = scan(recipes, sheet);
  const listed = rows.top({ includeTimeGated: false }, 10);
  assert.deepEqual(figures(listed), [
    // 100 coin and a currency: floor(400 × 0.85) − 100.
    [ROOT, 100, 340, 240],
    // The middle item is untradeable, so the tree crafts it: 100 coin and two of currency 18.
    [ABOVE, 100, 255, 155],
  ]);
  assert.deepEqual(listed.map((row) => row.currencies), [[{ id: 18, count: 1 }], [{
    id: 18,
    count: 2,
  }]]);
});

Deno.test("a recipe that takes its own output is left out, not a failure of the whole scan", () => {
  const [LOOP, GOOD] = [501, 502];
  // The tree refuses it (its only recipe closes a cycle at the root: no tree to price), while the
  // pass bounds it at 2 × 100.
  const recipes = [recipe(60, LOOP, [[LOOP, 1], [X, 1]]), recipe(61, GOOD, [[X, 1]])];
  const sheet = sheetOf([[X, 90, 100], [LOOP, 1_000, 1_100], [GOOD, 300, 350]]);
  const { pass, rows } = scan(recipes, sheet);
  assert.equal(pass.candidates.length, 2);
  assert.deepEqual(figures(rows.top({ includeTimeGated: false }, 10)), [[GOOD, 100, 255, 155]]);
});

Deno.test("a discipline filter with useAccount keeps what the account crafts with that discipline", () => {
  const { graph } = scan();
  const recipeOf = (output: number) => graph.recipeOf[graph.nodeOf.get(output) ?? -1] ?? -1;
  // B is made by Weaponsmiths and Armorsmiths; this account is a Weaponsmith only.
  const account = accountCrafting([], [{
    crafting: [{ discipline: "Weaponsmith", rating: 120, active: true }],
  }]);
  const armorsmith = craftFilter(graph, { discipline: "Armorsmith", account });
  assert.equal(armorsmith.accepts(recipeOf(B)), false, "not as an Armorsmith");
  const weaponsmith = craftFilter(graph, { discipline: "Weaponsmith", account });
  assert.equal(weaponsmith.accepts(recipeOf(B)), true);
  assert.equal(weaponsmith.discipline(recipeOf(B)), "Weaponsmith");
  const anyDiscipline = craftFilter(graph, { account });
  assert.equal(
    anyDiscipline.discipline(recipeOf(B)),
    "Weaponsmith",
    "the one the account crafts it with",
  );
  assert.equal(anyDiscipline.accepts(recipeOf(ALLOY)), false, "rating too low");
  const noAccount = craftFilter(graph, { discipline: "Armorsmith" });
  assert.equal(noAccount.accepts(recipeOf(B)), true);
  assert.equal(noAccount.discipline(recipeOf(B)), "Armorsmith", "the filter's");
  assert.equal(craftFilter(graph, {}).discipline(recipeOf(B)), undefined, "the recipe's first");
});
