import assert from "node:assert/strict";
import type { Tick } from "../../src/history/codec.ts";
import { DAY_MS, HOUR_MS, maxGapMs } from "../../src/history/rollup.ts";
import {
  downsample,
  flipFigure,
  perDay,
  type Sample,
  samplesFromBars,
  samplesFromTicks,
  stepFor,
  summarize,
  WINDOWS,
} from "../../src/history/series.ts";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 29, 10);

function tick(buy: number, buyQty: number, sell: number, sellQty: number): Tick {
  return { id: 7, buy, buyQty, sell, sellQty };
}

function sample(minutes: number, sell: number, fields: Partial<Sample> = {}): Sample {
  return {
    t: T0 + minutes * MIN,
    buy: sell - 10,
    sell,
    sellLow: sell,
    sellHigh: sell,
    sold: 0,
    bought: 0,
    covered: 5,
    ...fields,
  };
}

Deno.test("every window folds into at most ~50 points", () => {
  for (const [name, { ms, stepMs }] of Object.entries(WINDOWS)) {
    assert.ok(ms / stepMs + 1 <= 50, `${name}: ${ms / stepMs + 1} points at most`);
    assert.ok(ms / stepMs >= 30, `${name}: still a curve (${ms / stepMs} steps)`);
  }
});

Deno.test("stepFor(): a window's step for up to 5 items, twice it for more (~25 points each)", () => {
  assert.equal(stepFor("24h", 1), 30 * MIN);
  assert.equal(stepFor("24h", 5), 30 * MIN);
  assert.equal(stepFor("24h", 6), 60 * MIN);
  assert.equal(stepFor("1y", 20), 16 * 24 * 60 * MIN);
});

Deno.test("samplesFromTicks(): each sample carries the change since the snapshot before", () => {
  const samples = samplesFromTicks([
    { t: T0, tick: tick(100, 50, 120, 40) },
    { t: T0 + 5 * MIN, tick: tick(101, 45, 121, 30) },
    { t: T0 + 60 * MIN, tick: tick(102, 10, 122, 10) }, // after an outage
  ], maxGapMs(5));
  assert.deepEqual(samples.map((s) => [s.sold, s.bought, s.covered]), [
    [0, 0, 0],
    [10, 5, 5],
    [0, 0, 0],
  ]);
  assert.deepEqual(samples.map((s) => s.sell), [120, 121, 122]);
});

Deno.test("samplesFromBars(): a bar's sample ends with its period, at its close", () => {
  const [one] = samplesFromBars([{
    start: T0,
    bar: {
      id: 7,
      buyOpen: 1,
      buyClose: 2,
      buyLow: 1,
      buyHigh: 3,
      sellOpen: 10,
      sellClose: 12,
      sellLow: 9,
      sellHigh: 14,
      buyQty: 5,
      sellQty: 6,
      sold: 4,
      bought: 3,
      covered: 55,
    },
  }], HOUR_MS);
  assert.deepEqual(one, {
    t: T0 + HOUR_MS,
    buy: 2,
    sell: 12,
    sellLow: 9,
    sellHigh: 14,
    sold: 4,
    bought: 3,
    covered: 55,
  });
});

Deno.test("downsample(): one point per step, at its last sample's time and prices, traded units summed", () => {
  const from = T0;
  const samples = [
    sample(-5, 999, { sold: 100 }), // before the window: left out
    sample(5, 100, { sold: 1, bought: 2 }),
    sample(20, 110, { sold: 3 }),
    sample(30, 120, { sold: 4 }), // exactly on the boundary: closes the first step
    sample(35, 130, { sold: 5, bought: 1, sell: 0 }),
  ];
  assert.deepEqual(downsample(samples, from, 30 * MIN), [
    [30, 110, 120, 8, 2],
    [35, 120, null, 5, 1],
  ]);
});

Deno.test("summarize(): change, low, high, volatility and the daily rates of a hand-built series", () => {
  // 12 five-minute samples (an hour measured): the listing drops 100 → 90, 24 units sold, 6 bought.
  const samples = Array.from({ length: 12 }, (_, i) =>
    sample((i + 1) * 5, i < 6 ? 100 : 90, {
      sold: 2,
      bought: i % 2 === 0 ? 1 : 0,
      sellLow: i === 3 ? 85 : i < 6 ? 100 : 90,
      sellHigh: i === 8 ? 140 : i < 6 ? 100 : 90,
    }));
  const points = downsample(samples, T0, 30 * MIN);
  const summary = summarize(samples, points);
  assert.equal(summary.change, -10, "100 → 90: −10 %");
  assert.equal(summary.low, 85, "low is the lowest listing seen, not a point's");
  assert.equal(summary.high, 140);
  assert.equal(summary.soldPerDay, 24 * 24, "24 units in 60 measured minutes: 576 a day");
  assert.equal(summary.boughtPerDay, 6 * 24);
  assert.equal(summary.coveredMinutes, 60);
  // Points' sells: 100 (the step ending at 30 min) then 90: mean 95, deviation 5 → 5.3 %.
  assert.deepEqual(points.map((p) => p[2]), [100, 90]);
  assert.equal(summary.volatility, 5.3);
});

Deno.test("summarize(): no measured minutes, no rate; one price, no change", () => {
  const summary = summarize([sample(0, 100, { covered: 0 })], []);
  assert.equal(summary.soldPerDay, null);
  assert.equal(summary.boughtPerDay, null);
  assert.equal(summary.change, null);
  assert.equal(summary.volatility, null);
  assert.equal(summary.low, 100);
});

Deno.test("perDay(): whole units from 10 a day, a tenth below", () => {
  assert.equal(perDay(1, 1440), 1);
  assert.equal(perDay(1, 2880), 0.5);
  assert.equal(perDay(7, 60), 168);
  assert.equal(perDay(0.33, 1440), 0.3);
  assert.equal(perDay(5, 0), null);
});

Deno.test("flipFigure(): the contract's margin × the smaller daily volume", () => {
  // margin = floor(199 × 0.85) − 101 = 68; min(40, 25) = 25 a day → 1,700 a day.
  assert.deepEqual(flipFigure(100, 200, 40, 25), { margin: 68, perDay: 25, profit: 1_700 });
  assert.deepEqual(flipFigure(100, 105, 40, 25), { margin: -13, perDay: 25, profit: 0 });
  assert.deepEqual(flipFigure(100, 200, null, 25), { margin: 68, perDay: null, profit: null });
  assert.deepEqual(flipFigure(0, 200, 40, 25), { margin: null, perDay: 25, profit: null });
});

Deno.test("downsample(): point times in the window's unit after from — minutes, hours to a tenth, days to a hundredth", () => {
  const samples = [
    sample(60, 100),
    sample(240, 110),
    sample(24 * 60, 120),
    sample(24 * 60 + 137, 130), // a snapshot's time, off any boundary
  ];
  // 4-hour steps aligned to the epoch: 08:00–12:00, 12:00–16:00, …; days: UTC days.
  assert.deepEqual(downsample(samples, T0, 4 * HOUR_MS, "hour").map((p) => p[0]), [1, 4, 24, 26.3]);
  assert.deepEqual(downsample(samples, T0, DAY_MS, "day").map((p) => p[0]), [0.17, 1.1]);
  assert.deepEqual(downsample(samples, T0, 4 * HOUR_MS).map((p) => p[0]), [60, 240, 1440, 1577]);
});
