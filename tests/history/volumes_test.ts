import assert from "node:assert/strict";
import type { Bar } from "../../src/history/codec.ts";
import { foldHour, VOLUME_HALF_LIFE_HOURS, volumeRates } from "../../src/history/volumes.ts";

function bar(id: number, sold: number, bought: number, covered = 60): Bar {
  return {
    id,
    buyOpen: 1,
    buyClose: 1,
    buyLow: 1,
    buyHigh: 1,
    sellOpen: 2,
    sellClose: 2,
    sellLow: 2,
    sellHigh: 2,
    buyQty: 0,
    sellQty: 0,
    sold,
    bought,
    covered,
  };
}

Deno.test("foldHour(): the first hour's volume is its own rate", () => {
  const [volume] = foldHour(new Map(), [bar(1, 10, 4)], 1);
  assert.ok(volume);
  assert.deepEqual(volumeRates(volume), { soldPerDay: 240, boughtPerDay: 96 });
});

Deno.test("foldHour(): a steady market keeps its rate whatever the history's length", () => {
  let volumes = new Map();
  for (let hour = 0; hour < 100; hour++) {
    volumes = new Map(foldHour(volumes, [bar(1, 10, 4)], 1).map((v) => [v.id, v]));
  }
  assert.deepEqual(volumeRates(volumes.get(1)), { soldPerDay: 240, boughtPerDay: 96 });
});

Deno.test("foldHour(): a past hour's weight halves every half-life", () => {
  // A day of 10 an hour, then a day of nothing sold: the old day and the new weigh 1 : 1 only if
  // the new day's minutes count the same, so the rate lands between, nearer the recent.
  let volumes = new Map();
  const fold = (bars: Bar[], hours = 1) => {
    volumes = new Map(foldHour(volumes, bars, hours).map((v) => [v.id, v]));
  };
  fold([bar(1, 10, 0)]);
  fold([], VOLUME_HALF_LIFE_HOURS);
  const decayed = volumes.get(1);
  assert.equal(decayed.sold, 5, "halved after a half-life");
  assert.equal(decayed.covered, 30);
  assert.equal(volumeRates(decayed).soldPerDay, 240, "decay alone does not change the rate");
  fold([bar(1, 0, 0, 30)]);
  assert.ok(volumeRates(volumes.get(1)).soldPerDay! < 240, "an hour without sales lowers it");
});

Deno.test("foldHour(): an item that stopped trading long ago is forgotten", () => {
  let volumes = new Map(foldHour(new Map(), [bar(1, 1, 1, 5)], 1).map((v) => [v.id, v]));
  volumes = new Map(foldHour(volumes, [], 24 * 30).map((v) => [v.id, v]));
  assert.equal(volumes.size, 0);
});
