/**
 * A Trading Post that moves, for the price history's tests and the bench: opt-in (the fake's
 * `market` option, or `FAKE_GW2_MARKET=moving` for `deno task fake-gw2`), so every other test
 * keeps the world's fixed prices. Driven only by the time it is asked at (the fake's clock), a
 * pure function of item and minute — deterministic, and the same whatever was asked before.
 *
 * Per item, seeded by its id, around the world's own price record:
 *
 * - **Prices** swing on two waves (a day or three, and a month or so) with a little noise per
 *   minute; the buy order keeps its ratio to the listing, always below it.
 * - **Trades**: each hour the sell listings are restocked, then lose `sellRate` units a minute
 *   to buyers; the buy orders are replenished, then lose `buyRate` a minute to sellers. A few
 *   items do not trade at all.
 * - **Cancellations**: in about half the hours a seller withdraws `cancelUnits` at one minute
 *   (and a buyer cancels an order in another) — a drop a snapshot cannot tell from a sale.
 * - Order books (`/v2/commerce/listings`) keep their levels' units, their prices moved with the
 *   top of each side.
 *
 * Every item moves every minute: the worst case for the history's storage. **`quiet: true`** is
 * the realistic mix, where most items sit still: each item moves only once every so many minutes
 * of its own (seeded), staying as it was in between — 10 % of items every 1–5 minutes, 20 % every
 * 5–60, 30 % every 1–24 hours, 40 % every 1–7 days (log-uniform within each band), so about 15 %
 * of items change between two 5-minute snapshots.
 *
 * @module
 */

import { hashSeed, seeded } from "../../support/random.ts";
import type { ListingLevel, ListingRecord } from "./listings.ts";
import type { PriceRecord } from "./types.ts";

/** The market moves once a minute. */
export const MARKET_TICK_MS = 60_000;
/** Minutes between restocks. */
const CYCLE = 60;

/** How one item moves. */
export interface MarketParams {
  /** The fast wave's relative height and period (minutes). */
  readonly amplitude: number;
  readonly period: number;
  readonly phase: number;
  /** The slow wave's. */
  readonly slowAmplitude: number;
  readonly slowPeriod: number;
  readonly slowPhase: number;
  /** Units the sell listings lose to buyers each minute (fractions add up across minutes). */
  readonly sellRate: number;
  /** Units the buy orders lose to sellers each minute. */
  readonly buyRate: number;
  /** Units withdrawn in an hour with a cancellation (each side). */
  readonly cancelUnits: number;
}

/** Options of {@linkcode MovingMarket}. */
export interface MovingMarketOptions {
  /** Most items sit still between moves of their own (see the module doc); default: none do. */
  readonly quiet?: boolean;
}

/** Bands of minutes between an item's moves in the quiet mix, with the share of items in each. */
const QUIET_BANDS = [
  { share: 0.1, from: 1, to: 5 },
  { share: 0.2, from: 5, to: 60 },
  { share: 0.3, from: 60, to: 1_440 },
  { share: 0.4, from: 1_440, to: 10_080 },
] as const;

/** A Trading Post whose prices and quantities follow the clock. */
export class MovingMarket {
  readonly #params = new Map<number, MarketParams>();
  readonly #quiet: boolean;
  readonly #every = new Map<number, { minutes: number; offset: number }>();

  /** @param options whether most items sit still (the realistic mix) */
  constructor(options: MovingMarketOptions = {}) {
    this.#quiet = options.quiet === true;
  }

  /** How `id` moves (seeded by its id; `base` sets the scale of its trades). */
  params(base: PriceRecord): MarketParams {
    const known = this.#params.get(base.id);
    if (known !== undefined) return known;
    const random = seeded(base.id, "market");
    const dead = random.chance(0.1);
    const depth = Math.max(1, Math.min(base.sells.quantity, base.buys.quantity || Infinity));
    // A day's trades: about a tenth to twice the depth a side holds, spread over its minutes.
    const perMinute = (units: number) =>
      dead || units === 0 ? 0 : units * (0.1 + random.next() * 1.9) / 1440;
    const params: MarketParams = {
      amplitude: 0.02 + random.next() * 0.08,
      period: random.int(1_440, 4_320),
      phase: random.next() * Math.PI * 2,
      slowAmplitude: 0.05 + random.next() * 0.15,
      slowPeriod: random.int(20_160, 60_480),
      slowPhase: random.next() * Math.PI * 2,
      sellRate: perMinute(base.sells.quantity),
      buyRate: perMinute(base.buys.quantity),
      cancelUnits: dead ? 0 : Math.max(1, Math.round(depth * 0.02)),
    };
    this.#params.set(base.id, params);
    return params;
  }

  /** `base` as the market stands at `now` (epoch ms). */
  price(base: PriceRecord, now: number): PriceRecord {
    const minute = this.#lastMove(base.id, Math.floor(now / MARKET_TICK_MS));
    const params = this.params(base);
    const factor = this.#factor(base.id, params, minute);
    const sell = base.sells.unit_price === 0
      ? 0
      : Math.max(2, Math.round(base.sells.unit_price * factor));
    // Both sides move by the same factor: the spread keeps its ratio, the order under the listing.
    const moved = Math.floor(base.buys.unit_price * factor);
    const buy = base.buys.unit_price === 0
      ? 0
      : Math.max(1, sell === 0 ? moved : Math.min(sell - 1, moved));
    return {
      ...base,
      buys: { unit_price: buy, quantity: this.#quantity(base, params, minute, "buys") },
      sells: { unit_price: sell, quantity: this.#quantity(base, params, minute, "sells") },
    };
  }

  /** `book` with each side's prices moved as its price record's top moved at `now`. */
  listing(book: ListingRecord, base: PriceRecord, now: number): ListingRecord {
    const moved = this.price(base, now);
    const shift = (levels: readonly ListingLevel[], from: number, to: number) =>
      from === 0 ? levels : levels.map((level) => ({
        ...level,
        unit_price: Math.max(1, Math.round(level.unit_price * to / from)),
      }));
    return {
      ...book,
      buys: shift(book.buys, base.buys.unit_price, moved.buys.unit_price),
      sells: shift(book.sells, base.sells.unit_price, moved.sells.unit_price),
    };
  }

  /** The minute `id` last moved at, by `minute`: itself, unless the market is quiet. */
  #lastMove(id: number, minute: number): number {
    if (!this.#quiet) return minute;
    let every = this.#every.get(id);
    if (every === undefined) {
      const draw = unit(id, 0, 5);
      let below = 0;
      let band: { readonly from: number; readonly to: number } = { from: 1_440, to: 10_080 };
      for (const candidate of QUIET_BANDS) {
        below += candidate.share;
        if (draw < below) {
          band = candidate;
          break;
        }
      }
      const minutes = Math.round(band.from * (band.to / band.from) ** unit(id, 0, 6));
      every = { minutes, offset: Math.floor(unit(id, 0, 7) * minutes) };
      this.#every.set(id, every);
    }
    return Math.floor((minute + every.offset) / every.minutes) * every.minutes - every.offset;
  }

  #factor(id: number, params: MarketParams, minute: number): number {
    const fast = params.amplitude * Math.sin(2 * Math.PI * minute / params.period + params.phase);
    const slow = params.slowAmplitude *
      Math.sin(2 * Math.PI * minute / params.slowPeriod + params.slowPhase);
    const noise = (unit(id, minute, 0) - 0.5) * 0.02;
    return Math.max(0.05, 1 + fast + slow + noise);
  }

  #quantity(
    base: PriceRecord,
    params: MarketParams,
    minute: number,
    side: "buys" | "sells",
  ): number {
    const start = base[side].quantity;
    if (start === 0) return 0;
    const rate = side === "sells" ? params.sellRate : params.buyRate;
    const cycle = Math.floor(minute / CYCLE);
    const into = minute - cycle * CYCLE;
    const cancelled = params.cancelUnits > 0 &&
      unit(base.id, cycle, side === "sells" ? 1 : 2) < 0.5;
    const cancelAt = 10 + Math.floor(unit(base.id, cycle, side === "sells" ? 3 : 4) * 40);
    // Restocked at the hour's start with what the hour will trade and withdraw; never below
    // the world's own quantity.
    const stock = start + Math.ceil(rate * CYCLE) + params.cancelUnits;
    const traded = Math.floor(rate * into);
    const withdrawn = cancelled && into >= cancelAt ? params.cancelUnits : 0;
    return stock - traded - withdrawn;
  }
}

/** A uniform draw in [0, 1) for (id, n, salt): one hash, no generator (called per record). */
function unit(id: number, n: number, salt: number): number {
  let hash = hashSeed(id, n, salt);
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0;
  return hash / 4294967296;
}
