import assert from "node:assert/strict";
import {
  type Bar,
  decodeBars,
  decodeNumbers,
  decodeSeen,
  decodeTicks,
  decodeVolumes,
  encodeBars,
  encodeNumbers,
  encodeSeen,
  encodeTicks,
  encodeVolumes,
  groupByShard,
  MAX_FIGURE,
  MAX_SHARD_BYTES,
  SHARD_SPAN,
  type Tick,
} from "../../src/history/codec.ts";
import { KV_VALUE_MAX_BYTES } from "../../src/kv/limits.ts";

const tick = (id: number, buy: number, buyQty: number, sell: number, sellQty: number): Tick => ({
  id,
  buy,
  buyQty,
  sell,
  sellQty,
});

Deno.test("ticks round-trip, ids as differences, every field exact up to 2^32 − 1", () => {
  const ticks = [
    tick(24, 0, 0, 1_593, 192),
    tick(68, 3_905, 82, 4_390, 140),
    tick(19_721, 2_603, 208_114, 2_797, 96_412),
    tick(90_000, MAX_FIGURE, 1, 99_999_999, MAX_FIGURE - 1),
  ];
  assert.deepEqual(decodeTicks(encodeTicks(ticks)), ticks);
});

Deno.test("a figure past 32 bits is stored as the largest one, not wrapped", () => {
  assert.deepEqual(decodeTicks(encodeTicks([tick(1, 2 ** 40, 0, 5, 0)])), [
    tick(1, MAX_FIGURE, 0, 5, 0),
  ]);
});

Deno.test("a tick of small figures takes a few bytes, not twenty", () => {
  // id difference 1, buy 300 (2 bytes), 50 ordered, sell 350 (2), 40 listed.
  const packed = encodeTicks([tick(1, 300, 50, 350, 40)]);
  assert.equal(packed.byteLength, 2 + 1 + 2 + 1 + 2 + 1);
});

Deno.test("bars round-trip, including open/low/high below and above the close", () => {
  const bar: Bar = {
    id: 19_721,
    buyOpen: 2_600,
    buyClose: 2_603,
    buyLow: 2_590,
    buyHigh: 2_650,
    sellOpen: 2_800,
    sellClose: 2_797,
    sellLow: 0,
    sellHigh: 2_900,
    buyQty: 208_114,
    sellQty: 96_412,
    sold: 1_200,
    bought: 800,
    covered: 60,
  };
  const other: Bar = { ...bar, id: 19_722, sold: 0, bought: 0, covered: 0 };
  assert.deepEqual(decodeBars(encodeBars([bar, other])), [bar, other]);
});

Deno.test("first-seen, volumes and number lists round-trip", () => {
  const seen = [{ id: 3, minute: 29_000_000 }, { id: 300, minute: 29_000_005 }];
  assert.deepEqual(decodeSeen(encodeSeen(seen)), seen);
  const volumes = [{ id: 5, sold: 12.25, bought: 0.01, covered: 1_440 }];
  assert.deepEqual(decodeVolumes(encodeVolumes(volumes)), volumes);
  assert.deepEqual(decodeNumbers(encodeNumbers([9, 2, 400])), [2, 9, 400]);
});

Deno.test("a value of another format, or cut short, decodes to what parsed whole, never to wrong figures", () => {
  const packed = encodeTicks([tick(1, 300, 50, 350, 40), tick(2, 301, 51, 351, 41)]);
  assert.deepEqual(decodeBars(packed), [], "ticks are not bars");
  assert.deepEqual(decodeTicks(packed.slice(0, packed.byteLength - 1)), [
    tick(1, 300, 50, 350, 40),
  ]);
  assert.deepEqual(decodeTicks(new Uint8Array()), []);
});

Deno.test("packing refuses a negative or fractional figure", () => {
  assert.throws(() => encodeTicks([tick(1, -1, 0, 0, 0)]), RangeError);
  assert.throws(() => encodeTicks([tick(1, 1.5, 0, 0, 0)]), RangeError);
});

Deno.test("groupByShard() sorts by id within ascending shards, the last duplicate winning", () => {
  const grouped = groupByShard([
    tick(300, 1, 1, 1, 1),
    tick(5, 1, 1, 1, 1),
    tick(260, 2, 2, 2, 2),
    tick(5, 9, 9, 9, 9),
  ], 256);
  assert.deepEqual([...grouped.keys()], [0, 1]);
  assert.deepEqual(grouped.get(0)?.map((t) => [t.id, t.buy]), [[5, 9]]);
  assert.deepEqual(grouped.get(1)?.map((t) => t.id), [260, 300]);
});

Deno.test("a full shard at the largest figures stays under KV's value limit", () => {
  const huge = MAX_FIGURE;
  const ticks = Array.from({ length: SHARD_SPAN.raw }, (_, i) => tick(i, huge, huge, huge, huge));
  const bar: Omit<Bar, "id"> = {
    buyOpen: 0,
    buyClose: huge,
    buyLow: 0,
    buyHigh: huge,
    sellOpen: 0,
    sellClose: huge,
    sellLow: 0,
    sellHigh: huge,
    buyQty: huge,
    sellQty: huge,
    sold: huge,
    bought: huge,
    covered: huge,
  };
  const bars = Array.from({ length: SHARD_SPAN.hourly }, (_, id) => ({ ...bar, id }));
  assert.ok(encodeTicks(ticks).byteLength <= MAX_SHARD_BYTES);
  assert.ok(encodeBars(bars).byteLength <= MAX_SHARD_BYTES);
  assert.ok(MAX_SHARD_BYTES < KV_VALUE_MAX_BYTES);
});
