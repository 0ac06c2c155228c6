/**
 * Trading-post prices of the fake world. A few are real captures; the rest are generated per
 * item (seeded by its id) at plausible magnitudes: gen-1 legendaries at thousands of gold,
 * precursors at hundreds to thousands, tier-6 materials at tens of silver to about a gold.
 * Items that cannot be traded (account bound or soulbound on acquire) have no price, exactly as
 * upstream: `NoSell` only forbids vendor sales, so precursors, legendaries and Mystic Coins
 * (which carry it) stay on the trading post. The thin books of `listings.ts` set their records'
 * sell quantities.
 *
 * @module
 */

import { rarityRank } from "./item_factory.ts";
import { thinBookUnits } from "./listings.ts";
import { seeded } from "../../support/random.ts";
import type { ItemRecord, PriceRecord } from "./types.ts";
import { GEN1_LEGENDARY_IDS, PRECURSOR_IDS, T6_MATERIAL_IDS, WELL_KNOWN } from "./well_known.ts";

/** Real prices (wiki example and public captures; dates differ, see docs/fake-gw2.md). */
const REAL_PRICES: readonly PriceRecord[] = [
  price(68, false, [3905, 82], [439, 140]),
  price(8918, false, [1776, 431], [758, 546]),
  price(19684, false, [145975, 7018], [126, 7019]),
  price(19701, true, [356798, 159], [1911995, 160]),
  price(19709, false, [0, 0], [1593, 192]),
  price(19721, false, [208_114, 2603], [96_412, 2797]),
];

/** Copper ranges of the lowest sell listing by rarity, for items without a special rule. */
const SELL_RANGE_BY_RANK: readonly (readonly [number, number])[] = [
  [5, 60],
  [10, 800],
  [20, 2_000],
  [50, 5_000],
  [100, 30_000],
  [5_000, 400_000],
  [50_000, 2_000_000],
  [10_000_000, 30_000_000],
];

/**
 * Tradeable items a coin vendor also sells (the curated merchant offers), with the vendor's
 * copper per unit: the Trading Post trades them near that price, a little under or over, not
 * at their rarity's range (Thermocatalytic Reagent is Ascended, yet worth about 150 copper).
 */
const NEAR_VENDOR: ReadonlyMap<number, number> = new Map([
  [12156, 8], // Jug of Water: 80 coin per 10
  [19663, 2_504], // Bottle of Elonian Wine
  [19750, 16], // Lump of Coal: 160 per 10
  [19790, 64], // Spool of Gossamer Thread: 640 per 10
  [19924, 48], // Lump of Primordium: 480 per 10
  [46747, 149.6], // Thermocatalytic Reagent: 1,496 per 10
]);

/** Whether upstream lists the item on the trading post. */
export function isTradeable(item: ItemRecord): boolean {
  return !item.flags.includes("AccountBound") && !item.flags.includes("SoulbindOnAcquire");
}

/** A price record for every tradeable item, in the items' order. */
export function generatePrices(items: readonly ItemRecord[]): PriceRecord[] {
  const real = new Map(REAL_PRICES.map((record) => [record.id, record]));
  return items.filter(isTradeable).map((item) =>
    withThinBook(real.get(item.id) ?? generatePrice(item))
  );
}

/** A thin book's price lists as many units for sale as the book holds (`listings.ts`). */
function withThinBook(record: PriceRecord): PriceRecord {
  const units = thinBookUnits(record.id);
  return units === undefined ? record : { ...record, sells: { ...record.sells, quantity: units } };
}

const LEGENDARIES = new Set(GEN1_LEGENDARY_IDS);
const PRECURSORS = new Set(PRECURSOR_IDS);
const T6 = new Set(T6_MATERIAL_IDS);

function sellRange(item: ItemRecord): readonly [number, number] {
  const vendor = NEAR_VENDOR.get(item.id);
  if (vendor !== undefined) return [Math.max(2, vendor * 0.8), vendor * 1.25];
  if (item.id === WELL_KNOWN.eternity) return [45_000_000, 60_000_000];
  if (LEGENDARIES.has(item.id)) return [12_000_000, 40_000_000];
  if (PRECURSORS.has(item.id)) return [1_000_000, 20_000_000];
  if (T6.has(item.id)) return [1_500, 12_000];
  if (item.id === WELL_KNOWN.mysticCoin) return [14_000, 22_000];
  if (/ (Ore|Ingot|Plank|Log)$/u.test(item.name)) return [50, 1_500];
  // Legendary-rarity trophies (Memory of Aurene, Jade Runestone, Antique Summoning Stone) trade
  // at tens of gold, not at a legendary weapon's price.
  if (item.rarity === "Legendary" && item.type === "Trophy") return [100_000, 400_000];
  return SELL_RANGE_BY_RANK[rarityRank(item.rarity)] ?? [10, 800];
}

function generatePrice(item: ItemRecord): PriceRecord {
  const random = seeded(item.id, "price");
  const [low, high] = sellRange(item);
  // Log-uniform: cheap items are far more common than expensive ones within a range.
  const sell = Math.max(2, Math.round(low * (high / low) ** random.next()));
  const emptyBuySide = random.chance(0.02);
  const buy = Math.min(sell - 1, Math.floor(sell * (0.75 + random.next() * 0.22)));
  const depth = Math.max(1, Math.round(4_000_000 / Math.sqrt(sell)));
  const whitelisted = item.type === "CraftingMaterial" && rarityRank(item.rarity) <= 2 &&
    random.chance(0.7);
  return price(
    item.id,
    whitelisted,
    emptyBuySide ? [0, 0] : [random.int(1, depth * 3), buy],
    [random.int(1, depth), sell],
  );
}

function price(
  id: number,
  whitelisted: boolean,
  [buyQuantity, buyPrice]: readonly [number, number],
  [sellQuantity, sellPrice]: readonly [number, number],
): PriceRecord {
  return {
    id,
    whitelisted,
    buys: { quantity: buyQuantity, unit_price: buyPrice },
    sells: { quantity: sellQuantity, unit_price: sellPrice },
  };
}
