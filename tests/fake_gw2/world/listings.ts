/**
 * Order books of the fake world (`/v2/commerce/listings`), consistent with its prices: the top of
 * each side is the price record's `unit_price`, the units of a side add up to its `quantity`, a
 * side the price record leaves empty (0) is empty. Sells climb from the lowest listing, buys fall
 * from the best order. Most books are generated with many small steps; the thin ones
 * (`THIN_BOOK_IDS`: precursors, lodestones, the named gifts' sigils) hold a few units over a few
 * steep levels, and their price records list exactly those units. Books are built on first ask,
 * deterministically (seeded by item id and side).
 *
 * @module
 */

import { seeded } from "../../support/random.ts";
import type { PriceRecord, PriceSide } from "./types.ts";
import { LODESTONE_IDS, NAMED_GIFT_SIGIL_IDS, PRECURSOR_IDS } from "./well_known.ts";

/** One price level: `listings` orders at `unit_price`, `quantity` units in all. */
export interface ListingLevel {
  readonly listings: number;
  readonly unit_price: number;
  readonly quantity: number;
}

/** `/v2/commerce/listings` record: `buys` highest price first, `sells` lowest first. */
export interface ListingRecord {
  readonly id: number;
  readonly buys: readonly ListingLevel[];
  readonly sells: readonly ListingLevel[];
}

/** How a side is drawn: its units (thin books only), levels, and the step between levels. */
interface BookShape {
  readonly units?: readonly [number, number];
  readonly levels: readonly [number, number];
  /** The step to the next level, as a fraction of the price, drawn in this range. */
  readonly step: readonly [number, number];
}

const NORMAL: BookShape = { levels: [5, 40], step: [0.002, 0.03] };
const PRECURSOR: BookShape = { units: [2, 6], levels: [2, 4], step: [0.15, 0.4] };
const LODESTONE: BookShape = { units: [40, 160], levels: [3, 5], step: [0.1, 0.3] };
const SIGIL: BookShape = { units: [3, 12], levels: [2, 4], step: [0.15, 0.4] };

const THIN = new Map<number, BookShape>([
  ...PRECURSOR_IDS.map((id) => [id, PRECURSOR] as const),
  ...LODESTONE_IDS.map((id) => [id, LODESTONE] as const),
  ...NAMED_GIFT_SIGIL_IDS.map((id) => [id, SIGIL] as const),
]);

/**
 * The units a thin book lists for sale (its price record's `sells.quantity`); `undefined` for an
 * item whose book is not thin.
 */
export function thinBookUnits(id: number): number | undefined {
  const units = THIN.get(id)?.units;
  return units === undefined ? undefined : seeded(id, "book-units").int(units[0], units[1]);
}

/** The book of a priced item. */
function generateBook(price: PriceRecord): ListingRecord {
  return {
    id: price.id,
    buys: side(price.id, price.buys, -1, NORMAL),
    sells: side(price.id, price.sells, 1, THIN.get(price.id) ?? NORMAL),
  };
}

/** The books of a world's prices, each built on first ask and kept. */
export class FakeBooks {
  readonly #prices: ReadonlyMap<number, PriceRecord>;
  readonly #built = new Map<number, ListingRecord>();
  /** Every id with a book (every priced item), in the prices' order. */
  readonly ids: readonly number[];

  /** @param prices the world's price records */
  constructor(prices: ReadonlyMap<number, PriceRecord>) {
    this.#prices = prices;
    this.ids = [...prices.keys()];
  }

  /** The book of `id`, or undefined when the item is not traded. */
  get(id: number): ListingRecord | undefined {
    const built = this.#built.get(id);
    if (built !== undefined) return built;
    const price = this.#prices.get(id);
    if (price === undefined) return undefined;
    const book = Object.freeze(generateBook(price));
    this.#built.set(id, book);
    return book;
  }
}

/** One side: from the top price, `direction` +1 (sells, climbing) or −1 (buys, falling). */
function side(
  id: number,
  top: PriceSide,
  direction: 1 | -1,
  shape: BookShape,
): ListingLevel[] {
  if (top.quantity === 0 || top.unit_price === 0) return [];
  const random = seeded(id, "book", direction === 1 ? "sells" : "buys");
  const counts = split(top.quantity, Math.min(top.quantity, random.int(...shape.levels)), random);
  const levels: ListingLevel[] = [];
  let price = top.unit_price;
  for (const [index, quantity] of counts.entries()) {
    if (index > 0) {
      const fraction = shape.step[0] + random.next() * (shape.step[1] - shape.step[0]);
      price += direction * Math.max(1, Math.round(price * fraction));
    }
    const last = levels.at(-1);
    if (price < 1 && last !== undefined) {
      // Buy orders cannot fall below 1 copper: the rest of the units wait at the lowest level.
      levels[levels.length - 1] = { ...last, quantity: last.quantity + quantity };
      continue;
    }
    levels.push({ listings: random.int(1, Math.min(quantity, 25)), unit_price: price, quantity });
  }
  return levels;
}

/** `total` units over `parts` levels, each at least 1, drawn around an even share. */
function split(total: number, parts: number, random: ReturnType<typeof seeded>): number[] {
  const weights = Array.from({ length: parts }, () => 0.5 + random.next());
  const sum = weights.reduce((a, b) => a + b, 0);
  const spare = total - parts;
  const counts = weights.map((weight) => 1 + Math.floor(spare * weight / sum));
  const placed = counts.reduce((a, b) => a + b, 0);
  counts[counts.length - 1] = (counts.at(-1) ?? 1) + total - placed;
  return counts;
}
