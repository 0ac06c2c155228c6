/**
 * The two history tools' results, shaped: compact (the model reads every byte), times as ISO
 * 8601 to the minute, point times in the window's unit after its start - the result says which,
 * and what a point's fields are, so it reads without the tool's description - figures left out
 * of a row only where the contract allows.
 *
 * @module
 */

import type { FlipCandidate, FlipRead, HistoryRead } from "./query.ts";
import type { Point, Unit, WindowName } from "./series.ts";

/** An instant as ISO 8601 to the minute (`2026-11-29T10:05Z`). */
export function isoMinute(t: number): string {
  return `${new Date(t).toISOString().slice(0, 16)}Z`;
}

/** One item's row of `priory_price_history`. */
export type HistoryRow = {
  readonly id: number;
  readonly name: string;
  readonly since: string | null;
  readonly points: Point[];
  readonly change: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly volatility: number | null;
  readonly soldPerDay: number | null;
  readonly boughtPerDay: number | null;
  readonly margin: number | null;
  /** Copper a day: `margin` × the smaller of the two daily volumes. */
  readonly flipProfit: number | null;
};

/** `priory_price_history`'s result. */
export type HistoryResult = {
  readonly history: HistoryRow[];
  readonly window: WindowName;
  /** What a point's fields are, its time's unit named: `[hours after from, buy, ...]`. */
  readonly point: string;
  /** Point times are `unit`s after this. */
  readonly from: string;
  readonly unit: Unit;
  /** `unit`s between points. */
  readonly step: number;
  /** The latest snapshot. */
  readonly at?: string;
  /** When the next snapshot is expected (with none yet: the first). */
  readonly next?: string;
  readonly note?: string;
  /** Asked ids no snapshot held: not tradeable, or unknown. */
  readonly missing_ids?: number[];
};

/** The history result for `ids` from `read`, named by `names`. */
export function shapeHistory(
  ids: readonly number[],
  window: WindowName,
  read: HistoryRead,
  names: ReadonlyMap<number, string>,
  next: number,
): HistoryResult {
  const name = (id: number) => names.get(id) ?? `Item ${id}`;
  const base = {
    window,
    point: `[${read.unit}s after from, buy, sell, sold, bought]`,
    from: isoMinute(read.from),
    unit: read.unit,
    step: read.step,
  };
  if (read.latest === undefined) {
    return {
      history: ids.map((id) => emptyRow(id, name(id))),
      ...base,
      next: isoMinute(next),
      note:
        `No snapshot yet: this server records the Trading Post from its start; the first is expected by ${
          isoMinute(next)
        }.`,
    };
  }
  const rows = read.items.map((item): HistoryRow => ({
    id: item.id,
    name: name(item.id),
    since: isoMinute(item.since),
    points: item.points,
    change: item.summary.change,
    low: item.summary.low,
    high: item.summary.high,
    volatility: item.summary.volatility,
    soldPerDay: item.summary.soldPerDay,
    boughtPerDay: item.summary.boughtPerDay,
    margin: item.margin,
    flipProfit: item.flipProfit,
  }));
  const short = read.items.some((item) => item.since > read.from);
  return {
    history: rows,
    ...base,
    at: isoMinute(read.latest),
    next: isoMinute(next),
    ...(short
      ? { note: "History starts at since: this server has not recorded the whole window yet." }
      : {}),
    ...(read.unseen.length > 0 ? { missing_ids: read.unseen } : {}),
  };
}

function emptyRow(id: number, name: string): HistoryRow {
  return {
    id,
    name,
    since: null,
    points: [],
    change: null,
    low: null,
    high: null,
    volatility: null,
    soldPerDay: null,
    boughtPerDay: null,
    margin: null,
    flipProfit: null,
  };
}

/** The filters of `priory_flips`. */
export interface FlipFilter {
  readonly limit: number;
  readonly minVolume: number;
  readonly minPrice?: number | undefined;
  readonly maxPrice?: number | undefined;
}

/** One row of `priory_flips`. */
export type FlipRow = {
  readonly id: number;
  readonly name: string;
  readonly buy: number;
  readonly sell: number;
  readonly margin: number;
  readonly perDay: number;
  readonly profit: number;
  /** Margin over the copper one unit ties up (the order at buy + 1c). */
  readonly roi: number;
};

/** `priory_flips`' result. */
export type FlipsResult = {
  readonly flips: FlipRow[];
  /** The snapshot the prices are from. */
  readonly at?: string;
  readonly next?: string;
  readonly note?: string;
};

/** The candidates that pass `filter`, best `profit` first (then margin, then id), at most `limit`. */
export function pickFlips(
  candidates: readonly FlipCandidate[],
  filter: FlipFilter,
): FlipCandidate[] {
  return candidates
    .filter((flip) =>
      flip.perDay >= filter.minVolume &&
      (filter.minPrice === undefined || flip.buy >= filter.minPrice) &&
      (filter.maxPrice === undefined || flip.buy <= filter.maxPrice)
    )
    .sort((a, b) => b.profit - a.profit || b.margin - a.margin || a.id - b.id)
    .slice(0, filter.limit);
}

/** The flips result from `read` (rows already picked), named by `names`. */
export function shapeFlips(
  read: FlipRead,
  picked: readonly FlipCandidate[],
  names: ReadonlyMap<number, string>,
  next: number,
  ready: number | undefined,
): FlipsResult {
  if (!read.ready) {
    const note = read.reason === "none"
      ? `No snapshot yet: the first is expected by ${isoMinute(next)}; flips need an hour of them.`
      : `Too little history: flips need ${60} minutes of snapshots to estimate volumes, ${read.covered} so far${
        ready === undefined ? "" : `; ready by ${isoMinute(ready)}`
      }.`;
    return {
      flips: [],
      ...(read.latest === undefined ? {} : { at: isoMinute(read.latest) }),
      next: isoMinute(read.reason === "none" ? next : ready ?? next),
      note,
    };
  }
  return {
    flips: picked.map((flip) => ({
      id: flip.id,
      name: names.get(flip.id) ?? `Item ${flip.id}`,
      buy: flip.buy,
      sell: flip.sell,
      margin: flip.margin,
      perDay: flip.perDay,
      profit: flip.profit,
      roi: Math.round(flip.margin / (flip.buy + 1) * 1000) / 1000,
    })),
    at: isoMinute(read.latest),
    ...(picked.length === 0 ? { note: "No flip passes the filters in the latest snapshot." } : {}),
  };
}
