/**
 * The accounts' Trading Post: current sell listings and buy orders, the transaction history of
 * the last 90 days, the delivery box, and the gem exchange's rates. Times are kept as ages (seconds
 * before the moment a request is answered), so "the last 7 days" means the same rows whatever the
 * fake's clock says; the routes (`commerce.ts`) render them as dates and drop what is older than
 * 90 days, as upstream keeps no more.
 *
 * The main account's orders are planted against the world's order books (`listings.ts`), so a
 * client can tell them apart: listings undercut and not, buy orders outbid and not, at known
 * levels. Its history holds 450 sales (three pages of at most 200: longer than two) and 130
 * purchases, drawn from fixed seeds; three older sales are kept but never served. The veteran
 * account trades little: one listing of Mystic Coins and some waiting in its delivery box, so its
 * coins lie in every place an account can hold a material.
 *
 * @module
 */

import { seeded } from "../../support/random.ts";
import type { FakeBooks } from "./listings.ts";
import type { PriceRecord } from "./types.ts";
import { WELL_KNOWN } from "./well_known.ts";

/** One order or transaction, its times as ages in seconds. */
export interface FakeTransaction {
  readonly id: number;
  readonly item_id: number;
  /** Copper per unit. */
  readonly price: number;
  readonly quantity: number;
  /** Seconds before now the order was placed. */
  readonly createdAge: number;
  /** Seconds before now it was fulfilled (history only). */
  readonly purchasedAge?: number;
}

/** `/v2/commerce/delivery`. */
export interface DeliveryRecord {
  readonly coins: number;
  readonly items: readonly { readonly id: number; readonly count: number }[];
}

/** An account's Trading Post, every list newest first. */
export interface FakeTradingPost {
  readonly currentBuys: readonly FakeTransaction[];
  readonly currentSells: readonly FakeTransaction[];
  /** Fulfilled within the last 90 days, plus older rows the routes never serve. */
  readonly historyBuys: readonly FakeTransaction[];
  readonly historySells: readonly FakeTransaction[];
  readonly delivery: DeliveryRecord;
}

const HOUR = 3_600;
const DAY = 24 * HOUR;

/** How long upstream keeps the transaction history. */
export const HISTORY_DAYS = 90;

/**
 * The gem exchange (`/v2/commerce/exchange/*`): copper a gem fetches when gems are sold, and
 * copper a gem costs when coins buy gems (the spread between them is the exchange's margin).
 */
export const GEM_EXCHANGE = { gemSells: 2_301.37, gemCosts: 2_874.6 } as const;

/**
 * What the main account's planted orders are, by name: each listing or order at a level of the
 * item's book (0 = the best price), so tests compute undercut/outbid and the units ahead from the
 * book itself.
 */
export const PLANTED_ORDERS = {
  /** Sell listings: item, the sell level they sit at, units (two listings share one price). */
  sells: [
    { item: WELL_KNOWN.globOfEctoplasm, level: 2, quantities: [250, 100] },
    { item: WELL_KNOWN.globOfEctoplasm, level: 0, quantities: [40] },
    { item: WELL_KNOWN.mysticCoin, level: 0, quantities: [25] },
    { item: WELL_KNOWN.vialOfPowerfulBlood, level: 4, quantities: [250] },
    { item: WELL_KNOWN.dawn, level: 1, quantities: [1] },
  ],
  /** Buy orders: item, the buy level they sit at, units. */
  buys: [
    { item: WELL_KNOWN.globOfEctoplasm, level: 0, quantities: [500] },
    { item: WELL_KNOWN.pileOfCrystallineDust, level: 3, quantities: [250] },
    { item: WELL_KNOWN.orichalcumIngot, level: 1, quantities: [100] },
    { item: WELL_KNOWN.mysticCoin, level: 0, quantities: [10] },
  ],
} as const;

/** The main account's delivery box: coins, a few stacks, one without any buy order (a plank). */
export const PLANTED_DELIVERY: DeliveryRecord = {
  coins: 1_234_567,
  items: [
    { id: WELL_KNOWN.mysticCoin, count: 30 },
    { id: WELL_KNOWN.globOfEctoplasm, count: 250 },
    { id: WELL_KNOWN.elderWoodPlank, count: 500 },
  ],
};

/** Sales served (within 90 days) and their spread: 250 in 7 days, 150 more in 30, 50 more. */
export const HISTORY_SALES = 450;
/** Purchases served, evenly over 89 days. */
export const HISTORY_PURCHASES = 130;

/** What the history sells: the pool each sale draws its item from. */
const SOLD_ITEMS: readonly number[] = [
  WELL_KNOWN.globOfEctoplasm,
  WELL_KNOWN.globOfEctoplasm,
  WELL_KNOWN.mysticCoin,
  WELL_KNOWN.vialOfPowerfulBlood,
  WELL_KNOWN.pileOfCrystallineDust,
  WELL_KNOWN.viciousClaw,
  WELL_KNOWN.ancientBone,
  WELL_KNOWN.orichalcumIngot,
  WELL_KNOWN.elderWoodPlank,
  WELL_KNOWN.dawn,
];

/** What the history buys. */
const BOUGHT_ITEMS: readonly number[] = [
  WELL_KNOWN.globOfEctoplasm,
  WELL_KNOWN.orichalcumIngot,
  WELL_KNOWN.pileOfCrystallineDust,
  WELL_KNOWN.mysticCoin,
];

/** The veteran account's listing: Mystic Coins at the lowest price. */
export const VETERAN_LISTING = { item: WELL_KNOWN.mysticCoin, quantity: 15 } as const;

/** The veteran account's delivery box: coins from a sale, and Mystic Coins bought. */
export const VETERAN_DELIVERY: DeliveryRecord = {
  coins: 52_000,
  items: [{ id: WELL_KNOWN.mysticCoin, count: 20 }],
};

/** The veteran account's Trading Post: one listing, a delivery box, no history. */
export function veteranTradingPost(books: FakeBooks): FakeTradingPost {
  const price = books.get(VETERAN_LISTING.item)?.sells[0]?.unit_price;
  if (price === undefined) throw new Error(`item ${VETERAN_LISTING.item} has no sell listing`);
  return {
    currentBuys: [],
    currentSells: [{
      id: 5_100_000_001,
      item_id: VETERAN_LISTING.item,
      price,
      quantity: VETERAN_LISTING.quantity,
      createdAge: 3 * HOUR,
    }],
    historyBuys: [],
    historySells: [],
    delivery: VETERAN_DELIVERY,
  };
}

/**
 * The main account's Trading Post over the world's prices and books.
 *
 * @throws {Error} when a planted level is missing from its book (the world changed under it)
 */
export function plantedTradingPost(
  prices: ReadonlyMap<number, PriceRecord>,
  books: FakeBooks,
): FakeTradingPost {
  let nextId = 5_200_000_000;
  const ids = () => nextId++;
  const orders = (
    side: "sells" | "buys",
    planted: typeof PLANTED_ORDERS.sells | typeof PLANTED_ORDERS.buys,
  ): FakeTransaction[] =>
    planted.flatMap(({ item, level, quantities }, index) => {
      const price = books.get(item)?.[side][level]?.unit_price;
      if (price === undefined) throw new Error(`item ${item} has no ${side} level ${level}`);
      return quantities.map((quantity, listing) => ({
        id: 0,
        item_id: item,
        price,
        quantity,
        createdAge: (index * 5 + listing + 1) * HOUR + 17 * 60,
      }));
    });
  // Ids grow with time: the oldest order has the smallest. Every list is newest first.
  const numbered = (rows: FakeTransaction[]): FakeTransaction[] =>
    rows.sort((a, b) => b.createdAge - a.createdAge).map((row) => ({ ...row, id: ids() }))
      .reverse();
  const history = numberedHistory(prices, ids);
  return {
    currentSells: numbered(orders("sells", PLANTED_ORDERS.sells)),
    currentBuys: numbered(orders("buys", PLANTED_ORDERS.buys)),
    historySells: history.sells,
    historyBuys: history.buys,
    delivery: PLANTED_DELIVERY,
  };
}

/** The sales' ages (seconds), newest first: 250 within 7 days, 150 within 30, 50 within 89. */
function saleAge(index: number): number {
  if (index < 250) return 600 + index * 2_390;
  if (index < 400) return 7 * DAY + HOUR + (index - 250) * 13_200;
  return 30 * DAY + HOUR + (index - 400) * 101_880;
}

/** Sales older than 90 days: kept by the world, never served. */
const EXPIRED_SALE_AGES = [91 * DAY, 100 * DAY, 120 * DAY];

function numberedHistory(
  prices: ReadonlyMap<number, PriceRecord>,
  ids: () => number,
): { sells: FakeTransaction[]; buys: FakeTransaction[] } {
  const sale = (age: number, index: number): FakeTransaction =>
    transaction(prices, seeded("tp-sale", index), SOLD_ITEMS, age, "sells");
  const sells = [
    ...Array.from({ length: HISTORY_SALES }, (_, index) => sale(saleAge(index), index)),
    ...EXPIRED_SALE_AGES.map((age, index) => sale(age, HISTORY_SALES + index)),
  ];
  const buys = Array.from(
    { length: HISTORY_PURCHASES },
    (_, index) =>
      transaction(
        prices,
        seeded("tp-purchase", index),
        BOUGHT_ITEMS,
        1_800 + index * 59_150,
        "buys",
      ),
  );
  // Ids in the order the transactions completed, oldest first; lists stay newest first.
  const all = [...sells, ...buys].sort((a, b) => (b.purchasedAge ?? 0) - (a.purchasedAge ?? 0));
  const numbered = new Map(all.map((row) => [row, ids()]));
  const withId = (row: FakeTransaction) => ({ ...row, id: numbered.get(row) ?? 0 });
  return { sells: sells.map(withId), buys: buys.map(withId) };
}

/**
 * One fulfilled transaction: an item of `pool`, at a price near its market (a sale near the
 * lowest listing, a purchase near the best order), a unit for a precursor, else a stack.
 */
function transaction(
  prices: ReadonlyMap<number, PriceRecord>,
  random: ReturnType<typeof seeded>,
  pool: readonly number[],
  purchasedAge: number,
  side: "sells" | "buys",
): FakeTransaction {
  const item = random.pick(pool);
  const record = prices.get(item);
  const market = side === "sells" ? record?.sells.unit_price : record?.buys.unit_price;
  const base = market === undefined || market === 0 ? 100 : market;
  const price = Math.max(1, Math.round(base * (0.9 + random.next() * 0.25)));
  const quantity = item === WELL_KNOWN.dawn ? 1 : random.int(1, 250);
  return {
    id: 0,
    item_id: item,
    price,
    quantity,
    createdAge: purchasedAge + random.int(60, DAY),
    purchasedAge,
  };
}
