/**
 * The price history at the real Trading Post's scale, in this process on a KV file: a synthetic
 * market of ~27,000 tradeable ids (spread over the real id range, seeded), moved by the fake's
 * moving market.
 *
 * - **The snapshot**: the market sheet read (its pages: the requests, at 300 ms upstream latency,
 *   8 in flight — the sheet's own read, through `MarketSheets`) and the snapshot its hook writes
 *   (time, shards, commits, bytes).
 * - **KV bytes per day** at each resolution, for the moving market (every item moves every
 *   minute: the worst case) and its quiet mix (most items sit still, as on the real Trading
 *   Post): six hours of snapshots (an hourly segment: a keyframe and its deltas) × 48, their
 *   hourly bars × 4, a day's bars; the roll-ups' time; a fresh process's first flips read.
 * - **A history call**: 20 ids over a year (365 daily periods, a day of hourly bars, the
 *   snapshots since) and over 24 h (288 snapshots), the reader and the tool's shaping, median and
 *   p95; the result's tokens.
 * - **The budget share of all background work together**, per `PRIORY_SNAPSHOT_MINUTES`.
 *
 * @module
 */

import { systemClock } from "../../src/async/clock.ts";
import { recordSnapshot } from "../../src/background/history.ts";
import {
  type Bar,
  segmentStart,
  SHARD_SPAN,
  shardOf,
  ticksOfSheet,
} from "../../src/history/codec.ts";
import { HistoryReader } from "../../src/history/query.ts";
import { DAY_MS, HOUR_MS, rollBars, rollTicks } from "../../src/history/rollup.ts";
import { shapeHistory } from "../../src/history/shape.ts";
import { HistoryStore } from "../../src/history/store.ts";
import { rollDay, upkeep } from "../../src/history/upkeep.ts";
import type { Price } from "../../src/gw2/schemas.ts";
import type { Page } from "../../src/gw2/types.ts";
import { silentLogger } from "../../src/log.ts";
import { buildSheet } from "../../src/market/sheet.ts";
import { MarketSheets, SHEET_PAGE_SIZE } from "../../src/market/sheets.ts";
import { SheetStore } from "../../src/market/sheet_store.ts";
import { MovingMarket } from "../../tests/fake_gw2/mod.ts";
import type { PriceRecord } from "../../tests/fake_gw2/world/types.ts";
import { ManualClock } from "../../tests/support/clock.ts";
import { seeded } from "../../tests/support/random.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import { median, percentile } from "../support/stats.ts";

const NAMESPACE = "http://gw2.bench";
/** The real Trading Post's size, and the id range its items spread over. */
export const TRADEABLE_IDS = 27_000;
const ID_RANGE = 105_000;
const LATENCY_MS = 300;
const RATE_PER_SEC = 5;
/** Ids a history call asks for. */
const CALL_IDS = 20;

/** ~27,000 price records over the id range, at the fake world's magnitudes (seeded). */
export function syntheticMarket(count = TRADEABLE_IDS): PriceRecord[] {
  const random = seeded("bench", "market");
  const ids = new Set<number>();
  while (ids.size < count) ids.add(random.int(1, ID_RANGE));
  return [...ids].sort((a, b) => a - b).map((id) => {
    const sell = Math.max(2, Math.round(5 * (2_000_000 / 5) ** random.next()));
    const depth = Math.max(1, Math.round(4_000_000 / Math.sqrt(sell)));
    return {
      id,
      whitelisted: false,
      buys: {
        unit_price: Math.max(1, Math.floor(sell * (0.75 + random.next() * 0.22))),
        quantity: random.int(1, depth * 3),
      },
      sells: { unit_price: sell, quantity: random.int(1, depth) },
    };
  });
}

function prices(market: MovingMarket, bases: readonly PriceRecord[], at: number): Price[] {
  return bases.map((base) => market.price(base, at));
}

/** Bytes under a KV prefix: values and keys (their parts' lengths), as listed. */
async function prefixBytes(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
): Promise<{ bytes: number; entries: number }> {
  let bytes = 0;
  let entries = 0;
  for await (const entry of kv.list({ prefix }, { batchSize: 1000 })) {
    entries++;
    bytes += entry.value instanceof Uint8Array
      ? entry.value.byteLength
      : JSON.stringify(entry.value).length;
    bytes += entry.key.reduce((sum: number, part) => sum + String(part).length + 2, 0);
  }
  return { bytes, entries };
}

const MB = 1_000_000;

/** Bytes of the values and keys under `prefix` (a tier's data), by period (the key's last part). */
async function periodBytes(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for await (const entry of kv.list<Uint8Array>({ prefix }, { batchSize: 1000 })) {
    const t = entry.key.at(-1);
    if (typeof t !== "number" || !(entry.value instanceof Uint8Array)) continue;
    const key = entry.key.reduce((sum: number, part) => sum + String(part).length + 2, 0);
    out.set(t, (out.get(t) ?? 0) + entry.value.byteLength + key);
  }
  return new Map([...out].sort(([a], [b]) => a - b));
}

/** What {@linkcode measureTiers} measured, bytes as stored (values and keys). */
interface TierBytes {
  readonly perSnapshot: number;
  readonly perHour: number;
  readonly perDay: number;
  readonly writeMs: number[];
  readonly upkeepMs: number;
  readonly dayMs: number;
  readonly flipsMs: number;
  readonly flips: number;
}

/**
 * Six hours of 5-minute snapshots of `market` over `bases` into a fresh KV file, rolled up by the
 * upkeep; the day's other hours as bars of two snapshots each, then the day rolled up, and six
 * more days (a daily segment) of such bars; and a fresh process's first flips read.
 */
async function measureTiers(
  dir: string,
  mix: string,
  market: MovingMarket,
  bases: readonly PriceRecord[],
): Promise<TierBytes> {
  using kv = await Deno.openKv(`${dir}/${mix}.sqlite3`);
  // The first day of a daily segment (a keyframe, then six days of deltas).
  const day = segmentStart("daily", Date.UTC(2026, 10, 29));
  const start = day + 6 * HOUR_MS;
  const clock = new ManualClock({ start, advance: "delays" });
  const store = new HistoryStore({ kv, namespace: NAMESPACE, clock });
  const root = ["history", "v1", NAMESPACE];
  const writeMs: number[] = [];
  for (let t = start; t < start + 6 * HOUR_MS; t += 5 * 60_000) {
    const ticks = ticksOfSheet(buildSheet(prices(market, bases, t), t));
    const began = performance.now();
    await store.writeSnapshot(t, ticks);
    writeMs.push(performance.now() - began);
  }
  const raw = await prefixBytes(kv, [...root, "raw"]);
  clock.advance(6 * HOUR_MS + 11 * 60_000);
  const upkeepBegan = performance.now();
  await upkeep({ store, now: clock.now(), snapshotMinutes: 5 });
  const upkeepMs = performance.now() - upkeepBegan;
  // Bytes per hour rolled: the first is its segment's keyframe (its day's hours before it are
  // not written), the others deltas; a day is one keyframe and 23 deltas.
  const hours = await periodBytes(kv, [...root, "hourly", "data"]);
  const [keyframe = 0, ...deltas] = [...hours.values()];
  const perHour = (keyframe + deltas.reduce((sum, bytes) => sum + bytes, 0) / deltas.length * 23) /
    24;
  const flipsBegan = performance.now();
  const fresh = new HistoryReader({
    store: new HistoryStore({ kv, namespace: NAMESPACE, clock }),
    clock,
    snapshotMinutes: 5,
  });
  const flips = await fresh.flips();
  const flipsMs = performance.now() - flipsBegan;
  // The measured day's other hours, and the segment's six other days, as bars of two snapshots
  // an hour.
  const hourOf = (t: number): Bar[] => {
    const first = ticksOfSheet(buildSheet(prices(market, bases, t), t));
    const last = ticksOfSheet(buildSheet(prices(market, bases, t + 55 * 60_000), t));
    return rollTicks(
      [{ t, ticks: first }, { t: t + 55 * 60_000, ticks: last }],
      t,
      t + HOUR_MS,
      HOUR_MS,
    );
  };
  for (let hour = 0; hour < 24; hour++) {
    const t = day + hour * HOUR_MS;
    if (t >= start && t < start + 6 * HOUR_MS) continue;
    await store.writeBars("hourly", t, hourOf(t));
  }
  const dayBegan = performance.now();
  await store.writeBars("daily", day, await rollDay(store, day));
  const dayMs = performance.now() - dayBegan;
  for (let next = 1; next < 7; next++) {
    const hours = Array.from(
      { length: 24 },
      (_, hour) => hourOf(day + next * DAY_MS + hour * HOUR_MS),
    );
    await store.writeBars("daily", day + next * DAY_MS, rollBars(hours));
  }
  const daily = await prefixBytes(kv, [...root, "daily"]);
  return {
    perSnapshot: raw.bytes / writeMs.length,
    perHour,
    perDay: daily.bytes / 7,
    writeMs,
    upkeepMs,
    dayMs,
    flipsMs,
    flips: flips.ready ? flips.candidates.length : 0,
  };
}

/** The history scenario. */
export const history: Scenario = {
  name: "history",
  summary:
    "price history at ~27,000 ids: the snapshot, KV bytes a day per tier, a 20-id year, the budget",
  tools: [],
  async run(ctx) {
    const figures: Figure[] = [];
    const targets: Target[] = [];
    const bases = syntheticMarket();
    const market = new MovingMarket();
    const dir = await Deno.makeTempDir({ prefix: "priory-bench-history-" });
    try {
      using kv = await Deno.openKv(`${dir}/kv.sqlite3`);
      const start = Date.UTC(2026, 10, 29, 10);
      const clock = new ManualClock({ start, advance: "delays" });
      const store = new HistoryStore({ kv, namespace: NAMESPACE, clock });
      const deps = {
        kv,
        namespace: NAMESPACE,
        owner: "bench",
        clock,
        log: silentLogger,
        history: store,
        snapshotMinutes: 5,
      };

      // 1. The snapshot: the sheet's read (real time, 300 ms a page) and the hook's write.
      {
        let requests = 0;
        let writeMs = 0;
        let report: Awaited<ReturnType<typeof recordSnapshot>> | undefined;
        const sheets = new MarketSheets({
          store: new SheetStore({ kv, namespace: NAMESPACE }),
          clock: systemClock,
          log: silentLogger,
          onSheet: [async (sheet) => {
            const began = performance.now();
            report = await recordSnapshot(deps, { ...sheet, takenAt: clock.now() });
            writeMs = performance.now() - began;
          }],
        });
        const records = prices(market, bases, start);
        const pageTotal = Math.ceil(records.length / SHEET_PAGE_SIZE);
        const read = async (page: number, size: number): Promise<Page<Price>> => {
          requests++;
          await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
          return { records: records.slice(page * size, page * size + size), skipped: 0, pageTotal };
        };
        const began = performance.now();
        await sheets.refresh(read);
        const totalMs = performance.now() - began;
        const written = report?.ran === true ? report : undefined;
        figures.push(
          {
            label: "snapshot: sheet requests (27,000 ids)",
            value: requests,
            unit: "requests",
            note:
              `${pageTotal} pages of ${SHEET_PAGE_SIZE}; the snapshot itself asks upstream nothing`,
          },
          { label: "snapshot: sheet read + snapshot, 300 ms latency", value: totalMs, unit: "ms" },
          {
            label: "snapshot: writing it to KV",
            value: writeMs,
            unit: "ms",
            note: `${written?.shards ?? 0} shards, ${written?.commits ?? 0} commits`,
          },
          {
            label: "snapshot: packed bytes",
            value: (written?.bytes ?? 0) / MB,
            unit: "MB",
            note: `${
              ((written?.bytes ?? 0) / TRADEABLE_IDS).toFixed(1)
            } bytes an item (first snapshot: with first-seen)`,
          },
        );
        targets.push({
          label: "a snapshot is written within its lease (60 s)",
          value: writeMs,
          unit: "ms",
          max: 60_000,
        });
      }

      // 2. KV bytes per tier, for the moving market (every item moves every minute: the worst
      // case) and the quiet mix (most items sit still, as on the real Trading Post): six hours of
      // 5-minute snapshots (one hourly segment: a keyframe and five deltas), their roll-ups by
      // the upkeep, and a day of bars (the other hours from two snapshots each) rolled into days.
      for (const mix of ["moving", "quiet"] as const) {
        const measured = await measureTiers(
          dir,
          mix,
          new MovingMarket({ quiet: mix === "quiet" }),
          bases,
        );
        const { perSnapshot, perHour, perDay } = measured;
        const day = { raw: perSnapshot * 288, hourly: perHour * 24, daily: perDay };
        const held = day.raw * 2 + day.hourly * 30 + day.daily * 365;
        const name = mix === "moving" ? "moving market (worst case)" : "quiet mix (realistic)";
        figures.push(
          {
            label: `${name}: snapshot write (median of ${measured.writeMs.length})`,
            value: median(measured.writeMs),
            unit: "ms",
            note: `p95 ${percentile(measured.writeMs, 95).toFixed(0)} ms`,
          },
          {
            label: `${name}: KV a day, snapshots (48 h kept)`,
            value: day.raw / MB,
            unit: "MB",
            note: `${(perSnapshot / 1000).toFixed(0)} KB a snapshot × 288; ${
              ((day.raw * 2) / MB).toFixed(0)
            } MB held`,
          },
          {
            label: `${name}: KV a day, hourly bars (30 days kept)`,
            value: day.hourly / MB,
            unit: "MB",
            note: `${(perHour / 1000).toFixed(0)} KB an hour; ${
              ((day.hourly * 30) / MB).toFixed(0)
            } MB held`,
          },
          {
            label: `${name}: KV a day, daily bars (a year kept)`,
            value: day.daily / MB,
            unit: "MB",
            note: `${((day.daily * 365) / MB).toFixed(0)} MB held`,
          },
          { label: `${name}: KV held a year in, all tiers`, value: held / MB, unit: "MB" },
          {
            label: `${name}: upkeep, 6 hours rolled (12 snapshots each → bars, volumes)`,
            value: measured.upkeepMs,
            unit: "ms",
            note: `${(measured.upkeepMs / 6).toFixed(0)} ms an hour`,
          },
          { label: `${name}: daily roll-up (24 hours → bars)`, value: measured.dayMs, unit: "ms" },
          {
            label: `${name}: priory_flips' first read after a snapshot (fresh process)`,
            value: measured.flipsMs,
            unit: "ms",
            note: `the latest snapshot decoded from KV; ${measured.flips} candidates`,
          },
        );
      }

      // 3. A history call for 20 ids: a year of daily bars (only the shards they live in are
      // written: a read touches no other), today's hours, the snapshots since.
      const wanted = bases.filter((_, index) => index % Math.floor(TRADEABLE_IDS / CALL_IDS) === 7)
        .slice(0, CALL_IDS);
      const wantedIds = wanted.map((base) => base.id);
      const dailyShards = new Set(wantedIds.map((id) => shardOf(id, SHARD_SPAN.daily)));
      const inShards = bases.filter((base) => dailyShards.has(shardOf(base.id, SHARD_SPAN.daily)));
      const now = Date.UTC(2027, 10, 29, 9, 40);
      const yearKv = await Deno.openKv(`${dir}/year.sqlite3`);
      try {
        const yearClock = new ManualClock({ start: now, advance: "delays" });
        const yearStore = new HistoryStore({ kv: yearKv, namespace: NAMESPACE, clock: yearClock });
        const today = Math.floor(now / DAY_MS) * DAY_MS;
        const barsAt = (t: number, length: number): Bar[] => {
          const first = ticksOfSheet(buildSheet(prices(market, inShards, t), t));
          const last = ticksOfSheet(
            buildSheet(prices(market, inShards, t + length - 60_000), t + length - 60_000),
          );
          return rollTicks(
            [{ t, ticks: first }, { t: t + length - 60_000, ticks: last }],
            t,
            t + length,
            length,
          );
        };
        for (let d = 365; d >= 1; d--) {
          await yearStore.writeBars(
            "daily",
            today - d * DAY_MS,
            barsAt(today - d * DAY_MS, DAY_MS),
          );
        }
        for (let h = 0; h < 9; h++) {
          await yearStore.writeBars(
            "hourly",
            today + h * HOUR_MS,
            barsAt(today + h * HOUR_MS, HOUR_MS),
          );
        }
        // The last 24 h of snapshots, for the 24 h window and the tail.
        for (let t = now - DAY_MS + 5 * 60_000; t <= now; t += 5 * 60_000) {
          await yearStore.writeSnapshot(
            t,
            ticksOfSheet(buildSheet(prices(market, inShards, t), t)),
          );
        }
        await yearStore.setRollupState({ hourlyUntil: today + 9 * HOUR_MS, dailyUntil: today });
        const reader = new HistoryReader({
          store: yearStore,
          clock: yearClock,
          snapshotMinutes: 5,
        });
        const names = new Map(wantedIds.map((id) => [id, `Item ${id}`]));
        const samples = ctx.options.quick ? 3 : 15;
        for (const window of ["1y", "24h"] as const) {
          const ms: number[] = [];
          let bytes = 0;
          for (let sample = 0; sample < samples; sample++) {
            const began = performance.now();
            const read = await reader.read(wantedIds, window);
            const shaped = shapeHistory(
              wantedIds,
              window,
              read,
              names,
              reader.nextSnapshot(read.latest),
            );
            ms.push(performance.now() - began);
            bytes = new TextEncoder().encode(JSON.stringify(shaped)).byteLength;
          }
          figures.push({
            label: `history call, ${CALL_IDS} ids over ${window}`,
            value: median(ms),
            unit: "ms",
            note: `p95 ${percentile(ms, 95).toFixed(0)} ms; result ${Math.round(bytes / 4)} tokens`,
          });
          targets.push({
            label: `${CALL_IDS}-id history over ${window} well within a call's 15 s`,
            value: percentile(ms, 95),
            unit: "ms",
            max: 2_000,
          });
        }
      } finally {
        yearKv.close();
      }

      // 4. The budget share of all background work, per PRIORY_SNAPSHOT_MINUTES: the sheet
      // (the only upstream cost of the history), the catalogue crawl (441 requests a day at real
      // scale, `catalogue` scenario), the hourly warm-up (about 80 requests cold, none once warm),
      // the price job (nothing while the sheet is fresh); the roll-ups ask nothing.
      const sheetRequests = Math.ceil(TRADEABLE_IDS / SHEET_PAGE_SIZE);
      const perHourBudget = RATE_PER_SEC * 3_600;
      for (const minutes of [1, 5, 15, 60]) {
        const perHour = sheetRequests * 60 / minutes + 441 / 24;
        figures.push({
          label: `background share of the budget, snapshots every ${minutes} min`,
          value: perHour / perHourBudget * 100,
          unit: "%",
          note: `${Math.round(perHour)} requests/h of ${perHourBudget}`,
        });
      }
      targets.push({
        label: "background work ≤ 10 % of the budget at the default 5 min",
        value: (sheetRequests * 12 + 441 / 24) / perHourBudget * 100,
        unit: "%",
        max: 10,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    return { figures, targets };
  },
};
