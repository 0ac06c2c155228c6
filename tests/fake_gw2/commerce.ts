/**
 * The fake's Trading Post endpoints beyond prices and listings: the account's transactions
 * (`/v2/commerce/transactions/{current,history}/{buys,sells}`), its delivery box
 * (`/v2/commerce/delivery`), and the gem exchange (`/v2/commerce/exchange/{gems,coins}`).
 *
 * Transactions page as upstream's lists do: `page` (0 when absent) and `page_size` (50 when
 * absent, at most 200), `X-Page-*`, `X-Result-*` and `Link` headers, a page past the end 400; ids
 * are not taken. Records are newest first, dated from the fake's clock; the history holds the last
 * 90 days only.
 *
 * @module
 */

import type { TestKey } from "./auth.ts";
import { bulkAnswer, type Collection, parseNumericId } from "./bulk.ts";
import { type Answer, failure, ok } from "./responses.ts";
import {
  type FakeTradingPost,
  type FakeTransaction,
  GEM_EXCHANGE,
  HISTORY_DAYS,
} from "./world/trading_post.ts";
import type { FakeWorld } from "./world/world.ts";

/** What a commerce answer depends on (a subset of the route context). */
export interface CommerceContext {
  readonly world: FakeWorld;
  readonly params: URLSearchParams;
  readonly key: TestKey | undefined;
  /** The fake's clock, epoch ms: transactions are dated from it. */
  readonly now: number;
}

/** Chosen texts (upstream's are unrecorded): a missing or bad `quantity`, too few coins. */
export const EXCHANGE_TEXT = {
  badQuantity: "invalid or missing value for quantity",
  tooFewCoins: "not enough coins",
} as const;

/** Which list of the account's Trading Post an endpoint serves. */
export type TransactionList = "currentBuys" | "currentSells" | "historyBuys" | "historySells";

function tradingPostOf({ world, key }: CommerceContext): FakeTradingPost {
  return world.tradingPost[key?.account ?? "main"];
}

/** `2026-11-28T21:14:09+00:00`, upstream's form of a transaction's times. */
function dated(now: number, ageSeconds: number): string {
  const at = Math.floor(now / 1000) * 1000 - ageSeconds * 1000;
  return new Date(at).toISOString().replace(".000Z", "+00:00");
}

function render(row: FakeTransaction, now: number): object {
  return {
    id: row.id,
    item_id: row.item_id,
    price: row.price,
    quantity: row.quantity,
    created: dated(now, row.createdAge),
    ...(row.purchasedAge === undefined ? {} : { purchased: dated(now, row.purchasedAge) }),
  };
}

/** `/v2/commerce/transactions/<list>`: one page of the list, newest first. */
export function transactions(
  list: TransactionList,
  linkBase: string,
): (context: CommerceContext) => Answer {
  return (context) => {
    const { params, now } = context;
    const oldest = HISTORY_DAYS * 24 * 3_600;
    const rows = tradingPostOf(context)[list].filter((row) => (row.purchasedAge ?? 0) <= oldest);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const collection: Collection<number> = {
      ids: rows.map((row) => row.id),
      record: (id) => {
        const row = byId.get(id);
        return row === undefined ? undefined : render(row, now);
      },
      parse: parseNumericId,
      allowAll: false,
      noSuchText: "no such id",
      linkBase,
    };
    // Only paging applies: a list without `page` is its first page.
    const paging = new URLSearchParams({ page: params.get("page") ?? "0" });
    const size = params.get("page_size");
    if (size !== null) paging.set("page_size", size);
    return bulkAnswer(collection, paging);
  };
}

/** `/v2/commerce/delivery`: coins and items waiting to be picked up. */
export function delivery(context: CommerceContext): Answer {
  return ok(tradingPostOf(context).delivery);
}

/** A positive whole `quantity`, or undefined. */
function quantityOf(params: URLSearchParams): number | undefined {
  const value = parseNumericId((params.get("quantity") ?? "").trim());
  return value === undefined || value <= 0 ? undefined : value;
}

/** `/v2/commerce/exchange/gems?quantity=<gems>`: the copper those gems sell for. */
export function exchangeGems({ params }: CommerceContext): Answer {
  const gems = quantityOf(params);
  if (gems === undefined) return failure(400, EXCHANGE_TEXT.badQuantity);
  const copper = Math.floor(gems * GEM_EXCHANGE.gemSells);
  return ok({ coins_per_gem: Math.floor(copper / gems), quantity: copper });
}

/** `/v2/commerce/exchange/coins?quantity=<copper>`: the gems that copper buys. */
export function exchangeCoins({ params }: CommerceContext): Answer {
  const copper = quantityOf(params);
  if (copper === undefined) return failure(400, EXCHANGE_TEXT.badQuantity);
  const gems = Math.floor(copper / GEM_EXCHANGE.gemCosts);
  if (gems === 0) return failure(400, EXCHANGE_TEXT.tooFewCoins);
  return ok({ coins_per_gem: Math.floor(copper / gems), quantity: gems });
}
