/**
 * How many crafts in a row stay profitable: each craft buys its purchases walking their sell
 * listings from the lowest price up, after the units the crafts before it took, and sells its
 * output walking the buy orders from the best price down, after the units sold before; a craft
 * whose profit at those prices is not positive ends the run. Pure, over the order books the
 * client keeps (`OrderBook`: sells lowest first, buys highest first).
 *
 * Which side stopped it: `bids` when the output's buy orders ran out or fell further below the
 * best buy order than the purchases rose above their unit prices (the row's own figures),
 * `asks` when a purchase's listings ran out or rose further; `cap` at the most a run is walked
 * ({@linkcode MAX_CRAFTS}), `daily` for a time-gated craft (one a day).
 *
 * @module
 */

import type { BookLevel, OrderBook } from "../gw2/schemas.ts";
import { netSellUnit } from "../market/trading_post.ts";
import type { ExactCraft } from "./rows.ts";

/** The most crafts a run is walked for. */
export const MAX_CRAFTS = 250;

/** Why a run of crafts ends. */
export type DepthStop = "bids" | "asks" | "cap" | "daily";

/** One side of a book as the walk reads it. */
export interface BookSide {
  /** Levels in walking order: `[unit price, units]`. */
  readonly levels: readonly BookLevel[];
  /** The book goes on past `levels` (kept in part): units past them cost the last price or more. */
  readonly more?: boolean;
}

/** What one craft buys on the Trading Post, and the book to buy it from. */
export interface DepthPurchase {
  readonly id: number;
  /** Units one craft buys. */
  readonly count: number;
  /** The lowest sell listing, for a book that could not be read. */
  readonly unit: number;
  /** Its sell side; `undefined` when the book could not be read (priced at `unit`). */
  readonly asks: BookSide | undefined;
}

/** A run to walk. */
export interface DepthInput {
  /** Output units one craft makes. */
  readonly count: number;
  /** The output's buy side; `undefined` when its book could not be read. */
  readonly bids: BookSide | undefined;
  /** The best buy order from the price read, for a book that could not be read. */
  readonly bestBid: number;
  readonly purchases: readonly DepthPurchase[];
  /** Coin each craft pays besides its Trading Post purchases (vendors). */
  readonly fixedCost: number;
  /** The most crafts to walk: {@linkcode MAX_CRAFTS}, or 1 for a time-gated craft. */
  readonly cap: number;
  readonly daily?: boolean;
}

/** The run. */
export interface DepthResult {
  /** Crafts in a row that stay profitable. */
  readonly crafts: number;
  /** Their profit together, at the walked prices. */
  readonly totalProfit: number;
  readonly stop: DepthStop;
  /** Some book could not be read: its side is priced at its unit price, one craft at most. */
  readonly noDepth?: true;
}

/** A cursor down one side of a book. */
class Walker {
  readonly #side: BookSide;
  #level = 0;
  #usedAtLevel = 0;

  constructor(side: BookSide) {
    this.#side = side;
  }

  /**
   * Takes `units`: their prices through `price`, summed; `short` the units the side did not have
   * (when it does not go on past its levels).
   */
  take(units: number, price: (unitPrice: number) => number): { total: number; short: number } {
    let left = units;
    let total = 0;
    const levels = this.#side.levels;
    while (left > 0 && this.#level < levels.length) {
      const [unitPrice, available] = levels[this.#level] ?? [0, 0];
      const taken = Math.min(left, available - this.#usedAtLevel);
      total += taken * price(unitPrice);
      left -= taken;
      this.#usedAtLevel += taken;
      if (this.#usedAtLevel >= available) {
        this.#level++;
        this.#usedAtLevel = 0;
      }
    }
    if (left > 0 && this.#side.more === true) {
      const last = levels.at(-1)?.[0] ?? 0;
      return { total: total + left * price(last), short: 0 };
    }
    return { total, short: left };
  }
}

/**
 * Walks a run of crafts.
 *
 * @example
 * ```ts
 * walkCrafts({ count: 1, bids: { levels: [[600, 2], [500, 9]] }, bestBid: 600, purchases: [],
 *   fixedCost: 400, cap: 250 });
 * // {crafts: 2, totalProfit: 2 × (510 - 400), stop: "bids"}: the third sells at 425
 * ```
 */
export function walkCrafts(input: DepthInput): DepthResult {
  const noDepth = input.bids === undefined || input.purchases.some((p) => p.asks === undefined);
  const cap = noDepth ? Math.min(1, input.cap) : input.cap;
  const bids = input.bids === undefined ? undefined : new Walker(input.bids);
  const asks = input.purchases.map((purchase) =>
    purchase.asks === undefined ? undefined : new Walker(purchase.asks)
  );
  let crafts = 0;
  let totalProfit = 0;
  // One craft at unit prices: what each side moved from when a craft stops profiting.
  const revenueAtUnit = input.count * netSellUnit(input.bestBid);
  const costAtUnit = input.purchases.reduce(
    (sum, purchase) => sum + purchase.count * purchase.unit,
    input.fixedCost,
  );
  let stop: DepthStop = input.daily === true ? "daily" : "cap";
  for (let craft = 1; craft <= cap; craft++) {
    const sold = bids?.take(input.count, netSellUnit) ??
      { total: input.count * netSellUnit(input.bestBid), short: 0 };
    let cost = input.fixedCost;
    let short = false;
    input.purchases.forEach((purchase, index) => {
      const bought = asks[index]?.take(purchase.count, (price) => price) ??
        { total: purchase.count * purchase.unit, short: 0 };
      cost += bought.total;
      if (bought.short > 0) short = true;
    });
    const profit = sold.total - cost;
    if (sold.short > 0 || short || profit <= 0) {
      stop = sold.short > 0
        ? "bids"
        : short
        ? "asks"
        : revenueAtUnit - sold.total >= cost - costAtUnit
        ? "bids"
        : "asks";
      break;
    }
    crafts = craft;
    totalProfit += profit;
  }
  return { crafts, totalProfit, stop, ...(noDepth ? { noDepth: true } : {}) };
}

/**
 * The run of crafts to walk for `craft` (its tree's purchases for one craft, its output, its coin
 * and vendor costs), over the order books read for them; a book absent or unread is walked at its
 * unit price.
 */
export function depthInput(
  craft: ExactCraft,
  books: ReadonlyMap<number, OrderBook>,
): DepthInput {
  const output = books.get(craft.outputId);
  // Bids past the kept levels are not priced: a run that reaches them stops there ("bids").
  const bids = output === undefined || output.unread === true
    ? undefined
    : sideOf(output.buys ?? (output.buy === undefined ? [] : [output.buy]), undefined);
  const purchases: DepthPurchase[] = craft.purchases.market.map((line) => {
    const book = books.get(line.id);
    return {
      id: line.id,
      count: line.count,
      unit: line.unit,
      asks: book === undefined || book.unread === true ? undefined : sideOf(book.sells, book.more),
    };
  });
  const coin = craft.purchases.currencies.find((line) => line.cur === 1)?.count ?? 0;
  const vendors = craft.purchases.vendor.reduce((sum, line) => sum + line.total, 0);
  return {
    count: craft.count,
    bids,
    bestBid: craft.prices.get(craft.outputId)?.buy ?? 0,
    purchases,
    fixedCost: coin + vendors,
    cap: craft.daily ? 1 : MAX_CRAFTS,
    daily: craft.daily,
  };
}

function sideOf(levels: BookSide["levels"], more: true | undefined): BookSide {
  return more === true ? { levels, more: true } : { levels };
}
