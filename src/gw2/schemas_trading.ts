/**
 * Zod schemas of the Trading Post's account records and the gem exchange (issue 27), kept apart
 * from `schemas.ts` so the wave's endpoints each add a file of their own. As there, `z.object`
 * strips unknown keys: only the fields declared here leave the client, and a transaction keeps
 * what the answers use (the item, its unit price, units, and when a past one completed), not its
 * ids or creation time - a 90-day history is cached whole, so every field is paid for 450 times.
 *
 * @module
 */

import { z } from "zod";

/**
 * Pages of 200 the client reads of each Trading Post history (sales, purchases): 5,000
 * transactions of the 90 days upstream keeps - a busy flipper's weeks. Past them an answer says
 * its window is `partial` (`src/trading/earnings.ts`).
 */
export const TP_HISTORY_MAX_PAGES = 25;
/** Transactions the client reads of each history at most (pages x 200). */
export const TP_HISTORY_MAX_ROWS = TP_HISTORY_MAX_PAGES * 200;

const Id = z.number().int().positive();
const Copper = z.number().int().nonnegative();

/**
 * `/v2/commerce/transactions/current/{buys,sells}` row: an open buy order or sell listing, its
 * unit price in copper and the units still open.
 */
export const CurrentOrderSchema = z.object({
  item_id: Id,
  price: Copper,
  quantity: z.number().int().nonnegative(),
});
/** A validated open order. */
export type CurrentOrder = z.infer<typeof CurrentOrderSchema>;

/**
 * `/v2/commerce/transactions/history/{buys,sells}` row: a fulfilled order of the last 90 days,
 * with when it completed (`purchased`, ISO 8601 with an offset: `2026-11-28T21:14:09+00:00`).
 */
export const PastTransactionSchema = CurrentOrderSchema.extend({ purchased: z.string() });
/** A validated past transaction. */
export type PastTransaction = z.infer<typeof PastTransactionSchema>;

/** `/v2/commerce/delivery`: coins and items bought or unsold, waiting to be picked up. */
export const DeliverySchema = z.object({
  coins: Copper,
  items: z.array(z.object({ id: Id, count: z.number().int().nonnegative() })),
});
/** A validated delivery box. */
export type Delivery = z.infer<typeof DeliverySchema>;

/**
 * `/v2/commerce/exchange/{gems,coins}?quantity=`: `quantity` is what the given amount exchanges
 * for (copper for gems, gems for copper), `coins_per_gem` the rate it got.
 */
export const GemExchangeSchema = z.object({
  coins_per_gem: Copper,
  quantity: z.number().int().nonnegative(),
});
/** A validated exchange quote. */
export type GemExchange = z.infer<typeof GemExchangeSchema>;
