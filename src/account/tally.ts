/**
 * What a player holds, tallied from the places items can lie: material storage, the bank, the
 * shared inventory slots, every character's bags and what every character wears. Pure: the
 * reader (`src/account/holdings.ts`) gathers the upstream records, this counts them.
 *
 * @module
 */

import type {
  AccountMaterial,
  CharacterBags,
  CharacterInventory,
  ItemSlot,
} from "../gw2/schemas.ts";

/** Where items can lie. */
export type HoldingSource =
  | "material_storage"
  | "bank"
  | "shared_inventory"
  | "character"
  | "equipment";

/** One place holding an item, and how many lie there. */
export interface HoldingPlace {
  readonly source: HoldingSource;
  /** The character whose bags hold it or who wears it (sources `character`, `equipment`). */
  readonly character?: string;
  readonly count: number;
}

/**
 * Equipment shown from the account's legendary armory: one item lent to every character, which
 * can never leave the armory (so never be consumed by a recipe), and is listed once per character
 * using it. Not holdings.
 */
export const LEGENDARY_ARMORY_LOCATIONS: ReadonlySet<string> = new Set([
  "EquippedFromLegendaryArmory",
  "LegendaryArmory",
]);

/** The raw records of every source. */
export interface HoldingSources {
  readonly materialStorage: readonly AccountMaterial[];
  readonly bank: readonly (ItemSlot | null)[];
  readonly sharedInventory: readonly (ItemSlot | null)[];
  readonly characters: readonly {
    readonly name: string;
    readonly bags: CharacterInventory["bags"];
    /** What the character wears, in every equipment tab; absent when not read. */
    readonly equipment?: CharacterBags["equipment"];
  }[];
}

/** Everything a player holds. */
export interface Holdings {
  /** Owned count per item id over every source; ids owned 0 times are absent. */
  readonly counts: ReadonlyMap<number, number>;
  /** Per item id, the places holding it (one entry per source, or per character), in source order. */
  readonly places: ReadonlyMap<number, readonly HoldingPlace[]>;
  /** How many characters' bags were read. */
  readonly characters: number;
}

/**
 * Tallies the sources: every stack counts, bound or not (an agent may filter by place); every
 * equipped item counts once, in any equipment tab, except those shown from the legendary armory.
 *
 * @example
 * ```ts
 * const holdings = tallyHoldings({ materialStorage, bank, sharedInventory, characters });
 * holdings.counts.get(19721); // globs of ectoplasm, wherever they lie
 * ```
 */
export function tallyHoldings(sources: HoldingSources): Holdings {
  const counts = new Map<number, number>();
  const places = new Map<number, HoldingPlace[]>();
  const add = (id: number, count: number, place: Omit<HoldingPlace, "count">): void => {
    if (count <= 0) return;
    counts.set(id, (counts.get(id) ?? 0) + count);
    const list = places.get(id) ?? [];
    const same = list.find((entry) =>
      entry.source === place.source && entry.character === place.character
    );
    if (same === undefined) list.push({ ...place, count });
    else list[list.indexOf(same)] = { ...same, count: same.count + count };
    places.set(id, list);
  };
  for (const row of sources.materialStorage) add(row.id, row.count, { source: "material_storage" });
  for (const slot of sources.bank) if (slot !== null) add(slot.id, slot.count, { source: "bank" });
  for (const slot of sources.sharedInventory) {
    if (slot !== null) add(slot.id, slot.count, { source: "shared_inventory" });
  }
  for (const { name, bags } of sources.characters) {
    for (const bag of bags) {
      for (const slot of bag?.inventory ?? []) {
        if (slot !== null) add(slot.id, slot.count, { source: "character", character: name });
      }
    }
  }
  for (const { name, equipment } of sources.characters) {
    for (const worn of equipment ?? []) {
      if (LEGENDARY_ARMORY_LOCATIONS.has(worn.location ?? "")) continue;
      add(worn.id, 1, { source: "equipment", character: name });
    }
  }
  return { counts, places, characters: sources.characters.length };
}
