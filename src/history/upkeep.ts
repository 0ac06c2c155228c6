/**
 * The history's upkeep, run by a background job: every hour that has ended rolled up from its
 * snapshots, every day from its hours, the running volumes folded on, and what has aged out
 * deleted - snapshots after 48 hours, hourly bars after 30 days, daily bars after a year.
 * Each step records its progress as it goes, so a run cut short (a crash, a lost lease) is taken
 * up by the next one; rolling a period again rewrites the same bars.
 *
 * Reads go shard by shard: a raw shard holds exactly the ids of two hourly shards, an hourly one
 * those of two daily shards, so one range read of a coarser tier's source gives whole bars.
 *
 * @module
 */

import { mapWithConcurrency } from "../async/concurrency.ts";
import { type Bar, segmentStart } from "./codec.ts";
import {
  DAY_MS,
  dueDays,
  dueHours,
  HOUR_MS,
  maxGapMs,
  RETENTION_MS,
  rollBars,
  rollTicks,
} from "./rollup.ts";
import type { HistoryStore } from "./store.ts";
import { foldHour } from "./volumes.ts";

/** Shard reads in flight at once during a roll-up. */
const ROLLUP_CONCURRENCY = 4;

/** What one upkeep run did. */
export interface UpkeepReport {
  /** Hours rolled up (and folded into the volumes). */
  readonly hours: number;
  readonly days: number;
  /** Periods deleted per tier. */
  readonly deleted: { readonly raw: number; readonly hourly: number; readonly daily: number };
}

/** What the upkeep needs. */
export interface UpkeepDeps {
  readonly store: HistoryStore;
  readonly now: number;
  /** `PRIORY_SNAPSHOT_MINUTES`, for the gap limit between snapshots. */
  readonly snapshotMinutes: number;
  /** Ends the run between steps (a lost lease, shutdown). */
  readonly signal?: AbortSignal;
}

/** Rolls up what is due, folds the volumes, deletes what has aged out. */
export async function upkeep(deps: UpkeepDeps): Promise<UpkeepReport> {
  const { store, now, signal } = deps;
  const [origin, latest] = await Promise.all([store.origin(), store.latest("raw")]);
  let state = await store.rollupState();
  let hours = 0;
  let days = 0;
  if (origin !== undefined && latest !== undefined) {
    const due = dueHours(state, origin, latest, now);
    const previous = due.length > 0 ? await store.volumes() : undefined;
    let volumes = previous?.volumes ?? new Map();
    let until = previous?.head.until;
    for (const hour of due) {
      signal?.throwIfAborted();
      const bars = await rollHour(store, hour, maxGapMs(deps.snapshotMinutes));
      if (bars.length > 0) await store.writeBars("hourly", hour, bars, signal);
      const end = hour + HOUR_MS;
      // The volumes go before the progress, each hour: a run cut between the two folds the
      // hour again from the volumes before it (they say how far they are), never twice.
      if (until === undefined || until < end) {
        const elapsed = until === undefined ? 1 : Math.max(1, (end - until) / HOUR_MS);
        volumes = new Map(foldHour(volumes, bars, elapsed).map((volume) => [volume.id, volume]));
        until = end;
        const covered = [...volumes.values()].reduce((most, v) => Math.max(most, v.covered), 0);
        signal?.throwIfAborted();
        await store.writeVolumes({ until, covered }, [...volumes.values()]);
      }
      state = { ...state, hourlyUntil: end };
      await store.setRollupState(state);
      hours++;
    }
    for (const day of dueDays(state, origin, now)) {
      signal?.throwIfAborted();
      const bars = await rollDay(store, day);
      if (bars.length > 0) await store.writeBars("daily", day, bars, signal);
      state = { ...state, dailyUntil: day + DAY_MS };
      await store.setRollupState(state);
      days++;
    }
  }
  const deleted = {
    raw: await store.deleteBefore("raw", now - RETENTION_MS.raw, signal),
    hourly: await store.deleteBefore("hourly", now - RETENTION_MS.hourly, signal),
    daily: await store.deleteBefore("daily", now - RETENTION_MS.daily, signal),
  };
  return { hours, days, deleted };
}

/**
 * The hourly bars of the hour starting at `hour`, from its snapshots and those before it (an
 * item's first change inside is measured from its last tick before, within the gap limit).
 */
export async function rollHour(
  store: HistoryStore,
  hour: number,
  maxGap: number,
): Promise<Bar[]> {
  // From the segment's start, where the keyframes of the snapshots before the hour are.
  const times = await store.periods("raw", segmentStart("raw", hour - maxGap), hour + HOUR_MS);
  if (!times.some((t) => t >= hour)) return [];
  const shards = await shardUnion(store, "raw", times);
  const perShard = await mapWithConcurrency(shards, ROLLUP_CONCURRENCY, async (shard) => {
    const snapshots = await store.shardTicks(shard, times);
    return rollTicks(snapshots, hour, hour + HOUR_MS, maxGap);
  });
  return perShard.flat();
}

/** The daily bars of the UTC day starting at `day`, from its hourly bars. */
export async function rollDay(store: HistoryStore, day: number): Promise<Bar[]> {
  const hours = await store.periods("hourly", day, day + DAY_MS);
  if (hours.length === 0) return [];
  const shards = await shardUnion(store, "hourly", hours);
  const perShard = await mapWithConcurrency(shards, ROLLUP_CONCURRENCY, async (shard) => {
    const periods = await store.shardBars("hourly", shard, hours);
    return rollBars(periods.map(({ bars }) => bars));
  });
  return perShard.flat();
}

async function shardUnion(
  store: HistoryStore,
  tier: "raw" | "hourly",
  times: readonly number[],
): Promise<number[]> {
  const lists = await mapWithConcurrency(times, ROLLUP_CONCURRENCY, (t) => store.shardsOf(tier, t));
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}
