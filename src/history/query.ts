/**
 * The read side of the price history: one item's series over a window, assembled from the
 * coarsest tier that covers each stretch (daily bars, then hourly bars, then the snapshots not
 * rolled up yet), and the flip candidates of the latest snapshot ranked by the running volumes.
 * What `priory_price_history`, `priory_flips` and the liquidity figures of the other tools read;
 * the shaping is theirs.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { mapWithConcurrency } from "../async/concurrency.ts";
import { type Bar, segmentStart, SHARD_SPAN, shardOf, type Tick, type Volume } from "./codec.ts";
import { DAY_MS, floorTo, HOUR_MS, maxGapMs } from "./rollup.ts";
import {
  downsample,
  flipFigure,
  type Point,
  type Sample,
  samplesFromBars,
  samplesFromTicks,
  stepFor,
  summarize,
  type Summary,
  type Unit,
  UNITS,
  type WindowName,
  WINDOWS,
} from "./series.ts";
import type { HistoryStore } from "./store.ts";
import { volumeRates } from "./volumes.ts";

/** Shard reads in flight at once for one history call. */
const READ_CONCURRENCY = 8;
/** Minutes of measured snapshots an item's running volume needs before it is a flip. */
export const FLIP_MIN_COVERED_MINUTES = 60;

/** One item's history over a window. */
export interface ItemHistory {
  readonly id: number;
  /** When this server first saw the item in a snapshot (epoch ms). */
  readonly since: number;
  readonly points: Point[];
  readonly summary: Summary;
  /** Best buy order and lowest listing at the latest snapshot (0: that side empty). */
  readonly buy: number;
  readonly sell: number;
  /** The flip figure at those prices and the window's volumes: per unit, and copper a day. */
  readonly margin: number | null;
  readonly flipProfit: number | null;
}

/** A history read. */
export interface HistoryRead {
  /** The window's start (epoch ms, aligned to `unit`): point times are `unit`s after it. */
  readonly from: number;
  readonly unit: Unit;
  /** `unit`s between points. */
  readonly step: number;
  /** The latest snapshot (epoch ms); absent when the server has none. */
  readonly latest?: number;
  /** Items with history, in the order asked. */
  readonly items: ItemHistory[];
  /** Asked ids no snapshot ever held (not tradeable, or unknown). */
  readonly unseen: number[];
}

/** One flip candidate of the latest snapshot. */
export interface FlipCandidate {
  readonly id: number;
  readonly buy: number;
  readonly sell: number;
  readonly margin: number;
  /** The smaller of the two running daily volumes. */
  readonly perDay: number;
  /** `margin × perDay`, copper a day. */
  readonly profit: number;
}

/** The flips of the latest snapshot, or why there are none. */
export type FlipRead =
  | { readonly ready: true; readonly latest: number; readonly candidates: FlipCandidate[] }
  | {
    readonly ready: false;
    /** `none`: no snapshot yet; `short`: not yet an hour of volumes. */
    readonly reason: "none" | "short";
    readonly latest?: number;
    /** Minutes the volumes rest on so far. */
    readonly covered: number;
  };

/** Daily sales estimates of one item, from the running volumes. */
export interface ItemVolume {
  readonly soldPerDay: number;
  readonly boughtPerDay: number;
}

/** Options of {@linkcode HistoryReader}. */
export interface HistoryReaderOptions {
  readonly store: HistoryStore;
  readonly clock: Clock;
  /** `PRIORY_SNAPSHOT_MINUTES`: the snapshot period, for the gap limit and the next snapshot. */
  readonly snapshotMinutes: number;
}

/** Reads the history for the tools; remembers the latest snapshot's flips and the volumes. */
export class HistoryReader {
  readonly #store: HistoryStore;
  readonly #clock: Clock;
  readonly #maxGap: number;
  readonly snapshotMinutes: number;
  #flips: { key: string; candidates: FlipCandidate[] } | undefined;
  #volumes: { until: number; volumes: Map<number, Volume>; covered: number } | undefined;

  /** @param options the store, the clock and the snapshot period */
  constructor(options: HistoryReaderOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.snapshotMinutes = options.snapshotMinutes;
    this.#maxGap = maxGapMs(options.snapshotMinutes);
  }

  /** The current time on the reader's clock. */
  now(): number {
    return this.#clock.now();
  }

  /** `ids`' history over `window`, ending now. */
  async read(ids: readonly number[], window: WindowName): Promise<HistoryRead> {
    const now = this.#clock.now();
    const { ms, unit } = WINDOWS[window];
    const stepMs = stepFor(window, ids.length);
    // Whole units, so the points that end on a unit's boundary (bars) have whole times.
    const from = floorTo(now - ms, UNITS[unit].ms);
    const base = { from, unit, step: stepMs / UNITS[unit].ms };
    const latest = await this.#store.latest("raw");
    if (latest === undefined) return { ...base, items: [], unseen: [...ids] };
    const [seen, state] = await Promise.all([this.#store.seen(ids), this.#store.rollupState()]);
    const known = ids.filter((id) => seen.has(id));
    // Each stretch from the coarsest tier that has it: days, then hours, then snapshots.
    const coarse = window === "30d" || window === "1y";
    const dailyUntil = coarse ? Math.max(from, state.dailyUntil ?? from) : from;
    const hourlyUntil = window === "24h" ? from : Math.max(dailyUntil, state.hourlyUntil ?? from);
    // Each tier's series is read from the start of its first segment, where its keyframe is.
    const [days, hours, snapshots] = await Promise.all([
      dailyUntil > from
        ? this.#store.periods("daily", segmentStart("daily", from - DAY_MS), dailyUntil)
        : [],
      hourlyUntil > dailyUntil
        ? this.#store.periods("hourly", segmentStart("hourly", dailyUntil - HOUR_MS), hourlyUntil)
        : [],
      this.#store.periods("raw", segmentStart("raw", hourlyUntil - this.#maxGap), now + 1),
    ]);
    const series = new Map<number, Sample[]>(known.map((id) => [id, []]));
    const latestTicks = new Map<number, Tick>();
    await this.#collect("daily", known, days, (id, bars) => {
      const inside = bars.filter(({ start }) =>
        start + DAY_MS > from && start + DAY_MS <= dailyUntil
      );
      series.get(id)?.push(...samplesFromBars(inside, DAY_MS));
    });
    await this.#collect("hourly", known, hours, (id, bars) => {
      const inside = bars.filter(({ start }) =>
        start + HOUR_MS > dailyUntil && start + HOUR_MS <= hourlyUntil
      );
      series.get(id)?.push(...samplesFromBars(inside, HOUR_MS));
    });
    const shards = groupIds(known, SHARD_SPAN.raw);
    await mapWithConcurrency([...shards], READ_CONCURRENCY, async ([shard, members]) => {
      const read = await this.#store.shardTicks(shard, snapshots, new Set(members));
      for (const id of members) {
        const ticks = read.flatMap(({ t, ticks }) => {
          const tick = ticks.find((candidate) => candidate.id === id);
          return tick === undefined ? [] : [{ t, tick }];
        });
        const last = ticks.at(-1);
        if (last !== undefined && last.t === latest) latestTicks.set(id, last.tick);
        const samples = samplesFromTicks(ticks, this.#maxGap).filter((sample) =>
          sample.t >= hourlyUntil
        );
        series.get(id)?.push(...samples);
      }
    });
    const items = known.map((id): ItemHistory => {
      const samples = (series.get(id) ?? []).filter((sample) => sample.t >= from);
      const points = downsample(samples, from, stepMs, unit);
      const summary = summarize(samples, points);
      const tick = latestTicks.get(id);
      const buy = tick?.buy ?? 0;
      const sell = tick?.sell ?? 0;
      const flip = flipFigure(buy, sell, summary.soldPerDay, summary.boughtPerDay);
      return {
        id,
        since: seen.get(id) ?? from,
        points,
        summary,
        buy,
        sell,
        margin: flip.margin,
        flipProfit: flip.profit,
      };
    });
    return { ...base, latest, items, unseen: ids.filter((id) => !seen.has(id)) };
  }

  /** Reads `tier`'s bars of `starts` for `ids`, one shard at a time, handing each id its bars. */
  async #collect(
    tier: "hourly" | "daily",
    ids: readonly number[],
    starts: readonly number[],
    take: (id: number, bars: { start: number; bar: Bar }[]) => void,
  ): Promise<void> {
    if (starts.length === 0) return;
    const shards = groupIds(ids, SHARD_SPAN[tier]);
    await mapWithConcurrency([...shards], READ_CONCURRENCY, async ([shard, members]) => {
      const read = await this.#store.shardBars(tier, shard, starts, new Set(members));
      for (const id of members) {
        take(
          id,
          read.flatMap(({ t, bars }) => {
            const bar = bars.find((candidate) => candidate.id === id);
            return bar === undefined ? [] : [{ start: t, bar }];
          }),
        );
      }
    });
  }

  /** The flips of the latest snapshot: positive margins with an hour of volumes, unsorted. */
  async flips(): Promise<FlipRead> {
    const latest = await this.#store.latest("raw");
    const volumes = await this.#currentVolumes();
    if (latest === undefined) return { ready: false, reason: "none", covered: 0 };
    if (volumes === undefined || volumes.covered < FLIP_MIN_COVERED_MINUTES) {
      return { ready: false, reason: "short", latest, covered: Math.round(volumes?.covered ?? 0) };
    }
    const key = `${latest}:${volumes.until}`;
    if (this.#flips?.key !== key) {
      const candidates: FlipCandidate[] = [];
      for (const tick of await this.#store.snapshot(latest)) {
        const volume = volumes.volumes.get(tick.id);
        if (volume === undefined || volume.covered < FLIP_MIN_COVERED_MINUTES) continue;
        const rates = volumeRates(volume);
        const flip = flipFigure(tick.buy, tick.sell, rates.soldPerDay, rates.boughtPerDay);
        if (flip.margin === null || flip.margin <= 0 || flip.perDay === null) continue;
        candidates.push({
          id: tick.id,
          buy: tick.buy,
          sell: tick.sell,
          margin: flip.margin,
          perDay: flip.perDay,
          profit: flip.profit ?? 0,
        });
      }
      this.#flips = { key, candidates };
    }
    return { ready: true, latest, candidates: this.#flips.candidates };
  }

  /**
   * Units sold and bought a day of `ids`, from the running volumes (about the last day); an id
   * without an hour of them is absent. Empty until the first hour is rolled up.
   */
  async dailyVolumes(ids: readonly number[]): Promise<Map<number, ItemVolume>> {
    const volumes = await this.#currentVolumes();
    const out = new Map<number, ItemVolume>();
    if (volumes === undefined) return out;
    for (const id of ids) {
      const volume = volumes.volumes.get(id);
      if (volume === undefined || volume.covered < FLIP_MIN_COVERED_MINUTES) continue;
      const { soldPerDay, boughtPerDay } = volumeRates(volume);
      if (soldPerDay !== null && boughtPerDay !== null) out.set(id, { soldPerDay, boughtPerDay });
    }
    return out;
  }

  /** The volumes' latest generation, read again only when a newer one is published. */
  async #currentVolumes(): Promise<
    { until: number; volumes: Map<number, Volume>; covered: number } | undefined
  > {
    const head = await this.#store.volumesHead();
    if (head === undefined) return undefined;
    if (this.#volumes?.until !== head.until) {
      const read = await this.#store.volumes();
      if (read === undefined) return undefined;
      this.#volumes = { until: read.head.until, volumes: read.volumes, covered: read.head.covered };
    }
    return this.#volumes;
  }

  /**
   * When flips should first be ready (epoch ms): the end of the hour after which an hour of
   * snapshots will have been rolled up, plus a period for the snapshot that lets it roll.
   */
  async flipsReadyBy(): Promise<number | undefined> {
    const [origin, head] = await Promise.all([this.#store.origin(), this.#store.volumesHead()]);
    if (origin === undefined) return undefined;
    const period = this.snapshotMinutes * 60_000;
    if (head === undefined) {
      const boundary = Math.ceil((origin + FLIP_MIN_COVERED_MINUTES * 60_000) / HOUR_MS) * HOUR_MS;
      return boundary + period;
    }
    const hoursShort = Math.ceil((FLIP_MIN_COVERED_MINUTES - head.covered) / 60);
    return head.until + Math.max(1, hoursShort) * HOUR_MS + period;
  }

  /**
   * When the next snapshot is expected (epoch ms): a period after the latest, or - with none
   * yet - the next minute's check plus a minute to read the market.
   */
  nextSnapshot(latest: number | undefined): number {
    const now = this.#clock.now();
    if (latest === undefined || latest + this.snapshotMinutes * 60_000 <= now) {
      return Math.ceil(now / 60_000) * 60_000 + 60_000;
    }
    return latest + this.snapshotMinutes * 60_000;
  }
}

/** `ids` grouped by their shard of `span`. */
function groupIds(ids: readonly number[], span: number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const id of ids) {
    const shard = shardOf(id, span);
    groups.set(shard, [...(groups.get(shard) ?? []), id]);
  }
  return groups;
}
