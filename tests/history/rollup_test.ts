import assert from "node:assert/strict";
import type { Bar, Tick } from "../../src/history/codec.ts";
import {
  DAY_MS,
  dueDays,
  dueHours,
  HOUR_MS,
  maxGapMs,
  rollBars,
  rollTicks,
  type Snapshot,
} from "../../src/history/rollup.ts";

const MIN = 60_000;
/** 2026-11-29T10:00Z: an hour boundary. */
const H = Date.UTC(2026, 10, 29, 10);
const GAP = maxGapMs(5);

function tick(id: number, buy: number, buyQty: number, sell: number, sellQty: number): Tick {
  return { id, buy, buyQty, sell, sellQty };
}

function at(minutes: number, ...ticks: Tick[]): Snapshot {
  return { t: H + minutes * MIN, ticks };
}

Deno.test("maxGapMs() is two and a half periods", () => {
  assert.equal(maxGapMs(5), 12.5 * MIN);
  assert.equal(maxGapMs(60), 150 * MIN);
});

Deno.test("rollTicks(): open/close/low/high per side, and the units each side lost", () => {
  // Sell listings: 100 → 90 (10 sold) → 95 (5 listed: not a sale) → 80 (15 sold).
  // Buy orders: 50 → 40 (10 bought) → 40 → 45 (orders placed: not a sale).
  const snapshots = [
    at(0, tick(1, 200, 50, 300, 100)),
    at(5, tick(1, 210, 40, 290, 90)),
    at(10, tick(1, 190, 40, 320, 95)),
    at(15, tick(1, 205, 45, 310, 80)),
  ];
  assert.deepEqual(rollTicks(snapshots, H, H + HOUR_MS, GAP), [{
    id: 1,
    buyOpen: 200,
    buyClose: 205,
    buyLow: 190,
    buyHigh: 210,
    sellOpen: 300,
    sellClose: 310,
    sellLow: 290,
    sellHigh: 320,
    buyQty: 45,
    sellQty: 80,
    sold: 25,
    bought: 10,
    covered: 15,
  }]);
});

Deno.test("rollTicks(): the snapshot before the hour measures the first change, and is not in the bar", () => {
  const snapshots = [
    at(-5, tick(1, 100, 10, 999, 100)),
    at(0, tick(1, 200, 8, 300, 90)),
    at(5, tick(1, 200, 8, 300, 90)),
  ];
  const [bar] = rollTicks(snapshots, H, H + HOUR_MS, GAP);
  assert.equal(bar?.sellOpen, 300, "the open is the hour's own first snapshot");
  assert.equal(bar?.sellHigh, 300);
  assert.equal(bar?.sold, 10, "the change across the boundary belongs to the hour it ends in");
  assert.equal(bar?.bought, 2);
  assert.equal(bar?.covered, 10);
});

Deno.test("rollTicks(): snapshots further apart than the gap limit count neither change nor minutes", () => {
  const snapshots = [
    at(0, tick(1, 200, 50, 300, 100)),
    at(40, tick(1, 200, 10, 300, 10)), // 40 min later: the server was down
    at(45, tick(1, 200, 5, 300, 4)),
  ];
  const [bar] = rollTicks(snapshots, H, H + HOUR_MS, GAP);
  assert.equal(bar?.sold, 6);
  assert.equal(bar?.bought, 5);
  assert.equal(bar?.covered, 5);
});

Deno.test("rollTicks(): low and high ignore an empty side; items appear as they are seen", () => {
  const snapshots = [
    at(0, tick(1, 0, 0, 300, 5)),
    at(5, tick(1, 120, 3, 0, 0), tick(2, 10, 1, 20, 1)),
    at(10, tick(1, 110, 3, 280, 2)),
    at(60, tick(1, 1, 1, 1, 1)), // the next hour: not in this bar
  ];
  const [one, two] = rollTicks(snapshots, H, H + HOUR_MS, GAP);
  assert.equal(one?.buyLow, 110);
  assert.equal(one?.buyHigh, 120);
  assert.equal(one?.sellLow, 280);
  assert.equal(one?.buyOpen, 0, "the open is what the first snapshot said");
  assert.equal(one?.sellClose, 280);
  assert.equal(one?.sold, 5, "the sell side emptied (5 sold), then 2 were listed");
  assert.deepEqual([two?.id, two?.covered, two?.sold], [2, 0, 0], "first seen: nothing measured");
});

Deno.test("rollBars(): a day from its hours", () => {
  const hour = (id: number, fields: Partial<Bar>): Bar => ({
    id,
    buyOpen: 100,
    buyClose: 100,
    buyLow: 100,
    buyHigh: 100,
    sellOpen: 200,
    sellClose: 200,
    sellLow: 200,
    sellHigh: 200,
    buyQty: 10,
    sellQty: 20,
    sold: 1,
    bought: 2,
    covered: 60,
    ...fields,
  });
  const day = rollBars([
    [hour(1, { buyOpen: 90, buyLow: 80 }), hour(2, {})],
    [hour(1, { sellHigh: 260, sellLow: 0, sold: 5 })],
    [hour(1, { buyClose: 130, buyHigh: 140, sellClose: 210, buyQty: 7, sellQty: 9, covered: 30 })],
  ]);
  assert.deepEqual(day, [
    hour(1, {
      buyOpen: 90,
      buyClose: 130,
      buyLow: 80,
      buyHigh: 140,
      sellClose: 210,
      sellLow: 200,
      sellHigh: 260,
      buyQty: 7,
      sellQty: 9,
      sold: 7,
      bought: 6,
      covered: 150,
    }),
    hour(2, {}),
  ]);
});

Deno.test("dueHours(): each ended hour once no snapshot of it can still arrive, from the first snapshot's hour", () => {
  const first = H + 7 * MIN;
  assert.deepEqual(dueHours({}, first, H + 55 * MIN, H + 58 * MIN), [], "the hour is still open");
  assert.deepEqual(
    dueHours({}, first, H + 55 * MIN, H + 62 * MIN),
    [],
    "ended, but its last snapshot may still be written: wait for one past the end",
  );
  assert.deepEqual(dueHours({}, first, H + 60 * MIN, H + 61 * MIN), [H]);
  assert.deepEqual(
    dueHours({}, first, H + 55 * MIN, H + 70 * MIN),
    [H],
    "no snapshot since (upstream down): rolled once none can still be arriving",
  );
  assert.deepEqual(
    dueHours({ hourlyUntil: H + HOUR_MS }, first, H + 185 * MIN, H + 186 * MIN),
    [H + HOUR_MS, H + 2 * HOUR_MS],
    "catches up, oldest first",
  );
  assert.deepEqual(
    dueHours({ hourlyUntil: H + 3 * HOUR_MS }, first, H + 185 * MIN, H + 186 * MIN),
    [],
  );
});

Deno.test("dueHours(): after an outage longer than the raw data kept, only hours still kept", () => {
  const now = H + 100 * HOUR_MS + 30 * MIN;
  const hours = dueHours({ hourlyUntil: H }, H, now, now);
  assert.equal(hours[0], H + 53 * HOUR_MS, "the oldest hour whose snapshots are all kept (48 h)");
  assert.equal(hours.at(-1), H + 99 * HOUR_MS);
});

Deno.test("dueDays(): each UTC day whose hours are all rolled up", () => {
  const day = Date.UTC(2026, 10, 29);
  const first = day + 10 * HOUR_MS;
  assert.deepEqual(dueDays({}, first, day + 2 * DAY_MS), [], "no hour rolled yet");
  assert.deepEqual(dueDays({ hourlyUntil: day + 23 * HOUR_MS }, first, day + DAY_MS), []);
  assert.deepEqual(dueDays({ hourlyUntil: day + DAY_MS }, first, day + DAY_MS + MIN), [day]);
  assert.deepEqual(
    dueDays({ hourlyUntil: day + 3 * DAY_MS, dailyUntil: day + DAY_MS }, first, day + 3 * DAY_MS),
    [day + DAY_MS, day + 2 * DAY_MS],
  );
});

Deno.test("rollTicks(): an item missing from one snapshot is measured across it, as its own series reads it (the 24h window)", async () => {
  const { samplesFromTicks } = await import("../../src/history/series.ts");
  // Item 1 is missing from the 10-minute snapshot (and from the last one before the hour).
  const series = [
    [-10, tick(1, 200, 50, 300, 100)],
    [-5, undefined],
    [0, tick(1, 200, 48, 300, 97)],
    [5, tick(1, 200, 45, 300, 94)],
    [10, undefined],
    [15, tick(1, 200, 40, 300, 90)],
    [20, tick(1, 200, 40, 300, 88)],
  ] as const;
  const snapshots = series.map(([minutes, item]) =>
    at(minutes, tick(2, 1, 1, 1, 1), ...(item === undefined ? [] : [item]))
  );
  const [bar] = rollTicks(snapshots, H, H + HOUR_MS, GAP);
  const own = samplesFromTicks(
    series.flatMap(([minutes, item]) =>
      item === undefined ? [] : [{ t: H + minutes * MIN, tick: item }]
    ),
    GAP,
  ).filter((sample) => sample.t >= H);
  const sum = (key: "sold" | "bought" | "covered") =>
    own.reduce((total, sample) => total + sample[key], 0);
  assert.deepEqual([bar?.sold, bar?.bought, bar?.covered], [
    sum("sold"),
    sum("bought"),
    sum("covered"),
  ]);
  assert.deepEqual([bar?.sold, bar?.bought, bar?.covered], [12, 10, 30]);
});
