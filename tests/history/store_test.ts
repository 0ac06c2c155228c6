/**
 * The history store's deltas over real series: every period reads back exactly as written, from
 * any segment's start, whichever instance wrote the one before; a period whose base is not there
 * reads as nothing.
 */
import assert from "node:assert/strict";
import { recordSnapshot } from "../../src/background/history.ts";
import { type Bar, segmentStart, SHARD_SPAN, ticksOfSheet } from "../../src/history/codec.ts";
import { DAY_MS, HOUR_MS, rollTicks } from "../../src/history/rollup.ts";
import { HistoryStore } from "../../src/history/store.ts";
import type { MarketSheet } from "../../src/market/sheet.ts";
import { ManualClock } from "../support/clock.ts";
import {
  HISTORY_NAMESPACE,
  historyDeps,
  MovingMarket,
  movingSheet,
  simulate,
  worldPriceIds,
} from "../support/history.ts";
import { openMemoryKv } from "../support/kv.ts";

const MIN = 60_000;
const IDS = worldPriceIds(900);
const START = Date.UTC(2026, 10, 29, 9, 40);

/** Bytes of the raw values of the snapshot at `t`. */
async function rawBytes(kv: Deno.Kv, t: number): Promise<number> {
  let bytes = 0;
  for await (const entry of kv.list<Uint8Array>({ prefix: ["history"] })) {
    if (entry.key.includes("raw") && entry.key.includes("data") && entry.key.at(-1) === t) {
      bytes += entry.value.byteLength;
    }
  }
  return bytes;
}

Deno.test("two instances taking turns: each snapshot a delta against the other's (through the sheet before), every one read back exactly", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: START });
  const market = new MovingMarket({ quiet: true });
  const instances = [
    historyDeps({ kv, clock, owner: "a" }),
    historyDeps({ kv, clock, owner: "b" }),
  ];
  const sheets: MarketSheet[] = [];
  for (let index = 0; index < 8; index++) {
    const deps = instances[index % 2];
    assert.ok(deps);
    const sheet = movingSheet(market, IDS, clock.now());
    assert.ok((await recordSnapshot(deps, sheet, sheets.at(-1))).ran);
    sheets.push(sheet);
    clock.advance(5 * MIN);
  }
  const reader = instances[0]?.history;
  assert.ok(reader);
  const fresh = new HistoryStore({ kv, namespace: HISTORY_NAMESPACE, clock });
  for (const sheet of sheets) {
    assert.deepEqual(await fresh.snapshot(sheet.takenAt), ticksOfSheet(sheet));
  }
  // 09:40 … 09:55 in one hour, 10:00 a keyframe (a new hour), 10:05 … 10:15 deltas again.
  const sizes = await Promise.all(sheets.map((sheet) => rawBytes(kv, sheet.takenAt)));
  const keyframe = sizes[0] ?? 0;
  assert.deepEqual(
    sizes.map((size) => size > keyframe / 2),
    [true, false, false, false, true, false, false, false],
    `bytes: ${sizes}`,
  );
});

Deno.test("without the sheet before, another instance's next snapshot is a keyframe: still exact", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: START });
  const market = new MovingMarket({ quiet: true });
  const a = historyDeps({ kv, clock, owner: "a" });
  const b = historyDeps({ kv, clock, owner: "b" });
  const first = movingSheet(market, IDS, clock.now());
  await recordSnapshot(a, first);
  clock.advance(5 * MIN);
  const second = movingSheet(market, IDS, clock.now());
  await recordSnapshot(b, second);
  const sizes = [await rawBytes(kv, first.takenAt), await rawBytes(kv, second.takenAt)];
  assert.ok(Math.abs((sizes[0] ?? 0) - (sizes[1] ?? 0)) < (sizes[0] ?? 0) / 4, `${sizes}`);
  assert.deepEqual(await a.history.snapshot(second.takenAt), ticksOfSheet(second));
  // A sheet before that is not the last snapshot (another's, at another time) is not used.
  clock.advance(5 * MIN);
  const third = movingSheet(market, IDS, clock.now());
  await recordSnapshot(a, third, movingSheet(market, IDS, clock.now() - MIN));
  assert.deepEqual(await b.history.snapshot(third.takenAt), ticksOfSheet(third));
});

Deno.test("a series reads back whole from the start of any segment: every snapshot and every hour", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 4, 50) });
  const deps = historyDeps({ kv, clock });
  const market = new MovingMarket({ quiet: true });
  await simulate(deps, market, IDS.slice(0, 300), 8 * 60);
  const store = new HistoryStore({ kv, namespace: HISTORY_NAMESPACE, clock });
  const snapshots = await store.periods("raw", 0, Infinity);
  const hours = await store.periods("hourly", 0, Infinity);
  assert.ok(hours.length >= 7);
  const shards = [...new Set(IDS.slice(0, 300).map((id) => Math.floor(id / SHARD_SPAN.raw)))];
  for (const shard of shards.slice(0, 3)) {
    for (const from of [snapshots[0] ?? 0, Date.UTC(2026, 10, 29, 7), Date.UTC(2026, 10, 29, 8)]) {
      const times = snapshots.filter((t) => t >= segmentStart("raw", from));
      const read = await store.shardTicks(shard, times);
      assert.deepEqual(read.map(({ t }) => t), times, `raw shard ${shard} from ${from}`);
      for (const { t, ticks } of read) {
        const expected = ticksOfSheet(movingSheet(market, IDS.slice(0, 300), t)).filter((tick) =>
          Math.floor(tick.id / SHARD_SPAN.raw) === shard
        );
        assert.deepEqual(ticks, expected);
      }
    }
    for (const from of [Date.UTC(2026, 10, 29, 6), Date.UTC(2026, 10, 29, 12)]) {
      const times = hours.filter((t) => t >= segmentStart("hourly", from));
      const hourly = Math.floor(
        (IDS.find((id) => Math.floor(id / SHARD_SPAN.raw) === shard) ?? 0) /
          SHARD_SPAN.hourly,
      );
      const read = await store.shardBars("hourly", hourly, times);
      assert.deepEqual(read.map(({ t }) => t), times, `hourly shard ${hourly} from ${from}`);
    }
  }
  // The hourly bars read back equal what the roll-up of their snapshots gives (the store's own
  // last write is not what is read: a fresh store reads KV).
  const written = await deps.history.bars("hourly", Date.UTC(2026, 10, 29, 9));
  assert.deepEqual(await store.bars("hourly", Date.UTC(2026, 10, 29, 9)), written);
  assert.ok(written.length > 0);
});

Deno.test("a snapshot whose base was cut away reads as nothing until the next hour's keyframe, and the hour after reads whole", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 9, 50) });
  const deps = historyDeps({ kv, clock });
  const market = new MovingMarket({ quiet: true });
  await simulate(deps, market, IDS, 20); // 09:51 … 10:06
  const store = deps.history;
  const times = await store.periods("raw", 0, Infinity);
  // Retention takes the 09:51 snapshot: 09:56 was written against it.
  await store.deleteBefore("raw", Date.UTC(2026, 10, 29, 9, 52));
  const kept = await store.periods("raw", 0, Infinity);
  assert.deepEqual(kept, times.slice(1));
  const shard = Math.floor((IDS[0] ?? 0) / SHARD_SPAN.raw);
  const read = await new HistoryStore({ kv, namespace: HISTORY_NAMESPACE, clock }).shardTicks(
    shard,
    kept,
  );
  assert.deepEqual(read.map(({ t }) => t), kept.filter((t) => t >= Date.UTC(2026, 10, 29, 10)));
  assert.ok(HOUR_MS > 0);
});

Deno.test("retention cutting into a week of daily bars leaves every day kept readable: the first one kept becomes a keyframe", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29) });
  const store = new HistoryStore({ kv, namespace: HISTORY_NAMESPACE, clock });
  const market = new MovingMarket({ quiet: true });
  const ids = IDS.slice(0, 200);
  const first = segmentStart("daily", Date.UTC(2026, 10, 1));
  const days = Array.from({ length: 16 }, (_, i) => first + i * DAY_MS);
  const written = new Map<number, Bar[]>();
  for (const day of days) {
    const ticks = [day, day + 23 * HOUR_MS].map((t) => ({
      t,
      ticks: ticksOfSheet(movingSheet(market, ids, t)),
    }));
    const bars = rollTicks(ticks, day, day + DAY_MS, DAY_MS);
    written.set(day, bars);
    await store.writeBars("daily", day, bars);
  }
  // Two days of the second week go; its third is kept, written against the second.
  const cutoff = days[9] ?? 0;
  assert.equal(await store.deleteBefore("daily", cutoff), 9);
  const fresh = new HistoryStore({ kv, namespace: HISTORY_NAMESPACE, clock });
  const kept = await fresh.periods("daily", 0, Infinity);
  assert.deepEqual(kept, days.slice(9));
  for (const day of kept) assert.deepEqual(await fresh.bars("daily", day), written.get(day));
  const shard = Math.floor((ids[0] ?? 0) / SHARD_SPAN.daily);
  const series = await fresh.shardBars("daily", shard, kept);
  assert.deepEqual(series.map(({ t }) => t), kept, "one series read from the first day kept");
});
