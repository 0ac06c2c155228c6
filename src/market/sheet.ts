/**
 * The market sheet: the whole Trading Post at one moment - for every tradeable item, the best buy
 * order and lowest sell listing (copper) with the units on each side, and the time it was taken.
 * Read in bulk (`/v2/commerce/prices?page=`, ~135 pages of 200 for the real API's ~27,000 ids)
 * by `src/market/sheets.ts`, kept in KV by `src/market/sheet_store.ts`, and used by every price
 * read while it is fresh (`MarketSheets.prices`), by the crafting scan and by the price history.
 *
 * Pure: the type, its lookups, and its packed form in KV. A sheet is held **packed**, one typed
 * array per column, not one object per id: ~27,000 rows are ~570 KB, and every instance holds the
 * latest one.
 *
 * @module
 */

import type { Price } from "../gw2/schemas.ts";

/**
 * How often the sheet is taken by default: as long as upstream caches its prices (about five
 * minutes), so a fresher read would mostly return the same answer.
 */
export const DEFAULT_SHEET_PERIOD_MS = 5 * 60_000;

/**
 * The whole Trading Post at `takenAt`. Row `i` is item `ids[i]`; ids ascend. Prices are unit
 * prices in copper, 0 when that side of the book is empty; quantities are the units at every
 * price on that side (`/v2/commerce/prices`' `quantity`), capped at 2³² - 1.
 */
export interface MarketSheet {
  /** When the read that made it began (epoch ms): its age is measured from here. */
  readonly takenAt: number;
  readonly ids: Int32Array;
  /** Highest buy order per row. */
  readonly buyPrice: Uint32Array;
  /** Units wanted by buy orders per row. */
  readonly buyQuantity: Uint32Array;
  /** Lowest sell listing per row: what buying one costs. */
  readonly sellPrice: Uint32Array;
  /** Units listed for sale per row. */
  readonly sellQuantity: Uint32Array;
  /** `whitelisted` per row (1 or 0), as upstream states it. */
  readonly whitelisted: Uint8Array;
}

/** One row of a sheet. */
export interface SheetRow {
  readonly id: number;
  readonly buyPrice: number;
  readonly buyQuantity: number;
  readonly sellPrice: number;
  readonly sellQuantity: number;
}

const U32_MAX = 0xffff_ffff;

function u32(value: number): number {
  return Math.min(U32_MAX, Math.max(0, Math.trunc(value)));
}

/**
 * The sheet of `prices` taken at `takenAt`: one row per id (the last record of an id read twice,
 * as pages shift during a read, wins), ascending.
 *
 * @example
 * ```ts
 * const sheet = buildSheet(pages.flatMap((page) => page.records), startedAt);
 * sheetRow(sheet, 19721)?.sellPrice; // copper
 * ```
 */
export function buildSheet(prices: Iterable<Price>, takenAt: number): MarketSheet {
  const byId = new Map<number, Price>();
  for (const price of prices) byId.set(price.id, price);
  const ids = Int32Array.from(byId.keys()).sort();
  const sheet = emptySheet(takenAt, ids.length);
  ids.forEach((id, row) => {
    const price = byId.get(id);
    if (price === undefined) return;
    sheet.ids[row] = id;
    sheet.buyPrice[row] = u32(price.buys.unit_price);
    sheet.buyQuantity[row] = u32(price.buys.quantity);
    sheet.sellPrice[row] = u32(price.sells.unit_price);
    sheet.sellQuantity[row] = u32(price.sells.quantity);
    sheet.whitelisted[row] = price.whitelisted ? 1 : 0;
  });
  return sheet;
}

function emptySheet(takenAt: number, rows: number): MarketSheet & { ids: Int32Array } {
  return {
    takenAt,
    ids: new Int32Array(rows),
    buyPrice: new Uint32Array(rows),
    buyQuantity: new Uint32Array(rows),
    sellPrice: new Uint32Array(rows),
    sellQuantity: new Uint32Array(rows),
    whitelisted: new Uint8Array(rows),
  };
}

/** The row of `id` in `sheet`, or -1 when the item is not on the Trading Post. */
export function sheetIndex(sheet: MarketSheet, id: number): number {
  let low = 0;
  let high = sheet.ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sheet.ids[middle] ?? 0;
    if (found === id) return middle;
    if (found < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** The row of `id`, or `undefined` when the item is not on the Trading Post. */
export function sheetRow(sheet: MarketSheet, id: number): SheetRow | undefined {
  const row = sheetIndex(sheet, id);
  return row < 0 ? undefined : rowAt(sheet, row);
}

/** Row number `row` (0 <= row < {@linkcode sheetSize}). */
export function rowAt(sheet: MarketSheet, row: number): SheetRow {
  return {
    id: sheet.ids[row] ?? 0,
    buyPrice: sheet.buyPrice[row] ?? 0,
    buyQuantity: sheet.buyQuantity[row] ?? 0,
    sellPrice: sheet.sellPrice[row] ?? 0,
    sellQuantity: sheet.sellQuantity[row] ?? 0,
  };
}

/** The `/v2/commerce/prices` record of `id` as the sheet holds it, or `undefined`. */
export function sheetPrice(sheet: MarketSheet, id: number): Price | undefined {
  const row = sheetIndex(sheet, id);
  if (row < 0) return undefined;
  return {
    id,
    whitelisted: sheet.whitelisted[row] === 1,
    buys: { quantity: sheet.buyQuantity[row] ?? 0, unit_price: sheet.buyPrice[row] ?? 0 },
    sells: { quantity: sheet.sellQuantity[row] ?? 0, unit_price: sheet.sellPrice[row] ?? 0 },
  };
}

/** Rows in the sheet: every item on the Trading Post when it was taken. */
export function sheetSize(sheet: MarketSheet): number {
  return sheet.ids.length;
}

/** The sheet's age at `now`, in milliseconds (0 for a sheet stamped in the future). */
export function sheetAge(sheet: MarketSheet, now: number): number {
  return Math.max(0, now - sheet.takenAt);
}

/**
 * Rows per stored shard: 21 bytes a row (five 32-bit columns and a byte), so 3,000 rows are 63,000
 * bytes, under KV's 65,536 per value. The real Trading Post is ~9 shards (~570 KB, one commit).
 */
export const SHARD_ROWS = 3_000;
const ROW_BYTES = 21;

/** The sheet's five 32-bit columns, in their stored order. */
function wordColumns(sheet: MarketSheet): readonly (Int32Array | Uint32Array)[] {
  return [sheet.ids, sheet.buyPrice, sheet.buyQuantity, sheet.sellPrice, sheet.sellQuantity];
}

/**
 * Rows `start` to `end` (exclusive) of `sheet` as one KV value: the five 32-bit columns one after
 * the other, little-endian, then the whitelisted bytes.
 */
export function packShard(sheet: MarketSheet, start: number, end: number): Uint8Array {
  const rows = Math.max(0, Math.min(end, sheetSize(sheet)) - start);
  const bytes = new Uint8Array(rows * ROW_BYTES);
  const view = new DataView(bytes.buffer);
  wordColumns(sheet).forEach((column, index) => {
    const base = index * rows * 4;
    for (let row = 0; row < rows; row++) {
      view.setUint32(base + row * 4, column[start + row] ?? 0, true);
    }
  });
  bytes.set(sheet.whitelisted.subarray(start, start + rows), 5 * rows * 4);
  return bytes;
}

/** Every shard of `sheet`, in row order (see {@linkcode packShard}). */
export function packSheet(sheet: MarketSheet): Uint8Array[] {
  const shards: Uint8Array[] = [];
  for (let start = 0; start < sheetSize(sheet); start += SHARD_ROWS) {
    shards.push(packShard(sheet, start, start + SHARD_ROWS));
  }
  return shards;
}

/**
 * The sheet stored as `shards` (in row order), taken at `takenAt`; `undefined` when a shard does
 * not fit the layout or the rows do not ascend (a damaged or foreign value).
 */
export function unpackSheet(
  shards: readonly Uint8Array[],
  takenAt: number,
): MarketSheet | undefined {
  if (shards.some((shard) => shard.byteLength % ROW_BYTES !== 0)) return undefined;
  const rows = shards.reduce((sum, shard) => sum + shard.byteLength / ROW_BYTES, 0);
  const sheet = emptySheet(takenAt, rows);
  const columns = wordColumns(sheet);
  let at = 0;
  for (const shard of shards) {
    const count = shard.byteLength / ROW_BYTES;
    const view = new DataView(shard.buffer, shard.byteOffset, shard.byteLength);
    columns.forEach((column, index) => {
      const base = index * count * 4;
      for (let row = 0; row < count; row++) column[at + row] = view.getUint32(base + row * 4, true);
    });
    sheet.whitelisted.set(shard.subarray(5 * count * 4), at);
    at += count;
  }
  for (let row = 1; row < rows; row++) {
    if ((sheet.ids[row] ?? 0) <= (sheet.ids[row - 1] ?? 0)) return undefined;
  }
  return sheet;
}
