/**
 * Vocabulary for generated item names (stand-ins and filler). Names are built combinatorially
 * ("Berserker's Orichalcum Greatsword", "Superior Sigil of Embers") so name search meets many
 * near-duplicates, as it does against the real catalogue.
 *
 * @module
 */

/** Stat-combination prefixes, as on crafted gear. */
export const STAT_PREFIXES: readonly string[] = [
  "Berserker's",
  "Soldier's",
  "Rampager's",
  "Knight's",
  "Valkyrie",
  "Carrion",
  "Cleric's",
  "Rabid",
  "Assassin's",
  "Dire",
  "Magi's",
  "Sinister",
  "Viper's",
  "Marauder",
  "Celestial",
  "Zealot's",
  "Harrier's",
  "Minstrel's",
  "Trailblazer's",
  "Seraph",
  "Commander's",
  "Wanderer's",
  "Sentinel's",
  "Shaman's",
  "Apothecary's",
];

/** Weapon types with the crafting discipline that makes them. */
export const WEAPON_TYPES: readonly { readonly type: string; readonly discipline: string }[] = [
  { type: "Axe", discipline: "Weaponsmith" },
  { type: "Dagger", discipline: "Weaponsmith" },
  { type: "Mace", discipline: "Weaponsmith" },
  { type: "Sword", discipline: "Weaponsmith" },
  { type: "Greatsword", discipline: "Weaponsmith" },
  { type: "Hammer", discipline: "Weaponsmith" },
  { type: "Shield", discipline: "Armorsmith" },
  { type: "LongBow", discipline: "Huntsman" },
  { type: "ShortBow", discipline: "Huntsman" },
  { type: "Pistol", discipline: "Huntsman" },
  { type: "Rifle", discipline: "Huntsman" },
  { type: "Torch", discipline: "Huntsman" },
  { type: "Warhorn", discipline: "Huntsman" },
  { type: "Harpoon", discipline: "Huntsman" },
  { type: "Speargun", discipline: "Huntsman" },
  { type: "Staff", discipline: "Artificer" },
  { type: "Scepter", discipline: "Artificer" },
  { type: "Focus", discipline: "Artificer" },
  { type: "Trident", discipline: "Artificer" },
];

/** The display noun of a weapon type ("LongBow" → "Longbow"). */
export function weaponNoun(type: string): string {
  const nouns: Readonly<Record<string, string>> = {
    LongBow: "Longbow",
    ShortBow: "Short Bow",
  };
  return nouns[type] ?? type;
}

/** Metals by crafting tier (tier index 0–5). */
export const METALS: readonly string[] = [
  "Bronze",
  "Iron",
  "Steel",
  "Darksteel",
  "Mithril",
  "Orichalcum",
];

/** Woods by crafting tier (tier index 0–5). */
export const WOODS: readonly string[] = ["Green", "Soft", "Seasoned", "Hard", "Elder", "Ancient"];

/** Armor slot nouns by weight class, keyed by the API's armor `details.type`. */
export const ARMOR_NOUNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Heavy: {
    Helm: "Helm",
    Shoulders: "Pauldrons",
    Coat: "Breastplate",
    Gloves: "Gauntlets",
    Leggings: "Tassets",
    Boots: "Greaves",
  },
  Medium: {
    Helm: "Mask",
    Shoulders: "Shoulders",
    Coat: "Coat",
    Gloves: "Gloves",
    Leggings: "Leggings",
    Boots: "Boots",
  },
  Light: {
    Helm: "Masque",
    Shoulders: "Mantle",
    Coat: "Vestments",
    Gloves: "Gloves",
    Leggings: "Pants",
    Boots: "Shoes",
  },
};

/** Armor set words by weight class. */
export const ARMOR_SETS: Readonly<Record<string, readonly string[]>> = {
  Heavy: ["Plated", "Scale", "Splint", "Chain", "Banded", "Gladiator"],
  Medium: ["Leather", "Rogue", "Duelist", "Stalker", "Prowler", "Outlaw"],
  Light: ["Embroidered", "Silk", "Cabalist", "Acolyte", "Mystic", "Seer"],
};

/** The armor slot types. */
export const ARMOR_SLOTS: readonly string[] = [
  "Helm",
  "Shoulders",
  "Coat",
  "Gloves",
  "Leggings",
  "Boots",
];

/** Sigil and rune suffixes ("Superior Sigil of …"). */
export const UPGRADE_SUFFIXES: readonly string[] = [
  "Embers",
  "Frost",
  "Storms",
  "Ruin",
  "Haste",
  "Mending",
  "Vigor",
  "Tides",
  "the Grove",
  "the Wanderer",
  "the Pack",
  "the Lantern",
  "Brambles",
  "Echoes",
  "Thunderhead",
  "Quiet Waters",
  "the Dunes",
  "Ashes",
  "the Citadel",
  "Starlight",
];

/** Upgrade grades. */
export const UPGRADE_GRADES: readonly string[] = ["Minor", "Major", "Superior"];

/** Gem names for jewels and trinkets. */
export const GEMS: readonly string[] = [
  "Amber",
  "Garnet",
  "Topaz",
  "Peridot",
  "Sunstone",
  "Amethyst",
  "Carnelian",
  "Lapis",
  "Opal",
  "Spinel",
  "Beryl",
  "Coral",
  "Chrysocola",
  "Emerald",
  "Ruby",
  "Sapphire",
];

/** Trinket nouns with their `details.type`. */
export const TRINKETS: readonly { readonly noun: string; readonly type: string }[] = [
  { noun: "Ring", type: "Ring" },
  { noun: "Band", type: "Ring" },
  { noun: "Earring", type: "Accessory" },
  { noun: "Stud", type: "Accessory" },
  { noun: "Amulet", type: "Amulet" },
  { noun: "Pendant", type: "Amulet" },
];

/** Food: dish shapes and ingredients ("Bowl of Spiced Mushroom Stew"). */
export const DISHES: readonly string[] = [
  "Bowl of",
  "Plate of",
  "Slice of",
  "Cup of",
  "Loaf of",
  "Skewer of",
];

/** Food flavours. */
export const FLAVOURS: readonly string[] = [
  "Spiced",
  "Roasted",
  "Candied",
  "Smoked",
  "Sweet",
  "Savory",
  "Glazed",
  "Peppered",
];

/** Food bases. */
export const FOODS: readonly string[] = [
  "Mushroom Stew",
  "Berry Pie",
  "Potato Soup",
  "Fish Fillet",
  "Carrot Cake",
  "Onion Tart",
  "Bean Chili",
  "Apple Crumble",
  "Pumpkin Bread",
  "Herb Salad",
];

/** Crafting-material adjectives. */
export const MATERIAL_ADJECTIVES: readonly string[] = [
  "Glinting",
  "Brittle",
  "Dense",
  "Luminous",
  "Tarnished",
  "Murky",
  "Frosted",
  "Smoldering",
  "Verdant",
  "Hollow",
  "Resonant",
  "Ashen",
];

/** Crafting-material nouns. */
export const MATERIAL_NOUNS: readonly string[] = [
  "Resin",
  "Pebble",
  "Husk",
  "Sap",
  "Fiber",
  "Shell",
  "Splinter",
  "Tallow",
  "Quill",
  "Spore",
  "Silt",
  "Thread",
  "Cinder",
  "Petal",
];

/** Bag nouns (bags are named by slot count and noun). */
export const BAG_NOUNS: readonly string[] = [
  "Pack",
  "Satchel",
  "Box",
  "Bag",
  "Rucksack",
  "Chest",
];

/** Bag slot counts. */
export const BAG_SIZES: readonly number[] = [8, 10, 12, 15, 18, 20, 24, 28, 32];
