import assert from "node:assert/strict";
import {
  type Bar,
  decodeBars,
  decodeBarSeries,
  decodeNumbers,
  decodeSeen,
  decodeTicks,
  decodeTickSeries,
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

Deno.test("a tick of small figures takes a few bytes, not twenty; an empty side nothing", () => {
  // Format, keyframe, count; id difference 1 with its mask (one byte), buy 300 (2 bytes), 50
  // ordered, sell 350 (2), 40 listed.
  assert.equal(encodeTicks([tick(1, 300, 50, 350, 40)]).byteLength, 3 + 1 + 2 + 1 + 2 + 1);
  assert.equal(encodeTicks([tick(1, 0, 0, 350, 40)]).byteLength, 3 + 1 + 2 + 1, "no buy order");
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
  const late: Bar = { ...bar, id: 19_723, covered: 75 };
  assert.deepEqual(decodeBars(encodeBars([bar, other, late], 60), 60), [bar, other, late]);
  const flat: Bar = {
    ...bar,
    buyOpen: 2_603,
    buyLow: 2_603,
    buyHigh: 2_603,
    sellOpen: 2_797,
    sellLow: 2_797,
    sellHigh: 2_797,
    sold: 0,
    bought: 0,
  };
  // A flat, quiet, fully measured hour: its two closes and two quantities, nothing else.
  assert.equal(encodeBars([flat], 60).byteLength, 3 + 4 + 2 + 2 + 3 + 3, "id and mask: 4 bytes");
});

Deno.test("first-seen, volumes and number lists round-trip", () => {
  const seen = [{ id: 3, minute: 29_000_000 }, { id: 300, minute: 29_000_005 }];
  assert.deepEqual(decodeSeen(encodeSeen(seen)), seen);
  const volumes = [{ id: 5, sold: 12.25, bought: 0.01, covered: 1_440 }];
  assert.deepEqual(decodeVolumes(encodeVolumes(volumes)), volumes);
  assert.deepEqual(decodeNumbers(encodeNumbers([9, 2, 400])), [2, 9, 400]);
});

Deno.test("a value of another format, or cut short, decodes to nothing, never to wrong figures", () => {
  const packed = encodeTicks([tick(1, 300, 50, 350, 40), tick(2, 301, 51, 351, 41)]);
  assert.deepEqual(decodeBars(packed, 60), [], "ticks are not bars");
  assert.deepEqual(decodeTicks(packed.slice(0, packed.byteLength - 1)), [], "cut");
  assert.deepEqual(decodeTicks(new Uint8Array([...packed, 0])), [], "trailing bytes");
  assert.deepEqual(decodeTicks(new Uint8Array()), []);
  // This layout's first formats (1: ticks, 2: bars, without masks or deltas) read as nothing.
  assert.deepEqual(decodeTicks(new Uint8Array([1, 1, 1, 172, 2, 50, 222, 2, 40])), []);
  assert.deepEqual(decodeBars(new Uint8Array([2, 0]), 60), []);
});

const T = Date.UTC(2026, 10, 29, 10);
const FIVE = 300_000;

Deno.test("a delta against the shard's previous period: changed records as differences, unchanged ones left out, new and gone ids", () => {
  // Quiet items beside: a delta pays for its header once the shard holds a few.
  const quiet = Array.from({ length: 20 }, (_, i) => tick(20 + i, 5_000 + i, 300, 6_000 + i, 400));
  const first = [tick(3, 100, 10, 120, 20), tick(5, 200, 5, 250, 8), tick(9, 7, 1, 9, 2), ...quiet];
  // 3 moved; 5 did not; 9 is gone; 7 is new.
  const second = [
    tick(3, 101, 9, 120, 18),
    tick(5, 200, 5, 250, 8),
    tick(7, 40, 4, 50, 6),
    ...quiet,
  ];
  const third = second;
  const values = [
    { t: T, value: encodeTicks(first) },
    { t: T + FIVE, value: encodeTicks(second, { gap: FIVE, records: first }) },
    { t: T + 2 * FIVE, value: encodeTicks(third, { gap: FIVE, records: second }) },
  ];
  assert.deepEqual(decodeTickSeries(values), [
    { t: T, records: first },
    { t: T + FIVE, records: second },
    { t: T + 2 * FIVE, records: third },
  ]);
  const [, delta, still] = values.map(({ value }) => value.byteLength);
  assert.ok(delta !== undefined && delta < encodeTicks(second).byteLength / 3, `${delta} bytes`);
  // Nothing changed: the header alone (format, delta, gap, checksum, none gone, none written).
  assert.equal(still, 1 + 1 + 3 + 4 + 1 + 1);
  // Bars too, against the hour before.
  const bar: Bar = {
    id: 4,
    buyOpen: 90,
    buyClose: 100,
    buyLow: 80,
    buyHigh: 110,
    sellOpen: 120,
    sellClose: 125,
    sellLow: 115,
    sellHigh: 130,
    buyQty: 50,
    sellQty: 60,
    sold: 7,
    bought: 3,
    covered: 60,
  };
  const hour = Array.from({ length: 10 }, (_, i) => ({ ...bar, id: 4 + i }));
  const next = hour.map((b, i) => i === 0 ? { ...b, buyClose: 104, sold: 0, covered: 55 } : b);
  const later = encodeBars(next, 60, { gap: 3_600_000, records: hour });
  assert.ok(later.byteLength < encodeBars(next, 60).byteLength / 3, `${later.byteLength} bytes`);
  assert.deepEqual(
    decodeBarSeries([
      { t: T, value: encodeBars(hour, 60) },
      { t: T + 3_600_000, value: later },
    ], 60),
    [{ t: T, records: hour }, { t: T + 3_600_000, records: next }],
  );
});

Deno.test("a delta read without its base, or against another one, is left out with the deltas after it, until a keyframe", () => {
  const quiet = Array.from({ length: 20 }, (_, i) => tick(20 + i, 5_000 + i, 300, 6_000 + i, 400));
  const first = [tick(3, 100, 10, 120, 20), ...quiet];
  const second = [tick(3, 101, 9, 121, 19), ...quiet];
  const third = [tick(3, 102, 8, 122, 18), ...quiet];
  const fourth = [tick(3, 103, 7, 123, 17), ...quiet];
  const delta2 = encodeTicks(second, { gap: FIVE, records: first });
  const delta3 = encodeTicks(third, { gap: FIVE, records: second });
  const key4 = encodeTicks(fourth);
  // The base missing (a period cut, or deleted): 2 and 3 cannot be read; 4 is a keyframe.
  assert.deepEqual(
    decodeTickSeries([
      { t: T + FIVE, value: delta2 },
      { t: T + 2 * FIVE, value: delta3 },
      { t: T + 3 * FIVE, value: key4 },
    ]),
    [{ t: T + 3 * FIVE, records: fourth }],
  );
  // A base at another time than the one named.
  assert.deepEqual(
    decodeTickSeries([{ t: T, value: encodeTicks(first) }, { t: T + 2 * FIVE, value: delta2 }]),
    [{ t: T, records: first }],
  );
  // A base with the same time but other records (another instance's sheet): the checksum.
  const other = [tick(3, 100, 10, 120, 21), ...quiet];
  assert.deepEqual(
    decodeTickSeries([{ t: T, value: encodeTicks(other) }, { t: T + FIVE, value: delta2 }]),
    [{ t: T, records: other }],
  );
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

Deno.test("a full shard at the largest figures and differences stays under KV's value limit", () => {
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
  // Every field as far from its base as it can be: each difference twice the largest figure.
  const mirror = (b: Bar): Bar => ({
    ...b,
    buyOpen: huge,
    buyClose: 0,
    buyLow: huge,
    buyHigh: 0,
    sellOpen: huge,
    sellClose: 0,
    sellLow: huge,
    sellHigh: 0,
    buyQty: 0,
    sellQty: 0,
    sold: 0,
    bought: 0,
    covered: 0,
  });
  const zeros = ticks.map((t) => tick(t.id, 0, 0, 0, 0));
  const sizes = [
    encodeTicks(ticks).byteLength,
    encodeTicks(ticks, { gap: 2 ** 40, records: zeros }).byteLength,
    encodeBars(bars, 60).byteLength,
    encodeBars(bars.map(mirror), 60, { gap: 2 ** 40, records: bars }).byteLength,
  ];
  for (const size of sizes) assert.ok(size <= MAX_SHARD_BYTES, `${size} ≤ ${MAX_SHARD_BYTES}`);
  assert.ok(MAX_SHARD_BYTES < KV_VALUE_MAX_BYTES);
});
