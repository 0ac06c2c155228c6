/**
 * The price history for tests: market sheets from the fake's moving market (the world's own
 * price records, moved by the clock), the history jobs' dependencies on an in-memory (or given)
 * KV and a manual clock, and a simulation of the crons — each minute a sheet when one is due (by
 * the sheet job's rule, without its upstream read), then the upkeep — over hours or days.
 *
 * @module
 */

import {
  type HistoryJobDeps,
  historyUpkeep,
  recordSnapshot,
} from "../../src/background/history.ts";
import { SHEET_DUE_SLACK_MS } from "../../src/background/sheet.ts";
import type { Tick } from "../../src/history/codec.ts";
import { buildSheet, type MarketSheet } from "../../src/market/sheet.ts";
import { HistoryReader } from "../../src/history/query.ts";
import { HistoryStore } from "../../src/history/store.ts";
import { silentLogger } from "../../src/log.ts";
import { getWorld, MovingMarket } from "../fake_gw2/mod.ts";
import type { PriceRecord } from "../fake_gw2/world/types.ts";
import { ManualClock } from "./clock.ts";

/** The namespace the tests' histories live under. */
export const HISTORY_NAMESPACE = "http://gw2.test";

/** The first `count` tradeable ids of the fake world (all of them by default), ascending. */
export function worldPriceIds(count = Infinity): number[] {
  return [...getWorld().prices.keys()].sort((a, b) => a - b).slice(0, count);
}

/** A tick from a price record. */
export function tickOf(record: PriceRecord): Tick {
  return {
    id: record.id,
    buy: record.buys.unit_price,
    buyQty: record.buys.quantity,
    sell: record.sells.unit_price,
    sellQty: record.sells.quantity,
  };
}

/** The market sheet of `ids` as the moving market stands at `at`. */
export function movingSheet(
  market: MovingMarket,
  ids: readonly number[],
  at: number,
): MarketSheet {
  const prices = getWorld().prices;
  return buildSheet(
    ids.flatMap((id) => {
      const base = prices.get(id);
      return base === undefined ? [] : [market.price(base, at)];
    }),
    at,
  );
}

/** Whether the sheet job would read a sheet now (`src/background/sheet.ts`'s rule). */
export function sheetDue(latest: number | undefined, now: number, minutes: number): boolean {
  return latest === undefined || now - latest >= minutes * 60_000 - SHEET_DUE_SLACK_MS;
}

/** Options of {@linkcode historyDeps}. */
export interface HistoryDepsOptions {
  readonly kv: Deno.Kv;
  readonly clock: ManualClock;
  readonly owner?: string;
  readonly snapshotMinutes?: number;
}

/** The history jobs' dependencies, on `kv` and `clock`. */
export function historyDeps(options: HistoryDepsOptions): HistoryJobDeps {
  return {
    kv: options.kv,
    namespace: HISTORY_NAMESPACE,
    owner: options.owner ?? "instance-a",
    clock: options.clock,
    log: silentLogger,
    history: new HistoryStore({
      kv: options.kv,
      namespace: HISTORY_NAMESPACE,
      clock: options.clock,
    }),
    snapshotMinutes: options.snapshotMinutes ?? 5,
  };
}

/** A reader over the same history as `deps`. */
export function historyReader(deps: HistoryJobDeps): HistoryReader {
  return new HistoryReader({
    store: deps.history,
    clock: deps.clock,
    snapshotMinutes: deps.snapshotMinutes,
  });
}

/** What {@linkcode simulate} did. */
export interface Simulated {
  /** When each snapshot was taken. */
  readonly snapshots: number[];
  /** Hours and days rolled up. */
  readonly hours: number;
  readonly days: number;
}

/**
 * Runs the history's crons from the clock's time for `minutes` simulated minutes: at each minute
 * boundary, a sheet of `ids` from `market` when a snapshot is due, then the upkeep. Ends on a
 * minute boundary.
 */
export async function simulate(
  deps: HistoryJobDeps,
  market: MovingMarket,
  ids: readonly number[],
  minutes: number,
  options: { readonly upkeepEvery?: number } = {},
): Promise<Simulated> {
  const clock = deps.clock as ManualClock;
  const snapshots: number[] = [];
  let hours = 0;
  let days = 0;
  let latest = await deps.history.latest("raw");
  for (let minute = 0; minute < minutes; minute++) {
    clock.advance(60_000 - (clock.now() % 60_000));
    if (sheetDue(latest, clock.now(), deps.snapshotMinutes)) {
      const report = await recordSnapshot(deps, movingSheet(market, ids, clock.now()));
      if (report.ran) {
        snapshots.push(report.at);
        latest = report.at;
      }
    }
    if (minute % (options.upkeepEvery ?? 1) === 0) {
      const upkeep = await historyUpkeep(deps);
      if (upkeep.ran) {
        hours += upkeep.hours;
        days += upkeep.days;
      }
    }
  }
  return { snapshots, hours, days };
}

export { MovingMarket };
