/**
 * The legendary armory: `/v2/legendaryarmory` (how many of each legendary the armory can hold)
 * and the accounts' `/v2/account/legendaryarmory` (how many they have unlocked). The limits
 * follow the API's rule (gw2-account reference): 1 for armor, backs and amulets, 2 for rings,
 * accessories (a character wears two of each) and two-handed weapons, 4 for one-handed weapons,
 * 7 for the rune, 8 for the sigil; the kind comes from the item record's `details.type`.
 *
 * @module
 */

import { LEGENDARIES } from "../../../src/data/legendaries.ts";
import type { ItemRecord } from "./types.ts";
import { WELL_KNOWN } from "./well_known.ts";

/** A `/v2/legendaryarmory` record. */
export interface ArmoryLimitRecord {
  readonly id: number;
  readonly max_count: number;
}

/** A `/v2/account/legendaryarmory` row. */
export interface ArmorySlotRecord {
  readonly id: number;
  readonly count: number;
}

const TWO_HANDED = new Set([
  "Greatsword",
  "Hammer",
  "LongBow",
  "Rifle",
  "ShortBow",
  "Staff",
  "Harpoon",
  "Speargun",
  "Spear",
  "Trident",
]);

/** Trinkets a character wears two of. */
const PAIRED_TRINKETS = new Set(["Ring", "Accessory"]);

/** The Legendary Rune's and Sigil's ids. */
const RUNE = 91536;
const SIGIL = 91505;

/** The armory's limit of every legendary the world knows, by id (ascending). */
export function armoryLimits(
  items: ReadonlyMap<number, ItemRecord>,
): ReadonlyMap<number, ArmoryLimitRecord> {
  const limits = LEGENDARIES.map((legendary): ArmoryLimitRecord => {
    const kind = items.get(legendary.id)?.details?.type;
    const detail = typeof kind === "string" ? kind : "";
    const max = legendary.id === RUNE
      ? 7
      : legendary.id === SIGIL
      ? 8
      : legendary.type === "weapon"
      ? TWO_HANDED.has(detail) ? 2 : 4
      : PAIRED_TRINKETS.has(detail)
      ? 2
      : 1;
    return { id: legendary.id, max_count: max };
  });
  return new Map(limits.sort((a, b) => a.id - b.id).map((limit) => [limit.id, limit]));
}

/**
 * The veteran account's armory: Sunrise (which Aldric wears from it), The Bifrost, and two
 * Legendary Sigils of the eight the armory holds.
 */
export const VETERAN_ARMORY: readonly ArmorySlotRecord[] = [
  { id: WELL_KNOWN.bifrost, count: 1 },
  { id: WELL_KNOWN.sunrise, count: 1 },
  { id: SIGIL, count: 2 },
];
