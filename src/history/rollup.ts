/**
 * The roll-ups, pure: snapshots into hourly bars, hourly bars into daily ones, and the schedule
 * that says which of them are due. Quantity changes come from consecutive snapshots: the units a
 * side of the book lost between two snapshots are counted as traded (`sold` from the sell
 * listings, `bought` from the buy orders), over the minutes between them. Two snapshots further
 * apart than the gap limit (a server that was down) tell nothing reliable, so neither their
 * change nor their minutes count. A listing withdrawn looks exactly like one bought: the API
 * cannot tell them apart, so every estimate built on these counts is an upper bound on trades.
 *
 * @module
 */

import type { Bar, Tick } from "./codec.ts";

/** One snapshot: its time (epoch ms) and its ticks. */
export interface Snapshot {
  readonly t: number;
  readonly ticks: readonly Tick[];
}

/** An hour, in ms. */
export const HOUR_MS = 3_600_000;
/** A day, in ms (UTC days). */
export const DAY_MS = 86_400_000;

/**
 * The longest interval between two snapshots whose quantity change is counted: two and a half
 * snapshot periods, so one missed snapshot still counts and an outage does not.
 */
export function maxGapMs(periodMinutes: number): number {
  return periodMinutes * 150_000;
}

/** What one item's side of the book lost between two snapshots `gapMs` apart. */
export interface Change {
  readonly sold: number;
  readonly bought: number;
  /** Minutes measured: the interval, or 0 when it is too long to tell. */
  readonly covered: number;
}

/** The change from `before` to `after` (the same item), counted only within `maxGap`. */
export function change(before: Tick, after: Tick, gapMs: number, maxGap: number): Change {
  if (gapMs <= 0 || gapMs > maxGap) return { sold: 0, bought: 0, covered: 0 };
  return {
    sold: Math.max(0, before.sellQty - after.sellQty),
    bought: Math.max(0, before.buyQty - after.buyQty),
    covered: gapMs / 60_000,
  };
}

/** A bar being built, tick by tick or bar by bar. */
interface Building {
  id: number;
  buyOpen: number;
  buyClose: number;
  buyLow: number;
  buyHigh: number;
  sellOpen: number;
  sellClose: number;
  sellLow: number;
  sellHigh: number;
  buyQty: number;
  sellQty: number;
  sold: number;
  bought: number;
  covered: number;
}

/** Low of a side, where 0 (no order or listing) is no price. */
function low(a: number, b: number): number {
  if (a === 0) return b;
  if (b === 0) return a;
  return Math.min(a, b);
}

/** A snapshot's tick as a bar of one moment: nothing measured yet. */
function pointBar(tick: Tick): Bar {
  return {
    id: tick.id,
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
    sold: 0,
    bought: 0,
    covered: 0,
  };
}

/**
 * `into` followed by `next` (the same item, later): its close and closing units, low and high
 * over both, changes and minutes summed; the open stays `into`'s.
 */
function extend(into: Building, next: Bar): void {
  into.buyClose = next.buyClose;
  into.buyLow = low(into.buyLow, next.buyLow);
  into.buyHigh = Math.max(into.buyHigh, next.buyHigh);
  into.sellClose = next.sellClose;
  into.sellLow = low(into.sellLow, next.sellLow);
  into.sellHigh = Math.max(into.sellHigh, next.sellHigh);
  into.buyQty = next.buyQty;
  into.sellQty = next.sellQty;
  into.sold += next.sold;
  into.bought += next.bought;
  into.covered += next.covered;
}

/** Bars by id, each later one extending the first (see {@linkcode extend}). */
class BarJoin {
  readonly #bars = new Map<number, Building>();

  add(bar: Bar): void {
    const into = this.#bars.get(bar.id);
    if (into === undefined) this.#bars.set(bar.id, { ...bar });
    else extend(into, bar);
  }

  /** Sorted by id; minutes whole (a sum of intervals is rounded once, at the end). */
  bars(): Bar[] {
    return [...this.#bars.values()].sort((a, b) => a.id - b.id).map((bar) => ({
      ...bar,
      covered: Math.round(bar.covered),
    }));
  }
}

/**
 * The hourly (or any period's) bars of `[from, to)` from `snapshots` (time ascending). Snapshots
 * before `from` may lead the list: they serve only as predecessors, measuring the first change
 * inside. Each item's change is measured from its own previous tick, so an item missing from one
 * snapshot is measured across it, within the gap limit (as `series.ts` reads a series). Bars
 * sorted by id, one per item seen inside the period.
 *
 * @example
 * ```ts
 * rollTicks([{t: 0, ticks}, {t: 300_000, ticks: later}], 0, HOUR_MS, maxGapMs(5));
 * ```
 */
export function rollTicks(
  snapshots: readonly Snapshot[],
  from: number,
  to: number,
  maxGap: number,
): Bar[] {
  const join = new BarJoin();
  const previous = new Map<number, { t: number; tick: Tick }>();
  for (const snapshot of snapshots) {
    if (snapshot.t >= to) break;
    for (const tick of snapshot.ticks) {
      if (snapshot.t >= from) {
        const before = previous.get(tick.id);
        const counted = before === undefined
          ? undefined
          : change(before.tick, tick, snapshot.t - before.t, maxGap);
        join.add({ ...pointBar(tick), ...counted });
      }
      previous.set(tick.id, { t: snapshot.t, tick });
    }
  }
  return join.bars();
}

/**
 * One bar per item from consecutive periods' bars (each list sorted or not, periods in time
 * order): a day from its hours. Open from the first period the item appears in, close and
 * quantities from the last, low and high over all, changes and minutes summed.
 */
export function rollBars(periods: readonly (readonly Bar[])[]): Bar[] {
  const join = new BarJoin();
  for (const bars of periods) for (const bar of bars) join.add(bar);
  return join.bars();
}

/** How long each tier is kept, in ms: raw 48 h, hourly 30 days, daily a year. */
export const RETENTION_MS = {
  raw: 48 * HOUR_MS,
  hourly: 30 * DAY_MS,
  daily: 365 * DAY_MS,
} as const;

/** Where the roll-ups stand: the end of the last hour and day rolled up (epoch ms). */
export interface RollupState {
  /** Hours before this are rolled up; `undefined` before the first. */
  readonly hourlyUntil?: number;
  /** Days before this are rolled up. */
  readonly dailyUntil?: number;
}

/**
 * How long after an hour's end no snapshot of it can still be arriving (a sheet read just before
 * the end, written after it), when no later snapshot says so sooner.
 */
export const SETTLE_MS = 10 * 60_000;

/**
 * The hours to roll up now, oldest first: every whole hour that has ended since the last one
 * rolled (or since the hour of the first snapshot), once no snapshot of it can still arrive - a
 * snapshot at or after its end exists, or {@linkcode SETTLE_MS} have passed - and none older
 * than the raw data kept.
 */
export function dueHours(
  state: RollupState,
  firstSnapshot: number,
  latestSnapshot: number,
  now: number,
): number[] {
  const oldestKept = floorTo(now - RETENTION_MS.raw, HOUR_MS) + HOUR_MS;
  let hour = Math.max(state.hourlyUntil ?? floorTo(firstSnapshot, HOUR_MS), oldestKept);
  const hours: number[] = [];
  const settled = (end: number) => end <= latestSnapshot || end + SETTLE_MS <= now;
  while (hour + HOUR_MS <= now && settled(hour + HOUR_MS)) {
    hours.push(hour);
    hour += HOUR_MS;
  }
  return hours;
}

/**
 * The days to roll up now, oldest first: every whole UTC day whose hours are all rolled up
 * (`hourlyUntil` at or past its end), from the last day rolled (or the day of the first
 * snapshot), none older than the hourly bars kept.
 */
export function dueDays(state: RollupState, firstSnapshot: number, now: number): number[] {
  if (state.hourlyUntil === undefined) return [];
  const oldestKept = floorTo(now - RETENTION_MS.hourly, DAY_MS) + DAY_MS;
  let day = Math.max(state.dailyUntil ?? floorTo(firstSnapshot, DAY_MS), oldestKept);
  const days: number[] = [];
  while (day + DAY_MS <= state.hourlyUntil) {
    days.push(day);
    day += DAY_MS;
  }
  return days;
}

/** `t` rounded down to a multiple of `unit`. */
export function floorTo(t: number, unit: number): number {
  return Math.floor(t / unit) * unit;
}
