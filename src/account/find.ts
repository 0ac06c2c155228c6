/**
 * "Where is it?": for each item asked, every place of the account holding it and how many - the
 * holdings' places (material storage, bank, shared slots, each character's bags and what it
 * wears), the legendary armory, the Trading Post's delivery box and the account's current sell
 * listings - with the total and, when it trades, its lowest sell listing and value. Pure: the
 * reader gathers the sources (a source the key cannot read is simply absent), this counts them.
 *
 * @module
 */

import type { CurrentOrder } from "../gw2/schemas_trading.ts";
import type { HoldingPlace, HoldingSource } from "./tally.ts";

/** The places an item can be, in the order an answer lists them. */
export const FIND_PLACES = [
  "materials",
  "bank",
  "shared",
  "bags",
  "equipped",
  "armory",
  "delivery",
  "selling",
] as const;
/** One of {@linkcode FIND_PLACES}. */
export type FindPlace = typeof FIND_PLACES[number];

/** The holdings' source names, as places. */
const HOLDING_PLACE: Readonly<Record<HoldingSource, FindPlace>> = {
  material_storage: "materials",
  bank: "bank",
  shared_inventory: "shared",
  character: "bags",
  equipment: "equipped",
};

/**
 * Place rows an item lists at most; past them the character rows with the fewest units are left
 * off (counted in `more`; their units stay in `total`). Account-wide places are never cut: a Mystic
 * Coin scattered over forty bags would otherwise cost ~600 tokens per item.
 */
export const MAX_PLACES_PER_ITEM = 10;

/**
 * Place rows a whole answer lists at most, shared by its items: 100 ids of widely held items would
 * otherwise list up to 1,000 rows (~14,000 tokens). With many items each keeps fewer rows (its
 * largest), at least one; `more` says how many it left off, `total` still counts them.
 */
export const MAX_PLACES_PER_ANSWER = 150;

/** One place holding an item. */
export type PlaceRow = {
  readonly place: FindPlace;
  readonly count: number;
  /** The character whose bags hold it or who wears it (`bags`, `equipped`). */
  readonly character?: string;
};

/** One item asked for. */
export type FoundItem = {
  readonly id: number;
  /** `null` when GW2 knows no item with this id. */
  readonly name: string | null;
  /** Units over every place read; 0 when it lies nowhere (the answer to "do I have it"). */
  readonly total: number;
  readonly places: PlaceRow[];
  /** Place rows left off (see {@linkcode MAX_PLACES_PER_ITEM}). */
  readonly more?: number;
  /** The lowest sell listing (copper), when the item trades. */
  readonly unit?: number;
  /** `total × unit`, when the item trades. */
  readonly value?: number;
};

/** What was read of the account; a source the key could not read is absent. */
export interface FindSources {
  /** Per item id, its places among the holdings (`tallyHoldings`'s `places`). */
  readonly holdings?: ReadonlyMap<number, readonly HoldingPlace[]>;
  /** The legendary armory: units per item id. */
  readonly armory?: ReadonlyMap<number, number>;
  /** The delivery box's items. */
  readonly delivery?: readonly { readonly id: number; readonly count: number }[];
  /** The account's current sell listings. */
  readonly selling?: readonly CurrentOrder[];
}

/**
 * The answer for `ids`, in the order asked (duplicates once).
 *
 * @example
 * ```ts
 * findItems([19976], { holdings: tally.places, delivery: box.items }, names, units);
 * // [{id: 19976, name: "Mystic Coin", total: 120, places: [{place: "materials", count: 85}, ...],
 * //   unit: 16448, value: 1973760}]
 * ```
 * @param names item names in the language asked (an id without one answers `name: null`)
 * @param units lowest sell listing per tradeable item id (copper); absent = does not trade
 */
export function findItems(
  ids: readonly number[],
  sources: FindSources,
  names: ReadonlyMap<number, string>,
  units: ReadonlyMap<number, number>,
): FoundItem[] {
  const armory = sources.armory ?? new Map<number, number>();
  const delivered = sumBy(sources.delivery ?? [], (entry) => [entry.id, entry.count]);
  const listed = sumBy(sources.selling ?? [], (order) => [order.item_id, order.quantity]);
  const unique = [...new Set(ids)];
  const limit = Math.max(
    1,
    Math.min(MAX_PLACES_PER_ITEM, Math.floor(MAX_PLACES_PER_ANSWER / unique.length)),
  );
  return unique.map((id) => {
    const rows: PlaceRow[] = [
      ...(sources.holdings?.get(id) ?? []).map(placeRow),
      ...accountWide("armory", armory.get(id)),
      ...accountWide("delivery", delivered.get(id)),
      ...accountWide("selling", listed.get(id)),
    ];
    const total = rows.reduce((sum, row) => sum + row.count, 0);
    const { places, more } = bounded(rows, limit);
    const unit = units.get(id);
    return {
      id,
      name: names.get(id) ?? null,
      total,
      places,
      ...(more > 0 ? { more } : {}),
      ...(unit === undefined ? {} : { unit, value: total * unit }),
    };
  });
}

function placeRow(place: HoldingPlace): PlaceRow {
  return {
    place: HOLDING_PLACE[place.source],
    count: place.count,
    ...(place.character === undefined ? {} : { character: place.character }),
  };
}

function accountWide(place: FindPlace, count: number | undefined): PlaceRow[] {
  return count === undefined || count <= 0 ? [] : [{ place, count }];
}

function sumBy<T>(rows: readonly T[], entry: (row: T) => [number, number]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const row of rows) {
    const [id, count] = entry(row);
    sums.set(id, (sums.get(id) ?? 0) + count);
  }
  return sums;
}

/**
 * At most `limit` rows, in place order: the account-wide rows first, then the character rows,
 * each by most units (ties: the earlier row).
 */
function bounded(rows: readonly PlaceRow[], limit: number): { places: PlaceRow[]; more: number } {
  if (rows.length <= limit) return { places: [...rows], more: 0 };
  const rank = (row: PlaceRow) => row.character === undefined ? 0 : 1;
  const kept = new Set(
    rows.map((row, index) => ({ row, index }))
      .sort((a, b) => rank(a.row) - rank(b.row) || b.row.count - a.row.count || a.index - b.index)
      .slice(0, limit).map(({ index }) => index),
  );
  const places = rows.filter((_, index) => kept.has(index));
  return { places, more: rows.length - places.length };
}
