/**
 * `priory_price_history` and `priory_flips` over the real stack: a real MCP client, the handler,
 * the GW2 client over the fake (names), and a history the jobs wrote into the same KV from the
 * fake's moving market.
 */
import assert from "node:assert/strict";
import type { HistoryResult } from "../../src/history/shape.ts";
import type { FlipsResult } from "../../src/history/shape.ts";
import { flipMargin } from "../../src/market/flip.ts";
import { getWorld, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { connectClient, type Era, startTestApp, type TestApp, textOf } from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";
import { historyDeps, MovingMarket, simulate, worldPriceIds } from "../support/history.ts";

const MIN = 60_000;
const START = Date.UTC(2026, 10, 29, 0, 0);

/** An id the fake knows but the Trading Post does not list (account bound). */
function untradeableId(): number {
  const world = getWorld();
  const id = [...world.items.keys()].find((candidate) => !world.prices.has(candidate));
  assert.ok(id !== undefined);
  return id;
}

async function call<T>(
  app: TestApp,
  name: string,
  args: Record<string, unknown>,
  era?: Era,
): Promise<T> {
  await using client = await connectClient(app.handler, era === undefined ? {} : { era });
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(textOf(result), JSON.stringify(result.structuredContent), "the same JSON, compact");
  return result.structuredContent as T;
}

async function refusal(app: TestApp, name: string, args: Record<string, unknown>): Promise<string> {
  await using client = await connectClient(app.handler);
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true);
  return textOf(result);
}

/** The app, and `minutes` of the history jobs over `ids` of the moving market, on its clock. */
async function withHistory(minutes: number, ids = worldPriceIds(300)): Promise<TestApp> {
  const clock = new ManualClock({ start: START, advance: "delays" });
  const app = await startTestApp({ clock });
  await simulate(historyDeps({ kv: app.kv, clock }), new MovingMarket(), ids, minutes);
  return app;
}

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`priory_price_history on a fresh server: empty points, named items, and when the first snapshot comes (${era})`, async () => {
    await using app = await startTestApp({
      clock: new ManualClock({ start: START + 10_000, advance: "delays" }),
    });
    const result = await call<HistoryResult>(app, "priory_price_history", {
      ids: [WELL_KNOWN.mysticCoin, 19721],
    }, era);
    assert.deepEqual(result.history.map((row) => [row.id, row.points, row.since]), [
      [WELL_KNOWN.mysticCoin, [], null],
      [19721, [], null],
    ]);
    assert.equal(result.history[0]?.name, "Mystic Coin");
    assert.equal(result.window, "24h");
    assert.equal(result.next, "2026-11-29T00:02Z");
    assert.match(result.note ?? "", /No snapshot yet.*2026-11-29T00:02Z/);
  });
}

Deno.test("priory_price_history after six hours: compact rows, ≤ ~50 points ending at the latest snapshot, estimates", async () => {
  await using app = await withHistory(6 * 60);
  const ids = worldPriceIds(300).slice(0, 20);
  const result = await call<HistoryResult>(app, "priory_price_history", { ids });
  assert.equal(result.history.length, 20);
  assert.equal(result.at, "2026-11-29T05:56Z");
  assert.equal(result.from, "2026-11-28T06:00Z");
  assert.equal(result.step, 60, "20 items: half the points each");
  assert.equal(result.unit, "minute");
  assert.equal(
    result.point,
    "[minutes after from, buy, sell, sold, bought]",
    "says what a point is",
  );
  assert.match(result.note ?? "", /not recorded the whole window/);
  for (const row of result.history) {
    assert.equal(row.name, app.fake.world.items.get(row.id)?.name);
    assert.equal(row.since, "2026-11-29T00:01Z");
    assert.ok(row.points.length >= 6 && row.points.length <= 25);
    const last = row.points.at(-1);
    assert.equal(last?.[0], (Date.UTC(2026, 10, 29, 5, 56) - Date.UTC(2026, 10, 28, 6)) / MIN);
    assert.equal(row.margin, last?.[1] && last[2] ? flipMargin(last[1], last[2]) : null);
    assert.equal(typeof row.soldPerDay, "number");
    assert.equal(typeof row.boughtPerDay, "number");
  }
  // What the model reads for 20 items over a day, in tokens (bytes / 4): a few thousand.
  const tokens = new TextEncoder().encode(JSON.stringify(result)).byteLength / 4;
  assert.ok(tokens < 8_000, `${tokens} tokens for 20 items`);
});

Deno.test("priory_price_history names an untradeable id in missing_ids and repeats nothing", async () => {
  await using app = await withHistory(10);
  const tradeable = worldPriceIds(300)[0] ?? 0;
  const untradeable = untradeableId();
  const result = await call<HistoryResult>(app, "priory_price_history", {
    ids: [tradeable, untradeable, tradeable],
    window: "7d",
  });
  assert.deepEqual(result.history.map((row) => row.id), [tradeable]);
  assert.deepEqual(result.missing_ids, [untradeable]);
  assert.equal(result.window, "7d");
  assert.deepEqual(
    [result.unit, result.step],
    ["hour", 4],
    "one item (a repeat is one): the window's step",
  );
  assert.equal(result.point, "[hours after from, buy, sell, sold, bought]");
  // The last point's time, read as the result says, is the latest snapshot's (to a tenth of an
  // hour).
  const last = result.history[0]?.points.at(-1)?.[0] ?? 0;
  const time = Date.parse(result.from) + last * 3_600_000;
  assert.ok(Math.abs(time - Date.parse(result.at ?? "")) <= 3 * MIN, new Date(time).toISOString());
});

Deno.test("priory_price_history refuses bad arguments with actionable texts, before any work", async () => {
  await using app = await startTestApp();
  const many = Array.from({ length: 21 }, (_, i) => i + 1);
  assert.match(
    await refusal(app, "priory_price_history", { ids: many }),
    /at most 20 per call, got 21/,
  );
  assert.match(await refusal(app, "priory_price_history", { ids: [] }), /the list is empty/);
  assert.match(
    await refusal(app, "priory_price_history", { ids: [19721], window: "2d" }),
    /window must be one of 24h, 7d, 30d, 1y/,
  );
  assert.match(await refusal(app, "priory_price_history", { ids: ["19721"] }), /send numbers/);
  assert.equal(app.fake.control.requests.length, 0, "nothing asked upstream");
});

Deno.test("priory_flips: says why while history is short, then ranks margin × perDay with its filters", async () => {
  const clock = new ManualClock({ start: START + 10 * MIN, advance: "delays" });
  await using app = await startTestApp({ clock });
  const fresh = await call<FlipsResult>(app, "priory_flips", {});
  assert.deepEqual(fresh.flips, []);
  assert.match(fresh.note ?? "", /No snapshot yet/);
  const deps = historyDeps({ kv: app.kv, clock });
  const market = new MovingMarket();
  const ids = worldPriceIds();
  await simulate(deps, market, ids, 30);
  const short = await call<FlipsResult>(app, "priory_flips", {});
  assert.deepEqual(short.flips, []);
  assert.match(short.note ?? "", /flips need 60 minutes of snapshots.*ready by 2026-11-29T02:05Z/);
  await simulate(deps, market, ids, 90);
  const flips = await call<FlipsResult>(app, "priory_flips", { minVolume: 0 });
  assert.equal(flips.flips.length, 10, "the default limit");
  const profits = flips.flips.map((row) => row.profit);
  assert.deepEqual(profits, [...profits].sort((a, b) => b - a), "best profit first");
  for (const row of flips.flips) {
    assert.equal(row.margin, flipMargin(row.buy, row.sell));
    assert.ok(row.margin > 0);
    assert.equal(row.profit, Math.round(row.margin * row.perDay));
    assert.equal(row.name, app.fake.world.items.get(row.id)?.name);
  }
  const filtered = await call<FlipsResult>(app, "priory_flips", {
    limit: 25,
    minVolume: 50,
    minPrice: 100,
    maxPrice: 5_000,
  });
  assert.ok(filtered.flips.length > 0);
  for (const row of filtered.flips) {
    assert.ok(row.perDay >= 50 && row.buy >= 100 && row.buy <= 5_000, JSON.stringify(row));
  }
  const none = await call<FlipsResult>(app, "priory_flips", { minPrice: 1e12 });
  assert.deepEqual(none.flips, []);
  assert.match(none.note ?? "", /No flip passes the filters/);
});

Deno.test("priory_flips refuses bad filters", async () => {
  await using app = await startTestApp();
  assert.match(
    await refusal(app, "priory_flips", { limit: 26 }),
    /limit must be a whole number from 1 to 25/,
  );
  assert.match(await refusal(app, "priory_flips", { minVolume: -1 }), /minVolume must be ≥ 0/);
  assert.match(
    await refusal(app, "priory_flips", { maxPrice: "cheap" }),
    /maxPrice must be a number/,
  );
  assert.match(
    await refusal(app, "priory_flips", { minPrice: 5_000, maxPrice: 100 }),
    /minPrice \(5000\) is above maxPrice \(100\)/,
  );
});

Deno.test("priory_recipe_tree (250 Sunrises): the shopping list flags what the market sells less of in a week than the plan buys", async () => {
  await using app = await withHistory(2 * 60 + 10, worldPriceIds());
  await using client = await connectClient(app.handler);
  const result = await client.callTool({
    name: "priory_recipe_tree",
    arguments: { itemId: 30703, quantity: 250 },
  });
  assert.equal(result.isError, undefined, textOf(result));
  const rows = (result.structuredContent as {
    toBuy: { id?: number; count: number; unit?: number; soldPerWeek?: number }[];
  }).toBuy.filter((row) => row.id !== undefined && row.unit !== undefined);
  const volumes = await app.history.dailyVolumes(rows.map((row) => row.id ?? 0));
  let flagged = 0;
  for (const row of rows) {
    const daily = volumes.get(row.id ?? 0)?.soldPerDay;
    const week = daily === undefined ? undefined : Math.floor(daily * 7);
    if (week !== undefined && row.count > week) {
      assert.equal(row.soldPerWeek, week, `${row.id}: ${row.count} > ${week} a week`);
      flagged++;
    } else {
      assert.equal(row.soldPerWeek, undefined, `${row.id}: ${row.count} within a week's sales`);
    }
  }
  assert.ok(flagged > 0, "some of Sunrise's purchases sell slowly on the moving market");
});
