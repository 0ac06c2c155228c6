/**
 * The history's read side over histories built by the jobs from the fake's moving market: each
 * window's points and figures, the tiers joined without double counting, and the flips.
 */
import assert from "node:assert/strict";
import { flipMargin } from "../../src/market/flip.ts";
import { DAY_MS, HOUR_MS, rollTicks } from "../../src/history/rollup.ts";
import { type Point, UNITS } from "../../src/history/series.ts";
import { getWorld } from "../fake_gw2/mod.ts";
import { ManualClock } from "../support/clock.ts";
import {
  historyDeps,
  historyReader,
  MovingMarket,
  simulate,
  tickOf,
  worldPriceIds,
} from "../support/history.ts";
import { openMemoryKv } from "../support/kv.ts";

const MIN = 60_000;
const IDS = worldPriceIds(400).slice(-60);
const START = Date.UTC(2026, 10, 29, 0, 0);

Deno.test("a fresh server has no history: every id unseen, the first snapshot within two minutes", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: START + 20_000 });
  const reader = historyReader(historyDeps({ kv, clock }));
  const read = await reader.read([19721, 24], "24h");
  assert.deepEqual(read.items, []);
  assert.deepEqual(read.unseen, [19721, 24]);
  assert.equal(read.latest, undefined);
  assert.equal(reader.nextSnapshot(undefined), START + 2 * MIN);
  assert.deepEqual(await reader.flips(), { ready: false, reason: "none", covered: 0 });
});

Deno.test("24h: at most ~50 points from the snapshots, the latest prices last, trades estimated from quantity drops", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: START });
  const deps = historyDeps({ kv, clock });
  const market = new MovingMarket();
  await simulate(deps, market, IDS, 6 * 60);
  const reader = historyReader(deps);
  const read = await reader.read(IDS, "24h");
  assert.equal(read.items.length, IDS.length);
  assert.deepEqual([read.unit, read.step], ["minute", 60], "past 5 items, half the points each");
  const few = await reader.read(IDS.slice(0, 5), "24h");
  assert.equal(few.step, 30);
  for (const item of few.items) {
    assert.ok(item.points.length <= 50 && item.points.length >= 12, `${item.points.length} points`);
  }
  const latest = read.latest ?? 0;
  for (const item of read.items) {
    assert.ok(item.points.length <= 25 && item.points.length >= 6, `${item.points.length} points`);
    assert.equal(item.since, START + MIN, "seen in the first snapshot");
    const last = item.points.at(-1);
    assert.equal(last?.[0], (latest - read.from) / MIN, "the last point is the latest snapshot");
    const base = getWorld().prices.get(item.id);
    assert.ok(base);
    const now = tickOf(market.price(base, latest));
    assert.equal(item.sell, now.sell);
    assert.equal(last?.[2], now.sell === 0 ? null : now.sell);
    assert.equal(item.margin, flipMargin(now.buy, now.sell));
    const times = item.points.map((point) => point[0]);
    assert.deepEqual(times, [...times].sort((a, b) => a - b), "oldest first");
  }
  // The market's own trade rates: the estimate sees every minute's trades but the hour's
  // restock interval, plus the withdrawals it cannot tell from sales.
  for (const item of read.items) {
    const base = getWorld().prices.get(item.id);
    if (base === undefined) continue;
    const params = market.params(base);
    const sold = item.summary.soldPerDay ?? 0;
    const lowest = params.sellRate * 1440 * (50 / 60) - 2 * 24;
    const highest = params.sellRate * 1440 + params.cancelUnits * 24 + 24;
    assert.ok(sold >= lowest && sold <= highest, `${item.id}: ${sold} in [${lowest}, ${highest}]`);
  }
  const dead = read.items.find((item) => {
    const base = getWorld().prices.get(item.id);
    return base !== undefined && market.params(base).sellRate === 0;
  });
  if (dead !== undefined) assert.equal(dead.summary.soldPerDay, 0, "an item nobody trades");
  assert.ok(read.items.some((item) => (item.summary.soldPerDay ?? 0) > 0));
});

Deno.test("7d and 30d over three days: hourly and daily bars, then the snapshots not rolled up, each stretch once", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: START });
  const deps = historyDeps({ kv, clock, snapshotMinutes: 30 });
  const market = new MovingMarket();
  const ids = IDS.slice(0, 12);
  await simulate(deps, market, ids, 3 * 24 * 60 + 50, { upkeepEvery: 30 });
  const reader = historyReader(deps);
  const state = await deps.history.rollupState();
  assert.equal(state.hourlyUntil, START + 3 * DAY_MS);
  assert.equal(state.dailyUntil, START + 3 * DAY_MS);
  const week = await reader.read(ids, "7d");
  const month = await reader.read(ids, "30d");
  const day = await reader.read(ids, "24h");
  assert.deepEqual([week.unit, week.step], ["hour", 8], "12 items: 8-hour steps, in hours");
  assert.deepEqual([month.unit, month.step], ["day", 2], "12 items: 2-day steps");
  assert.equal(week.from % HOUR_MS, 0, "the window starts on its unit");
  assert.equal(month.from % DAY_MS, 0);
  for (const [index, item] of week.items.entries()) {
    const inMonth = month.items[index];
    const inDay = day.items[index];
    assert.ok(inMonth && inDay);
    assert.ok(item.points.length <= 25 && item.points.length >= 9);
    assert.ok(inMonth.points.length <= 5, "30d: a point a day");
    // The same latest prices whichever window; sales summed once, whichever tiers.
    // A point's time in its window's unit, to a few minutes (a tenth of an hour, a hundredth of
    // a day): the latest snapshot's time, read back from each window.
    const at = (read: typeof week, point: Point | undefined) =>
      point === undefined ? undefined : read.from + point[0] * UNITS[read.unit].ms;
    const latest = at(day, inDay.points.at(-1)) ?? 0;
    assert.ok(Math.abs((at(week, item.points.at(-1)) ?? 0) - latest) <= 3 * MIN);
    assert.ok(Math.abs((at(month, inMonth.points.at(-1)) ?? 0) - latest) <= 7.2 * MIN);
    assert.deepEqual(item.points.at(-1)?.slice(1, 3), inDay.points.at(-1)?.slice(1, 3));
    assert.deepEqual(inMonth.points.at(-1)?.slice(1, 3), inDay.points.at(-1)?.slice(1, 3));
    const soldWeek = item.points.reduce((sum, point) => sum + point[3], 0);
    const soldMonth = inMonth.points.reduce((sum, point) => sum + point[3], 0);
    assert.equal(soldWeek, soldMonth, "the same three days' sales, by hours or by days");
    assert.equal(item.summary.coveredMinutes, inMonth.summary.coveredMinutes);
    assert.ok(
      item.summary.coveredMinutes <= 3 * 1440 + 50 && item.summary.coveredMinutes > 3 * 1440 - 60,
    );
  }
});

Deno.test("1y: a year of daily bars folds into at most ~50 points, the oldest first", async () => {
  using kv = await openMemoryKv();
  const now = Date.UTC(2027, 10, 29, 0, 30);
  const clock = new ManualClock({ start: now });
  const deps = historyDeps({ kv, clock });
  const market = new MovingMarket();
  const ids = IDS.slice(0, 5);
  const prices = getWorld().prices;
  for (let day = 366; day >= 1; day--) {
    const start = Date.UTC(2027, 10, 29) - day * DAY_MS;
    const bars = ids.map((id) => {
      const tick = tickOf(market.price(prices.get(id)!, start + 12 * HOUR_MS));
      return {
        id,
        buyOpen: tick.buy,
        buyClose: tick.buy,
        buyLow: tick.buy,
        buyHigh: tick.buy,
        sellOpen: tick.sell,
        sellClose: tick.sell,
        sellLow: tick.sell,
        sellHigh: tick.sell,
        buyQty: tick.buyQty,
        sellQty: tick.sellQty,
        sold: 10,
        bought: 5,
        covered: 1440,
      };
    });
    await deps.history.writeBars("daily", start, bars);
  }
  await deps.history.writeSnapshot(now - 10 * MIN, ids.map((id) => tickOf(prices.get(id)!)));
  await deps.history.setRollupState({
    hourlyUntil: Date.UTC(2027, 10, 29),
    dailyUntil: Date.UTC(2027, 10, 29),
  });
  const read = await historyReader(deps).read(ids, "1y");
  for (const item of read.items) {
    assert.ok(item.points.length <= 50 && item.points.length >= 40, `${item.points.length} points`);
    assert.equal(read.unit, "day");
    assert.ok(item.points.every((point) => point[0] >= 0 && point[0] <= 366), "days after from");
    assert.ok(item.points.slice(0, -1).every((point) => Number.isInteger(point[0])), "bars: whole");
    assert.equal(item.summary.soldPerDay, 10, "10 a day every day");
    assert.equal(item.summary.boughtPerDay, 5);
    assert.ok(item.summary.change !== null && item.summary.volatility !== null);
  }
});

Deno.test("flips: none without snapshots, why while volumes are short, then the positive margins of the latest snapshot", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: START + 10 * MIN });
  const deps = historyDeps({ kv, clock });
  const market = new MovingMarket();
  const ids = worldPriceIds(600);
  const reader = historyReader(deps);
  await simulate(deps, market, ids, 40);
  const early = await reader.flips();
  assert.equal(early.ready, false);
  assert.equal(early.ready === false && early.reason, "short");
  // 00:51 → 02:05: two hours rolled up (00:00 partial, 01:00 whole): 109 measured minutes.
  await simulate(deps, market, ids, 75);
  const flips = await reader.flips();
  assert.ok(flips.ready, JSON.stringify(flips));
  assert.ok(flips.candidates.length > 0);
  const latest = await deps.history.snapshot(flips.latest);
  const byId = new Map(latest.map((tick) => [tick.id, tick]));
  for (const flip of flips.candidates) {
    const tick = byId.get(flip.id);
    assert.ok(tick);
    assert.equal(flip.buy, tick.buy);
    assert.equal(flip.sell, tick.sell);
    assert.equal(flip.margin, flipMargin(tick.buy, tick.sell));
    assert.ok(flip.margin > 0);
    assert.equal(flip.profit, Math.round(flip.margin * flip.perDay));
  }
  const volumes = await reader.dailyVolumes(flips.candidates.slice(0, 3).map((flip) => flip.id));
  for (const flip of flips.candidates.slice(0, 3)) {
    const volume = volumes.get(flip.id);
    assert.equal(Math.min(volume?.soldPerDay ?? -1, volume?.boughtPerDay ?? -1), flip.perDay);
  }
  assert.ok(clock.now() >= START + 2 * HOUR_MS);
});

/** `kv` counting its reads: each `get`, `getMany` and `list` call. */
function countingKv(kv: Deno.Kv): { kv: Deno.Kv; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(kv, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (property === "get" || property === "getMany" || property === "list") reads++;
        return Reflect.apply(value, target, args);
      };
    },
  });
  return { kv: counted, reads: () => reads };
}

Deno.test("20 ids over a year: one range read per shard and tier, whatever the days, plus a few index reads", async () => {
  using kv = await openMemoryKv();
  const now = Date.UTC(2027, 10, 29, 9, 40);
  const clock = new ManualClock({ start: now });
  const writer = historyDeps({ kv, clock }).history;
  // 20 ids, each in a shard of its own at every tier.
  const ids = Array.from({ length: 20 }, (_, i) => 100 + i * 1_000);
  const tick = (id: number) => ({ id, buy: 100, buyQty: 10, sell: 120, sellQty: 20 });
  const bar = rollTicks([{ t: 0, ticks: ids.map(tick) }], 0, 1, 1);
  const today = Date.UTC(2027, 10, 29);
  for (let day = 365; day >= 1; day--) await writer.writeBars("daily", today - day * DAY_MS, bar);
  for (let hour = 0; hour < 9; hour++) {
    await writer.writeBars("hourly", today + hour * HOUR_MS, bar);
  }
  for (let t = now - 2 * HOUR_MS; t <= now; t += 5 * MIN) {
    await writer.writeSnapshot(t, ids.map(tick));
  }
  await writer.setRollupState({ hourlyUntil: today + 9 * HOUR_MS, dailyUntil: today });
  const counting = countingKv(kv);
  const reader = historyReader(historyDeps({ kv: counting.kv, clock }));
  const read = await reader.read(ids, "1y");
  assert.equal(read.items.length, 20);
  assert.ok(read.items.every((item) => item.points.length >= 20));
  // 3 tiers × 20 shards, the latest snapshot, the first-seen times (2 × 10 keys), the roll-up
  // state, and each tier's period list.
  assert.equal(counting.reads(), 3 * 20 + 1 + 2 + 1 + 3);
});
