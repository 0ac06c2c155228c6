/**
 * Bulk filler: thousands of generated items in an id range no real item uses, so batching,
 * pagination and name search run at realistic sizes. Names are enumerated combinatorially
 * ("Berserker's Orichalcum Greatsword", "Superior Sigil of Embers"); every other value comes
 * from a generator seeded by the item's id.
 *
 * @module
 */

import { type ItemShape, makeItem } from "./item_factory.ts";
import { type Random, seeded } from "../../support/random.ts";
import type { ItemRecord } from "./types.ts";
import {
  ARMOR_NOUNS,
  ARMOR_SETS,
  ARMOR_SLOTS,
  BAG_NOUNS,
  BAG_SIZES,
  DISHES,
  FLAVOURS,
  FOODS,
  GEMS,
  MATERIAL_ADJECTIVES,
  MATERIAL_NOUNS,
  METALS,
  STAT_PREFIXES,
  TRINKETS,
  UPGRADE_GRADES,
  UPGRADE_SUFFIXES,
  WEAPON_TYPES,
  weaponNoun,
  WOODS,
} from "./words.ts";

/** A filler category: its share of every 20 filler ids and how its n-th member is made. */
interface FillerKind {
  readonly share: number;
  readonly make: (id: number, n: number, random: Random) => ItemRecord;
}

const WEIGHTS = ["Heavy", "Medium", "Light"];
const MATERIAL_FORMS = ["", "Pile of ", "Vial of ", "Lump of ", "Bundle of "];
const CONTAINER_NOUNS = ["Cache", "Strongbox", "Crate", "Coffer", "Sack"];

const KINDS: readonly FillerKind[] = [
  { share: 6, make: weapon },
  { share: 5, make: armor },
  { share: 2, make: upgrade },
  { share: 2, make: food },
  { share: 2, make: material },
  { share: 1, make: trinket },
  { share: 1, make: bag },
  { share: 1, make: container },
];

/** `count` filler items with ids `firstId`, `firstId + 1`, … */
export function fillerItems(firstId: number, count: number): ItemRecord[] {
  const slots = KINDS.flatMap((kind) => Array.from({ length: kind.share }, () => kind));
  const perCycle = slots.length;
  const seen = new Map<FillerKind, number>();
  const items: ItemRecord[] = [];
  for (let index = 0; index < count; index++) {
    const kind = slots[index % perCycle];
    if (kind === undefined) continue;
    const n = seen.get(kind) ?? 0;
    seen.set(kind, n + 1);
    const id = firstId + index;
    items.push(kind.make(id, n, seeded(id, "filler")));
  }
  return items;
}

/** Rarity, level and binding of a piece of gear of crafting tier `tier` (0–5). */
function gearGrade(tier: number, random: Random): {
  rarity: string;
  level: number;
  flags: string[];
} {
  if (tier < 5) {
    return {
      rarity: random.pick(["Basic", "Fine", "Masterwork"]),
      level: tier * 15 + random.int(0, 14),
      flags: random.chance(0.1) ? ["AccountBound", "NoSell"] : [],
    };
  }
  const rarity = random.pick(["Rare", "Exotic", "Exotic", "Ascended"]);
  if (rarity === "Ascended") {
    return { rarity, level: 80, flags: ["HideSuffix", "AccountBound", "AccountBindOnUse"] };
  }
  return {
    rarity,
    level: 80,
    flags: random.chance(0.15) ? ["AccountBound", "NoSell"] : ["SoulBindOnUse"],
  };
}

function cycle<T>(list: readonly T[], n: number, divisor = 1): T {
  const value = list[Math.floor(n / divisor) % list.length];
  if (value === undefined) throw new RangeError("Cannot cycle through a list: it is empty");
  return value;
}

function weapon(id: number, n: number, random: Random): ItemRecord {
  const stat = cycle(STAT_PREFIXES, n);
  const weaponType = cycle(WEAPON_TYPES, n, STAT_PREFIXES.length);
  const tier = 5 - (Math.floor(n / (STAT_PREFIXES.length * WEAPON_TYPES.length)) % 6);
  const material = ["Huntsman", "Artificer"].includes(weaponType.discipline)
    ? cycle(WOODS, tier)
    : cycle(METALS, tier);
  const shape: ItemShape = { kind: "weapon", weaponType: weaponType.type, stat };
  const name = `${stat} ${material} ${weaponNoun(weaponType.type)}`;
  return makeItem({ id, name, ...gearGrade(tier, random), shape });
}

function armor(id: number, n: number, random: Random): ItemRecord {
  const stat = cycle(STAT_PREFIXES, n);
  const weight = cycle(WEIGHTS, n, STAT_PREFIXES.length);
  const slot = cycle(ARMOR_SLOTS, n, STAT_PREFIXES.length * WEIGHTS.length);
  const set = cycle(ARMOR_SETS[weight] ?? [], n, STAT_PREFIXES.length * WEIGHTS.length * 6);
  const tier = 5 - (Math.floor(n / (STAT_PREFIXES.length * WEIGHTS.length * 36)) % 6);
  const name = `${stat} ${set} ${ARMOR_NOUNS[weight]?.[slot] ?? slot}`;
  const shape: ItemShape = { kind: "armor", slot, weight, stat };
  return makeItem({ id, name, ...gearGrade(tier, random), shape });
}

function upgrade(id: number, n: number, random: Random): ItemRecord {
  const grade = cycle(UPGRADE_GRADES, n);
  const suffix = `of ${cycle(UPGRADE_SUFFIXES, n, UPGRADE_GRADES.length)}`;
  const upgradeType = cycle(["Sigil", "Rune"], n, UPGRADE_GRADES.length * UPGRADE_SUFFIXES.length);
  const rarity = grade === "Superior" ? "Exotic" : grade === "Major" ? "Rare" : "Masterwork";
  return makeItem({
    id,
    name: `${grade} ${upgradeType} ${suffix}`,
    rarity,
    level: grade === "Superior" ? 60 : grade === "Major" ? 45 : 20,
    flags: random.chance(0.2) ? ["AccountBound", "NoSell", "SoulbindOnAcquire"] : [],
    shape: { kind: "upgrade", upgradeType, suffix },
  });
}

function food(id: number, n: number, random: Random): ItemRecord {
  const name = `${cycle(DISHES, n)} ${cycle(FLAVOURS, n, DISHES.length)} ${
    cycle(FOODS, n, DISHES.length * FLAVOURS.length)
  }`;
  return makeItem({
    id,
    name,
    rarity: random.pick(["Basic", "Fine", "Masterwork", "Rare"]),
    level: random.pick([0, 10, 25, 40, 55, 65, 80]),
    flags: random.chance(0.2) ? ["NoSell", "AccountBound"] : [],
    shape: { kind: "food", utility: random.chance(0.3) },
  });
}

function material(id: number, n: number, random: Random): ItemRecord {
  const name = `${cycle(MATERIAL_FORMS, n)}${
    cycle(MATERIAL_ADJECTIVES, n, MATERIAL_FORMS.length)
  } ${cycle(MATERIAL_NOUNS, n, MATERIAL_FORMS.length * MATERIAL_ADJECTIVES.length)}`;
  return makeItem({
    id,
    name,
    rarity: random.pick(["Junk", "Basic", "Basic", "Fine", "Masterwork", "Rare"]),
    level: 0,
    flags: random.chance(0.1) ? ["AccountBound", "NoSalvage"] : ["NoSalvage"],
    shape: { kind: "material", itemType: random.chance(0.7) ? "CraftingMaterial" : "Trophy" },
  });
}

function trinket(id: number, n: number, random: Random): ItemRecord {
  const stat = cycle(STAT_PREFIXES, n);
  const gem = cycle(GEMS, n, STAT_PREFIXES.length);
  const noun = cycle(TRINKETS, n, STAT_PREFIXES.length * GEMS.length);
  return makeItem({
    id,
    name: `${stat} ${gem} ${noun.noun}`,
    ...gearGrade(5 - (n % 3), random),
    shape: { kind: "trinket", trinketType: noun.type, stat },
  });
}

function bag(id: number, n: number, random: Random): ItemRecord {
  const size = cycle(BAG_SIZES, n);
  const metal = cycle(METALS, n, BAG_SIZES.length);
  const noun = cycle(BAG_NOUNS, n, BAG_SIZES.length * METALS.length);
  const rarity = size >= 28 ? "Ascended" : size >= 20 ? "Exotic" : size >= 15 ? "Rare" : "Fine";
  return makeItem({
    id,
    name: `${size} Slot ${metal} ${noun}`,
    rarity,
    level: 0,
    flags: rarity === "Ascended" || random.chance(0.3) ? ["AccountBound", "NoSalvage"] : [],
    shape: { kind: "bag", size },
  });
}

function container(id: number, n: number, random: Random): ItemRecord {
  const name = `${cycle(MATERIAL_ADJECTIVES, n)} ${
    cycle(CONTAINER_NOUNS, n, MATERIAL_ADJECTIVES.length)
  } of ${cycle(UPGRADE_SUFFIXES, n, MATERIAL_ADJECTIVES.length * CONTAINER_NOUNS.length)}`;
  return makeItem({
    id,
    name,
    rarity: random.pick(["Basic", "Fine", "Masterwork", "Rare", "Exotic"]),
    level: 0,
    flags: random.chance(0.5) ? ["AccountBound", "NoSell", "AccountBindOnUse"] : ["NoSalvage"],
    shape: { kind: "container" },
  });
}
