/**
 * What the Trading Post earned the account over a window, from its transaction history (upstream
 * keeps 90 days): the units sold, their gross and their net after the 15 % fee, the units bought
 * and what they cost, the profit (net less spent), and the items whose sales earned most. The fee
 * rule is the one every Priory figure uses (`floor(price x 0.85)` a unit, `src/market/`). Pure.
 *
 * @module
 */

import type { PastTransaction } from "../gw2/schemas_trading.ts";
import { netSellUnit } from "../market/trading_post.ts";

/** The windows a caller may ask for (upstream keeps 90 days of history). */
export const EARNING_WINDOWS = ["1d", "7d", "30d", "90d"] as const;
/** One of {@linkcode EARNING_WINDOWS}. */
export type EarningWindow = typeof EARNING_WINDOWS[number];

const WINDOW_DAYS: Readonly<Record<EarningWindow, number>> = {
  "1d": 1,
  "7d": 7,
  "30d": 30,
  "90d": 90,
};

const DAY_MS = 86_400_000;

/** One item's trades over the window. */
export type EarningRow = {
  readonly id: number;
  /** Units sold. */
  readonly sold: number;
  /** Units bought. */
  readonly bought: number;
  /** What its sales fetched after the fee (copper). */
  readonly net: number;
};

/** The window's sums (copper). */
export interface Earnings {
  readonly window: EarningWindow;
  /** Gross = sum of quantity x price; net = sum of quantity x floor(price x 0.85). */
  readonly sold: { readonly units: number; readonly gross: number; readonly net: number };
  /** Spent = sum of quantity x price. */
  readonly bought: { readonly units: number; readonly spent: number };
  /** `sold.net - bought.spent`. */
  readonly profit: number;
  /** Every item sold in the window, largest `net` first (then id). */
  readonly items: readonly EarningRow[];
  /**
   * The history read stopped (`maxRows`) before the window's start: the sums cover only its
   * newest part.
   */
  readonly partial?: true;
}

/**
 * Sums the sales and purchases completed within `window` before `now` (a transaction whose
 * `purchased` time cannot be read is left out). `maxRows`: the most rows a history read returns;
 * a list that long whose oldest row lies within the window may have lost older ones (`partial`).
 *
 * @example
 * ```ts
 * earnings(sales, purchases, "7d", Date.now());
 * // {window: "7d", sold: {units, gross, net}, bought: {units, spent}, profit, items: [...]}
 * ```
 */
export function earnings(
  sales: readonly PastTransaction[],
  purchases: readonly PastTransaction[],
  window: EarningWindow,
  now: number,
  maxRows = Infinity,
): Earnings {
  const from = now - WINDOW_DAYS[window] * DAY_MS;
  const within = (row: PastTransaction) => {
    const at = Date.parse(row.purchased);
    return Number.isFinite(at) && at >= from && at <= now;
  };
  const perItem = new Map<number, { sold: number; bought: number; net: number }>();
  const item = (id: number) => {
    let row = perItem.get(id);
    if (row === undefined) {
      row = { sold: 0, bought: 0, net: 0 };
      perItem.set(id, row);
    }
    return row;
  };
  const sold = { units: 0, gross: 0, net: 0 };
  for (const sale of sales.filter(within)) {
    const net = sale.quantity * netSellUnit(sale.price);
    sold.units += sale.quantity;
    sold.gross += sale.quantity * sale.price;
    sold.net += net;
    const row = item(sale.item_id);
    row.sold += sale.quantity;
    row.net += net;
  }
  const bought = { units: 0, spent: 0 };
  for (const purchase of purchases.filter(within)) {
    bought.units += purchase.quantity;
    bought.spent += purchase.quantity * purchase.price;
    item(purchase.item_id).bought += purchase.quantity;
  }
  const items = [...perItem].filter(([, row]) => row.sold > 0)
    .map(([id, row]) => ({ id, ...row }))
    .sort((a, b) => b.net - a.net || a.id - b.id);
  // Newest first: the last row read is the oldest.
  const cut = (rows: readonly PastTransaction[]) =>
    rows.length >= maxRows && Date.parse(rows.at(-1)?.purchased ?? "") >= from;
  return {
    window,
    sold,
    bought,
    profit: sold.net - bought.spent,
    items,
    ...(cut(sales) || cut(purchases) ? { partial: true as const } : {}),
  };
}
