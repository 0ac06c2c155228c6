/**
 * `priory_trading_post`'s lean result: the open orders against the market, the delivery box
 * valued, and the window's earnings with the items that earned most - each row list bounded by
 * the call's `limit`, the rows left off counted in `more`. Pure: rows are bounded first, so only
 * the kept rows' items need names, then named.
 *
 * @module
 */

import type { Delivery } from "../gw2/schemas_trading.ts";
import { netSellUnit } from "../market/trading_post.ts";
import type { EarningRow, Earnings, EarningWindow } from "./earnings.ts";
import type { BuyingRow, SellingRow } from "./orders.ts";

/** A delivery box item, valued. */
export type DeliveryRow = {
  readonly id: number;
  readonly count: number;
  /** `count x floor(best buy x 0.85)`: what selling it now fetches; 0 without a buy order. */
  readonly value: number;
};

/** The bounded rows, before naming. */
export interface TradingPostRows {
  readonly selling: readonly SellingRow[];
  readonly buying: readonly BuyingRow[];
  readonly delivery: { readonly coins: number; readonly items: readonly DeliveryRow[] };
  readonly earnings: Omit<Earnings, "items"> & { readonly top: readonly EarningRow[] };
  /** Rows left off per list; absent when nothing was cut. */
  readonly more?: Partial<Record<"selling" | "buying" | "delivery" | "top", number>>;
}

/** A row with its item's name (`null` when GW2 knows none). */
type Named<T> = T & { readonly name: string | null };

/** `priory_trading_post` structured result. */
export type TradingPostResult = {
  readonly selling: Named<SellingRow>[];
  readonly buying: Named<BuyingRow>[];
  readonly delivery: { readonly coins: number; readonly items: Named<DeliveryRow>[] };
  readonly earnings: {
    readonly window: EarningWindow;
    readonly sold: Earnings["sold"];
    readonly bought: Earnings["bought"];
    readonly profit: number;
    readonly top: Named<EarningRow>[];
    readonly partial?: true;
  };
  readonly more?: TradingPostRows["more"];
};

/** What the rows are made from. */
export interface TradingPostParts {
  readonly selling: readonly SellingRow[];
  readonly buying: readonly BuyingRow[];
  readonly delivery: Delivery;
  /** Best buy order per item id (copper); absent or 0 = none. */
  readonly buyPrices: ReadonlyMap<number, number>;
  readonly earnings: Earnings;
}

/**
 * The rows, each list cut at `limit`: orders as sorted (undercut and outbid first), the delivery
 * box by value (largest first, then id), the top earners by net.
 *
 * @example
 * ```ts
 * const rows = boundTradingPost(parts, 10);
 * const names = await namer(rowItemIds(rows));
 * shapeTradingPost(rows, names);
 * ```
 */
export function boundTradingPost(parts: TradingPostParts, limit: number): TradingPostRows {
  const more: Partial<Record<"selling" | "buying" | "delivery" | "top", number>> = {};
  const cut = <T>(list: readonly T[], name: keyof typeof more): readonly T[] => {
    if (list.length > limit) more[name] = list.length - limit;
    return list.slice(0, limit);
  };
  const valued = parts.delivery.items.map(({ id, count }) => ({
    id,
    count,
    value: count * netSellUnit(parts.buyPrices.get(id) ?? 0),
  })).sort((a, b) => b.value - a.value || a.id - b.id);
  const { items, ...sums } = parts.earnings;
  const rows = {
    selling: cut(parts.selling, "selling"),
    buying: cut(parts.buying, "buying"),
    delivery: { coins: parts.delivery.coins, items: cut(valued, "delivery") },
    earnings: { ...sums, top: cut(items, "top") },
  };
  return Object.keys(more).length === 0 ? rows : { ...rows, more };
}

/** The item ids the kept rows name. */
export function rowItemIds(rows: TradingPostRows): number[] {
  return [
    ...new Set([
      ...rows.selling.map((row) => row.id),
      ...rows.buying.map((row) => row.id),
      ...rows.delivery.items.map((row) => row.id),
      ...rows.earnings.top.map((row) => row.id),
    ]),
  ];
}

/** The result: every row with its item's name, in the order the rows were kept. */
export function shapeTradingPost(
  rows: TradingPostRows,
  names: ReadonlyMap<number, string>,
): TradingPostResult {
  // The name right after the id: keys keep the order they were first written in.
  const named = <T extends { readonly id: number }>(row: T): Named<T> =>
    Object.assign({ id: row.id, name: names.get(row.id) ?? null }, row);
  const { window, sold, bought, profit, top, partial } = rows.earnings;
  return {
    selling: rows.selling.map(named),
    buying: rows.buying.map(named),
    delivery: { coins: rows.delivery.coins, items: rows.delivery.items.map(named) },
    earnings: {
      window,
      sold,
      bought,
      profit,
      top: top.map(named),
      ...(partial === undefined ? {} : { partial }),
    },
    ...(rows.more === undefined ? {} : { more: rows.more }),
  };
}
