/**
 * One item's history over a window, pure: samples from the three tiers (snapshots, hourly and
 * daily bars) in one shape, folded into at most ~50 points, and the figures a model reads
 * instead of the points - the change over the window, low and high, volatility, the units sold
 * and bought a day, and the flip figure.
 *
 * @module
 */

import { flipMargin } from "../market/flip.ts";
import type { Bar, Tick } from "./codec.ts";
import { change, DAY_MS, floorTo, HOUR_MS } from "./rollup.ts";

/**
 * One item over one stretch of time, whatever the tier: the prices at its end (`t`), low and
 * high over it, and the quantity changes measured in it.
 */
export interface Sample {
  /** End of the stretch (epoch ms): a snapshot's time, or a bar's period end. */
  readonly t: number;
  readonly buy: number;
  readonly sell: number;
  readonly sellLow: number;
  readonly sellHigh: number;
  readonly sold: number;
  readonly bought: number;
  /** Minutes over which `sold` and `bought` were measured. */
  readonly covered: number;
}

/**
 * Samples from one item's snapshots (time ascending): each with the change since the one
 * before, when close enough to tell (the first has none).
 */
export function samplesFromTicks(
  ticks: readonly { readonly t: number; readonly tick: Tick }[],
  maxGap: number,
): Sample[] {
  return ticks.map(({ t, tick }, index) => {
    const before = ticks[index - 1];
    const counted = before === undefined
      ? { sold: 0, bought: 0, covered: 0 }
      : change(before.tick, tick, t - before.t, maxGap);
    return {
      t,
      buy: tick.buy,
      sell: tick.sell,
      sellLow: tick.sell,
      sellHigh: tick.sell,
      ...counted,
    };
  });
}

/** Samples from one item's bars of `periodMs` each (`start` is the period's start). */
export function samplesFromBars(
  bars: readonly { readonly start: number; readonly bar: Bar }[],
  periodMs: number,
): Sample[] {
  return bars.map(({ start, bar }) => ({
    t: start + periodMs,
    buy: bar.buyClose,
    sell: bar.sellClose,
    sellLow: bar.sellLow,
    sellHigh: bar.sellHigh,
    sold: bar.sold,
    bought: bar.bought,
    covered: bar.covered,
  }));
}

/**
 * The units a point's time is counted in, after the window's start: each window's own, so the
 * numbers a model reads stay small and need no conversion (a year's points in days, not 500,000
 * minutes), to a precision of a few minutes.
 */
export const UNITS = {
  minute: { ms: 60_000, decimals: 0 },
  hour: { ms: HOUR_MS, decimals: 1 },
  day: { ms: DAY_MS, decimals: 2 },
} as const;

/** A unit of point time. */
export type Unit = keyof typeof UNITS;

/**
 * The windows a history call may ask for: their length, the step between points, and the unit
 * point times are counted in (the window's start is aligned to it).
 */
export const WINDOWS = {
  "24h": { ms: DAY_MS, stepMs: HOUR_MS / 2, unit: "minute" },
  "7d": { ms: 7 * DAY_MS, stepMs: 4 * HOUR_MS, unit: "hour" },
  "30d": { ms: 30 * DAY_MS, stepMs: DAY_MS, unit: "day" },
  "1y": { ms: 365 * DAY_MS, stepMs: 8 * DAY_MS, unit: "day" },
} as const satisfies Record<string, { ms: number; stepMs: number; unit: Unit }>;

/** A window's name. */
export type WindowName = keyof typeof WINDOWS;

/** Items a call may ask for before each gets half the points. */
export const FULL_DETAIL_IDS = 5;

/**
 * The step between points for `count` items over `window`: the window's, or twice it past
 * {@linkcode FULL_DETAIL_IDS} items, so 20 items over a year stay a few thousand tokens (~25
 * points each) while one item gets ~50.
 */
export function stepFor(window: WindowName, count: number): number {
  return WINDOWS[window].stepMs * (count > FULL_DETAIL_IDS ? 2 : 1);
}

/**
 * A point as the tool returns it: `[time after the window's start in its unit, buy, sell, sold,
 * bought]` - prices at the end of the point's step (`null` where that side was empty), units
 * traded in the step.
 */
export type Point = [number, number | null, number | null, number, number];

/**
 * `samples` (time ascending) folded into steps of `stepMs` aligned to the epoch: each point is
 * its step's last sample's prices at that sample's time (in `unit`s after `from`), and the step's
 * quantity changes summed. Samples before `from` are left out.
 */
export function downsample(
  samples: readonly Sample[],
  from: number,
  stepMs: number,
  unit: Unit = "minute",
): Point[] {
  const { ms, decimals } = UNITS[unit];
  const scale = 10 ** decimals;
  const points: Point[] = [];
  let bucket: number | undefined;
  let last: Sample | undefined;
  let sold = 0;
  let bought = 0;
  const flush = () => {
    if (last === undefined) return;
    points.push([
      Math.round((last.t - from) / ms * scale) / scale,
      last.buy === 0 ? null : last.buy,
      last.sell === 0 ? null : last.sell,
      sold,
      bought,
    ]);
  };
  for (const sample of samples) {
    if (sample.t < from) continue;
    // A sample ending exactly on a boundary closes the step before it.
    const step = floorTo(sample.t - 1, stepMs);
    if (bucket !== undefined && step !== bucket) {
      flush();
      sold = 0;
      bought = 0;
    }
    bucket = step;
    last = sample;
    sold += sample.sold;
    bought += sample.bought;
  }
  flush();
  return points;
}

/** The figures of one item over a window. */
export interface Summary {
  /** Lowest sell listing's change over the window, in percent (0.1); null without two prices. */
  readonly change: number | null;
  /** Lowest and highest sell listing over the window (copper); null when never listed. */
  readonly low: number | null;
  readonly high: number | null;
  /**
   * How jumpy the sell listing is: the standard deviation of the points' sell prices as a
   * percentage of their mean (0.1); null with fewer than two.
   */
  readonly volatility: number | null;
  /** Units the sell listings lost a day (bought by players, or withdrawn). */
  readonly soldPerDay: number | null;
  /** Units the buy orders lost a day (filled by players selling, or cancelled). */
  readonly boughtPerDay: number | null;
  /** Minutes of snapshots the two estimates rest on. */
  readonly coveredMinutes: number;
}

/** The figures of `samples` (time ascending, inside the window) and their `points`. */
export function summarize(samples: readonly Sample[], points: readonly Point[]): Summary {
  let sellLow: number | null = null;
  let sellHigh: number | null = null;
  let sold = 0;
  let bought = 0;
  let covered = 0;
  for (const sample of samples) {
    if (sample.sellLow > 0) sellLow = Math.min(sellLow ?? Infinity, sample.sellLow);
    if (sample.sellHigh > 0) sellHigh = Math.max(sellHigh ?? 0, sample.sellHigh);
    sold += sample.sold;
    bought += sample.bought;
    covered += sample.covered;
  }
  const sells = samples.map((sample) => sample.sell).filter((sell) => sell > 0);
  const first = sells[0];
  const last = sells.at(-1);
  const pointSells = points.flatMap((point) => point[2] === null ? [] : [point[2]]);
  return {
    change: first === undefined || last === undefined || sells.length < 2
      ? null
      : round1((last - first) / first * 100),
    low: sellLow,
    high: sellHigh,
    volatility: variation(pointSells),
    soldPerDay: perDay(sold, covered),
    boughtPerDay: perDay(bought, covered),
    coveredMinutes: Math.round(covered),
  };
}

/** Units a day from `units` over `minutes` (null with none measured); a tenth below 10. */
export function perDay(units: number, minutes: number): number | null {
  if (minutes <= 0) return null;
  return roundRate(units / minutes * 1440);
}

/** A rate as shown: whole units from 10 up, a tenth below. */
export function roundRate(rate: number): number {
  return rate >= 10 ? Math.round(rate) : round1(rate);
}

/**
 * The flip figure: margin per unit (see `flipMargin`) and what it earns a day at the smaller of
 * the two daily volumes (a flip needs its buy order filled and its listing bought). `perDay` and
 * `profit` are null when either volume is unknown; `profit` is 0 when the margin is not positive.
 */
export function flipFigure(
  buy: number,
  sell: number,
  soldPerDay: number | null,
  boughtPerDay: number | null,
): { margin: number | null; perDay: number | null; profit: number | null } {
  const margin = flipMargin(buy, sell);
  const volume = soldPerDay === null || boughtPerDay === null
    ? null
    : Math.min(soldPerDay, boughtPerDay);
  const profit = margin === null || volume === null
    ? null
    : Math.round(Math.max(0, margin) * volume);
  return { margin, perDay: volume, profit };
}

function variation(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  if (mean <= 0) return null;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
  return round1(Math.sqrt(variance) / mean * 100);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
