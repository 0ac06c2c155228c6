/**
 * Material storage at the altitude an agent asks about it. The whole storage is hundreds of rows
 * (the seeds measured 468 owned rows, ~18,100 tokens), so without ids it is rolled up to one row
 * per category with its count and instant-sell value; with ids it is exactly those rows, unowned
 * ones included with count 0 ("I own none" is the answer to "do I have enough"). Pure functions.
 *
 * @module
 */

import type { AccountMaterial, MaterialCategory } from "../gw2/schemas.ts";
import { netSellUnit } from "../market/trading_post.ts";

/** One material category, rolled up. Values in copper. */
export interface MaterialCategoryRow {
  readonly category: string;
  /** Distinct items with a count above 0. */
  readonly distinct_owned: number;
  readonly total_count: number;
  /** Sum of count × {@linkcode netSellUnit} of the item's best buy order; untradeable items add 0. */
  readonly total_sell_value: number;
}

/** One requested material. */
export interface MaterialRow {
  readonly id: number;
  /** `null` when GW2 knows no item with this id. */
  readonly name: string | null;
  /** `null` when the item does not go into material storage. */
  readonly category: string | null;
  /** Count in material storage; 0 when none. */
  readonly count: number;
}

/**
 * One row per material category, in the game's category order; categories with nothing owned
 * are kept (zeros), and a stored row whose category GW2 no longer lists gets a row of its own.
 *
 * @example
 * ```ts
 * rollUpMaterials(categories, stored, new Map([[19721, 2603]]));
 * // [{category: "Basic Crafting Materials", distinct_owned: 41, total_count: 9120, total_sell_value: ...}, ...]
 * ```
 * @param buyPrices highest buy order per item id, in copper; absent = untradeable
 */
export function rollUpMaterials(
  categories: readonly MaterialCategory[],
  stored: readonly AccountMaterial[],
  buyPrices: ReadonlyMap<number, number>,
): MaterialCategoryRow[] {
  const ordered = [...categories].sort((a, b) => a.order - b.order);
  const totals = new Map<number, { distinct: number; count: number; value: number }>(
    ordered.map((category) => [category.id, { distinct: 0, count: 0, value: 0 }]),
  );
  for (const row of stored) {
    if (row.count <= 0) continue;
    let total = totals.get(row.category);
    if (total === undefined) {
      total = { distinct: 0, count: 0, value: 0 };
      totals.set(row.category, total);
    }
    total.distinct += 1;
    total.count += row.count;
    total.value += row.count * netSellUnit(buyPrices.get(row.id) ?? 0);
  }
  const names = new Map(ordered.map((category) => [category.id, category.name]));
  return [...totals].map(([id, total]) => ({
    category: names.get(id) ?? `Category ${id}`,
    distinct_owned: total.distinct,
    total_count: total.count,
    total_sell_value: total.value,
  }));
}

/**
 * Exactly the requested ids, in request order without duplicates, each with its storage count
 * (0 when none) and category.
 *
 * @param itemNames item names by id, for the ids GW2 knows
 */
export function materialRows(
  ids: readonly number[],
  categories: readonly MaterialCategory[],
  stored: readonly AccountMaterial[],
  itemNames: ReadonlyMap<number, string>,
): MaterialRow[] {
  const categoryNames = new Map(categories.map((category) => [category.id, category.name]));
  const listedIn = new Map<number, string>();
  for (const category of [...categories].sort((a, b) => a.order - b.order)) {
    for (const id of category.items) if (!listedIn.has(id)) listedIn.set(id, category.name);
  }
  const rows = new Map(stored.map((row) => [row.id, row]));
  return [...new Set(ids)].map((id) => {
    const row = rows.get(id);
    const category = (row === undefined ? undefined : categoryNames.get(row.category)) ??
      listedIn.get(id) ?? null;
    return { id, name: itemNames.get(id) ?? null, category, count: row?.count ?? 0 };
  });
}
