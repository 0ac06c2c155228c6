/**
 * `priory_craft_profit` over the real stack (MCP client → handler → GW2 client on KV → the fake,
 * with the fake's crafting market): every figure against an independent calculation — `cost`
 * against `priory_recipe_tree`'s `totalCraftCost` at `quantity = count`, `sell` against
 * `gw2_prices`, `crafts` and `totalProfit` against a walk of the fake's own order books — then
 * the market's rows (thin bids, thin asks, left-out crafts, time gates), the account's fit, a fresh
 * server's first call, the not-ready answer, and the answer's size.
 */

import assert from "node:assert/strict";
import { CRAFT_MARKET, CRAFT_MARKET_SCALE, TEST_KEYS } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";
import { settleOnClock } from "../support/clock.ts";
import { startDeadline, withinDeadline } from "../../src/async/deadline.ts";
import { runCraftProfit } from "../../src/craft/run.ts";

const NAME = "priory_craft_profit";
const S = CRAFT_MARKET_SCALE;

type Row = {
  id: number;
  name: string;
  recipeId: number;
  discipline: string;
  rating: number;
  count: number;
  cost: number;
  sell: number;
  profit: number;
  roi: number | null;
  crafts: number;
  totalProfit: number;
  stop: string;
  daily?: true;
  sheet?: true;
  noDepth?: true;
  soldPerDay?: number;
  sellDays?: number;
};
type Result = {
  opportunities: Row[];
  scanned: { recipes: number; sellable: number; candidates: number };
  pricesAt: string;
};

async function call(
  app: TestApp,
  args: Record<string, unknown> = {},
  key?: string,
): Promise<{ result: Result | undefined; text: string; isError: boolean }> {
  await using client = await connectClient(
    app.handler,
    key === undefined ? {} : {
      headers: { "X-GW2-Key": key },
    },
  );
  const answer = await client.callTool({ name: NAME, arguments: args });
  return {
    result: answer.structuredContent as Result | undefined,
    text: textOf(answer),
    isError: answer.isError === true,
  };
}

function rowOf(result: Result | undefined, id: number): Row | undefined {
  return result?.opportunities.find((row) => row.id === id);
}

/**
 * An independent run of crafts: the tree's purchases for one craft (`priory_recipe_tree` at
 * `quantity = count`), each bought off the fake's sell listings in turn, the output sold into its
 * buy orders in turn, until a craft does not profit (or 250).
 */
async function oracleRun(app: TestApp, row: Row): Promise<{ crafts: number; totalProfit: number }> {
  await using client = await connectClient(app.handler);
  const tree = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: row.id, quantity: row.count },
  });
  const plan = tree.structuredContent as {
    toBuy: {
      id?: number;
      count: number;
      unit?: number;
      vendor?: string;
      total?: number;
      cur?: number;
    }[];
  };
  const fixed = plan.toBuy.filter((line) => line.vendor !== undefined)
    .reduce((sum, line) => sum + (line.total ?? 0), 0) +
    plan.toBuy.filter((line) => line.cur === 1).reduce((sum, line) => sum + line.count, 0);
  const market = plan.toBuy.filter((line) => line.unit !== undefined && line.id !== undefined);
  const queue = (levels: readonly { unit_price: number; quantity: number }[]) =>
    levels.flatMap((level) => Array.from({ length: level.quantity }, () => level.unit_price));
  const book = (id: number) => app.fake.world.listings.get(id);
  const bids = queue(book(row.id)?.buys ?? []);
  const asks = new Map(
    market.map((line) => [line.id ?? 0, queue(book(line.id ?? 0)?.sells ?? [])]),
  );
  let crafts = 0;
  let totalProfit = 0;
  for (let craft = 0; craft < (row.daily ? 1 : 250); craft++) {
    const sold = bids.splice(0, row.count);
    if (sold.length < row.count) break;
    let cost = fixed;
    let short = false;
    for (const line of market) {
      const taken = asks.get(line.id ?? 0)?.splice(0, line.count) ?? [];
      if (taken.length < line.count) short = true;
      cost += taken.reduce((sum, price) => sum + price, 0);
    }
    const revenue = sold.reduce((sum, price) => sum + Math.floor(price * 0.85), 0);
    if (short || revenue - cost <= 0) break;
    crafts++;
    totalProfit += revenue - cost;
  }
  return { crafts, totalProfit };
}

Deno.test("every row's figures equal an independent calculation: the tree's cost, the prices' sell, a walk of the books", async () => {
  await using app = await startTestApp({ craft: true });
  const { result, isError } = await call(app);
  assert.equal(isError, false);
  assert.ok(result !== undefined);
  assert.equal(result.opportunities.length, 10);
  const profits = result.opportunities.map((row) => row.profit);
  assert.deepEqual(profits, [...profits].sort((a, b) => b - a), "best profit first");
  await using client = await connectClient(app.handler);
  const prices = await client.callTool({
    name: "gw2_prices",
    arguments: { ids: result.opportunities.map((row) => row.id) },
  });
  const byId = new Map(
    (prices.structuredContent as { prices: { id: number; buy: number }[] }).prices
      .map((price) => [price.id, price.buy]),
  );
  for (const row of result.opportunities) {
    const tree = await client.callTool({
      name: "priory_recipe_tree",
      arguments: { itemId: row.id, quantity: row.count },
    });
    const summary = (tree.structuredContent as { summary: { totalCraftCost: number } }).summary;
    assert.equal(row.cost, summary.totalCraftCost, `${row.name}: cost is the tree's`);
    assert.equal(row.sell, row.count * Math.floor((byId.get(row.id) ?? 0) * 0.85), row.name);
    assert.equal(row.profit, row.sell - row.cost);
    assert.ok(row.profit > 0);
    assert.equal(row.roi, row.profit / row.cost);
    assert.deepEqual(
      { crafts: row.crafts, totalProfit: row.totalProfit },
      await oracleRun(app, row),
      `${row.name}: the run of crafts`,
    );
    assert.ok(row.name.length > 0 && !row.name.startsWith("Item "), "named");
  }
  assert.ok(result.scanned.recipes >= 1_288);
  assert.ok(result.scanned.candidates <= result.scanned.sellable);
});

Deno.test("the market's hand-checked rows: one level, two levels, a recipe making 5; thin bids and thin asks", async () => {
  await using app = await startTestApp({ craft: true });
  const { result } = await call(app, { limit: 50 });
  const dagger = rowOf(result, CRAFT_MARKET.dagger);
  assert.deepEqual([dagger?.cost, dagger?.sell, dagger?.profit], [400 * S, 510 * S, 110 * S]);
  assert.deepEqual([dagger?.discipline, dagger?.rating, dagger?.recipeId], [
    "Weaponsmith",
    100,
    CRAFT_MARKET.dagger,
  ]);
  const sword = rowOf(result, CRAFT_MARKET.sword);
  assert.deepEqual([sword?.cost, sword?.profit], [450 * S, 230 * S], "ingots crafted, not bought");
  const rations = rowOf(result, CRAFT_MARKET.rations);
  assert.deepEqual([rations?.count, rations?.cost, rations?.sell], [5, 150 * S, 5 * 42.5 * S]);
  const banner = rowOf(result, CRAFT_MARKET.banner);
  assert.equal(banner?.stop, "bids", "3 units wanted");
  assert.ok((banner?.crafts ?? 99) <= 3);
  const cloak = rowOf(result, CRAFT_MARKET.cloak);
  assert.deepEqual([cloak?.crafts, cloak?.stop], [2, "asks"], "12 threads listed, 5 a craft");
  // Two crafts, each at depth: no more than twice the first's profit at the top of the books.
  assert.ok((cloak?.totalProfit ?? Infinity) <= 2 * (425 - 150) * S);
  for (
    const id of [CRAFT_MARKET.charm, CRAFT_MARKET.brooch, CRAFT_MARKET.trinket, CRAFT_MARKET.shield]
  ) {
    assert.equal(rowOf(result, id), undefined, `${id} left out`);
  }
  assert.equal(rowOf(result, CRAFT_MARKET.alloy), undefined, "time-gated: left out");
  assert.equal(rowOf(result, CRAFT_MARKET.spear)?.sheet, true, "learned from a sheet");
  assert.equal(rowOf(result, CRAFT_MARKET.tome)?.discipline, "Scribe");
});

Deno.test("includeTimeGated: the daily craft is listed, flagged, one craft", async () => {
  await using app = await startTestApp({ craft: true });
  const { result } = await call(app, {
    limit: 50,
    includeTimeGated: true,
    discipline: "Weaponsmith",
  });
  const alloy = rowOf(result, CRAFT_MARKET.alloy);
  assert.equal(alloy?.daily, true);
  assert.deepEqual([alloy?.crafts, alloy?.stop], [1, "daily"]);
  assert.equal(alloy?.totalProfit, alloy?.profit);
});

Deno.test("discipline: only recipes of that discipline", async () => {
  await using app = await startTestApp({ craft: true });
  const { result } = await call(app, { discipline: "Tailor", limit: 50 });
  assert.ok(result !== undefined && result.opportunities.length > 0);
  assert.ok(result.opportunities.every((row) => row.discipline === "Tailor"));
  assert.ok(rowOf(result, CRAFT_MARKET.banner) !== undefined);
  assert.equal(rowOf(result, CRAFT_MARKET.dagger), undefined);
});

Deno.test("useAccount: only what the account can craft now — learned or auto-learned, at a rating a character has", async () => {
  await using app = await startTestApp({ craft: true });
  const { result, isError } = await call(app, { useAccount: true, limit: 50 }, TEST_KEYS.full);
  assert.equal(isError, false);
  assert.ok(rowOf(result, CRAFT_MARKET.spear) !== undefined, "its sheet learned");
  assert.equal(rowOf(result, CRAFT_MARKET.spear)?.sheet, undefined);
  assert.equal(rowOf(result, CRAFT_MARKET.trident), undefined, "its sheet not learned");
  assert.equal(rowOf(result, CRAFT_MARKET.tome), undefined, "Scribe 425; the best is 400");
  assert.ok(rowOf(result, CRAFT_MARKET.dagger) !== undefined);
  const requests = app.fake.control.requests.map((request) => request.path);
  assert.ok(requests.includes("/v2/account/recipes"));
});

Deno.test("useAccount: a key without the scopes is told which; no key is told to add one", async () => {
  await using app = await startTestApp({ craft: true });
  const noUnlocks = await call(app, { useAccount: true }, TEST_KEYS.noInventories);
  assert.equal(noUnlocks.isError, true);
  assert.match(noUnlocks.text, /"unlocks"/);
  const noCharacters = await call(app, { useAccount: true }, TEST_KEYS.accountOnly);
  assert.match(noCharacters.text, /"unlocks", "characters"/);
  const noKey = await call(app, { useAccount: true });
  assert.match(noKey.text, /X-GW2-Key/);
});

Deno.test("a fresh server's first call reads the Trading Post and the recipes and answers in time; the next reads neither", async () => {
  await using app = await startTestApp({ craft: true });
  const first = await call(app);
  assert.equal(first.isError, false);
  const paths = app.fake.control.requests.map((request) => request.path);
  const pages = (path: string) =>
    app.fake.control.requests.filter((request) =>
      request.path === path && request.query.includes("page=")
    ).length;
  assert.equal(pages("/v2/commerce/prices"), Math.ceil(app.fake.world.prices.size / 200));
  assert.equal(pages("/v2/recipes"), Math.ceil(app.fake.world.recipes.size / 200));
  const before = paths.length;
  const second = await call(app, { discipline: "Chef" });
  assert.equal(second.isError, false);
  const after = app.fake.control.requests.slice(before).map((request) => request.path);
  assert.ok(!after.includes("/v2/commerce/prices") && !after.includes("/v2/recipes"), after.join());
  // The tree now prices from the same sheet: no price request either.
  await using client = await connectClient(app.handler);
  const mark = app.fake.control.requests.length;
  await client.callTool({ name: "priory_recipe_tree", arguments: { itemId: CRAFT_MARKET.sword } });
  assert.ok(
    !app.fake.control.requests.slice(mark).some((request) =>
      request.path === "/v2/commerce/prices"
    ),
  );
});

Deno.test("the default answer stays within 2,500 tokens, names included", async () => {
  await using app = await startTestApp({ craft: true });
  const { result } = await call(app);
  const bytes = JSON.stringify(result).length;
  assert.ok(bytes / 4 <= 2_500, `${bytes / 4} tokens`);
  assert.ok(result?.opportunities.every((row) => typeof row.name === "string"));
});

Deno.test("bad arguments are refused with what to send", async () => {
  await using app = await startTestApp({ craft: true });
  assert.match((await call(app, { limit: 51 })).text, /limit must be a whole number from 1 to 50/);
  assert.match(
    (await call(app, { discipline: "Cook" })).text,
    /discipline must be one of Armorsmith/,
  );
  assert.match((await call(app, { useAccount: "yes" })).text, /useAccount must be true or false/);
});

Deno.test("a Trading Post too slow to read in time: the call says so and when to retry, and the retry finds it read", async () => {
  await using app = await startTestApp({ craft: true, latencyOnClock: true });
  app.fake.control.setLatency(6_000, "/v2/commerce/prices");
  await using client = await connectClient(app.handler);
  const first = await settleOnClock(
    client.callTool({ name: NAME, arguments: {} }),
    app.clock,
  );
  assert.ok(first.ok);
  assert.equal(first.value.isError, true);
  assert.match(
    textOf(first.value),
    /^Not ready: this server is still reading the whole Trading Post.*Retry in \d+ s\.$/,
  );
  assert.ok(first.elapsedMs < 15_000, `answered in ${first.elapsedMs} ms`);
  // The read goes on without the call; by the time it said, it is done.
  const seconds = Number(/Retry in (\d+) s/.exec(textOf(first.value))?.[1]);
  const waited = await settleOnClock(
    (async () => {
      while (app.sheets?.latest() === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    })(),
    app.clock,
  );
  assert.ok(waited.elapsedMs <= seconds * 1_000, `read ${waited.elapsedMs} ms later`);
  const retry = await settleOnClock(
    client.callTool({ name: NAME, arguments: {} }),
    app.clock,
  );
  assert.ok(retry.ok);
  assert.equal(retry.value.isError, undefined, textOf(retry.value));
  const pages =
    app.fake.control.requests.filter((request) =>
      request.path === "/v2/commerce/prices" && request.query.includes("page=")
    ).length;
  assert.equal(pages, Math.ceil(app.fake.world.prices.size / 200), "one read, not two");
});

Deno.test("a row says how many of its output the market sells a day, where the price history knows", async () => {
  await using app = await startTestApp({ craft: true });
  const { sheets, crafting: scanner } = app;
  assert.ok(sheets !== undefined && scanner !== undefined);
  using deadline = startDeadline(app.clock, 14_000);
  const asked: number[][] = [];
  const result = await withinDeadline(deadline, () =>
    runCraftProfit(app.gw2, {
      sheets,
      scanner,
      soldPerDay: (ids) => {
        asked.push([...ids]);
        return Promise.resolve(new Map([[CRAFT_MARKET.sword, 41.6], [CRAFT_MARKET.rations, 0]]));
      },
    }, { limit: 50, includeTimeGated: false }));
  assert.deepEqual(asked, [result.opportunities.map((row) => row.id)], "the rows' outputs, once");
  const sword = rowOf(result, CRAFT_MARKET.sword);
  assert.equal(sword?.soldPerDay, 42);
  assert.ok((sword?.crafts ?? 0) > 1);
  assert.equal(
    sword?.sellDays,
    Math.round((sword?.crafts ?? 0) * (sword?.count ?? 0) / 41.6 * 10) / 10,
    "days to sell what the run makes, at the unrounded rate",
  );
  assert.equal(rowOf(result, CRAFT_MARKET.dagger)?.soldPerDay, undefined, "unknown: absent");
  assert.equal(rowOf(result, CRAFT_MARKET.dagger)?.sellDays, undefined);
  const rations = rowOf(result, CRAFT_MARKET.rations);
  assert.deepEqual([rations?.soldPerDay, rations?.sellDays], [0, undefined], "none sold: no days");
  const failing = await withinDeadline(deadline, () =>
    runCraftProfit(app.gw2, {
      sheets,
      scanner,
      soldPerDay: () => Promise.reject(new Error("history unreadable")),
    }, { limit: 5, includeTimeGated: false }));
  assert.equal(failing.opportunities.length, 5, "the rows, without the figure");
});
