/**
 * The reads behind `priory_trading_post`: the account's open listings and orders, its sales and
 * purchases of the last 90 days (every page, 200 a request: a page each, not a request a row), its
 * delivery box - at once, each cached five minutes under the key's HMAC - then the order books of
 * the items it trades and the best buy order of what waits in the box, from the shared caches
 * (prices from the market sheet while fresh). The figures are `orders.ts`', `earnings.ts`' and
 * `shape.ts`'s; only the kept rows' items are named.
 *
 * @module
 */

import { settleAll } from "../async/concurrency.ts";
import type { BulkRead, Gw2Client } from "../gw2/types.ts";
import { TP_HISTORY_MAX_ROWS } from "../gw2/schemas_trading.ts";
import type { OrderBook, Price } from "../gw2/schemas.ts";
import { bestBuys } from "../market/trading_post.ts";
import { oldestStaleAge, type Staleness, staleness } from "../staleness.ts";
import { earnings, type EarningWindow } from "./earnings.ts";
import { buyingRows, sellingRows } from "./orders.ts";
import { boundTradingPost, rowItemIds, shapeTradingPost, type TradingPostResult } from "./shape.ts";

/** What a read asks for. */
export interface TradingPostOptions {
  readonly window: EarningWindow;
  /** Rows per list. */
  readonly limit: number;
  /** The time now, epoch ms: the window ends here. */
  readonly now: number;
  /** Names of item ids in the answer's language (an id without one answers `name: null`). */
  readonly itemNames: (ids: readonly number[]) => Promise<ReadonlyMap<number, string>>;
}

const NONE: BulkRead<never> = { found: [], missingIds: [] };

/**
 * The account's Trading Post, shaped.
 *
 * @example
 * ```ts
 * await readTradingPost(gw2, key, { window: "7d", limit: 10, now: Date.now(), itemNames });
 * ```
 * @throws {Gw2ScopeMissingError} when the key lacks `tradingpost` (every part needs it)
 * @throws another `Gw2Failure` from a read
 */
export async function readTradingPost(
  gw2: Gw2Client,
  key: string,
  options: TradingPostOptions,
): Promise<TradingPostResult & Staleness> {
  const [selling, buying, sold, bought, delivery] = await settleAll([
    gw2.doc("tpSelling", { key }),
    gw2.doc("tpBuying", { key }),
    gw2.doc("tpSold", { key }),
    gw2.doc("tpBought", { key }),
    gw2.doc("tpDelivery", { key }),
  ]);
  const traded = [
    ...new Set([...selling.value, ...buying.value].map((order) => order.item_id)),
  ];
  const boxed = [...new Set(delivery.value.items.map((item) => item.id))];
  const [books, prices] = await settleAll([
    traded.length === 0 ? Promise.resolve<BulkRead<OrderBook>>(NONE) : gw2.listings(traded),
    boxed.length === 0 ? Promise.resolve<BulkRead<Price>>(NONE) : gw2.prices(boxed),
  ]);
  const byId = new Map(books.found.map((book) => [book.id, book]));
  const rows = boundTradingPost({
    selling: sellingRows(selling.value, byId),
    buying: buyingRows(buying.value, byId),
    delivery: delivery.value,
    buyPrices: bestBuys(prices.found),
    earnings: earnings(sold.value, bought.value, options.window, options.now, TP_HISTORY_MAX_ROWS),
  }, options.limit);
  const names = await options.itemNames(rowItemIds(rows));
  return {
    ...shapeTradingPost(rows, names),
    ...staleness(oldestStaleAge(books.staleAgeMs, prices.staleAgeMs)),
  };
}
