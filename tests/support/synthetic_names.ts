/**
 * A synthetic item catalogue for measuring name search at full scale (the real one holds
 * ~75,000 items): names of two to five words drawn with a skew from a vocabulary of ~20,000
 * invented words plus the catalogue's common ones ("of", "Superior", "Recipe"), so postings and
 * vocabulary scans are as large as the real index's. The real anchors (Glob of Ectoplasm
 * 19721, Sunrise 30703 and their neighbours) are always included, so the acceptance queries can
 * be timed on it. Deterministic for a given count and seed.
 *
 * Used by the name-index tests and, through {@linkcode syntheticNameTable} and
 * {@linkcode seedSyntheticNames}, by the benchmark.
 *
 * @module
 */

import { type Lang, LANGUAGES } from "../../src/gw2/types.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import { NameTable } from "../../src/search/name_table.ts";
import type { NameEntry } from "../../src/search/name_table.ts";
import { silentLogger } from "../../src/log.ts";
import { systemClock } from "../../src/async/clock.ts";
import { seeded } from "./random.ts";

/** The real items every synthetic catalogue contains. */
export const ANCHOR_NAMES: readonly NameEntry[] = [
  { id: 19721, name: "Glob of Ectoplasm", rarity: "Exotic", type: "CraftingMaterial" },
  { id: 30703, name: "Sunrise", rarity: "Legendary", type: "Weapon" },
  { id: 30704, name: "Twilight", rarity: "Legendary", type: "Weapon" },
  { id: 19647, name: "Gift of Sunrise", rarity: "Legendary", type: "Trophy" },
  { id: 29169, name: "Dawn", rarity: "Exotic", type: "Weapon" },
  { id: 19675, name: "Mystic Clover", rarity: "Rare", type: "CraftingMaterial" },
  { id: 19976, name: "Mystic Coin", rarity: "Rare", type: "CraftingMaterial" },
];

/** Words that recur across the real catalogue. */
const COMMON = [
  "of",
  "the",
  "Superior",
  "Major",
  "Minor",
  "Recipe",
  "Sigil",
  "Rune",
  "Mini",
  "Berserker's",
  "Exquisite",
  "Pile",
  "Vial",
  "Glob",
];
const SYLLABLES = [
  "ka",
  "ri",
  "mo",
  "tel",
  "var",
  "un",
  "sha",
  "dor",
  "lin",
  "gra",
  "eth",
  "bel",
  "zu",
  "nor",
  "pha",
  "quin",
  "os",
  "tra",
  "vel",
  "yr",
];
const RARITIES = ["Junk", "Basic", "Fine", "Masterwork", "Rare", "Exotic", "Ascended"];
const TYPES = ["Weapon", "Armor", "Trinket", "UpgradeComponent", "Consumable", "Trophy"];

/**
 * `count` entries (at least the anchors), ids ascending from 1 except the anchors' real ids.
 *
 * @example
 * ```ts
 * const entries = syntheticNameEntries(75_000);
 * ```
 */
export function syntheticNameEntries(count: number, seed = 1): NameEntry[] {
  const random = seeded(seed, "synthetic names");
  const vocabulary = new Set<string>();
  while (vocabulary.size < 20_000) {
    const length = random.int(2, 4);
    let word = "";
    for (let index = 0; index < length; index++) word += random.pick(SYLLABLES);
    vocabulary.add(word[0]?.toUpperCase() + word.slice(1));
  }
  const words = [...vocabulary];
  // Skewed toward the start of the vocabulary, as real names reuse a few words a lot.
  const word = () => words[Math.floor(words.length * random.next() ** 2)] ?? "Ka";
  const anchorIds = new Set(ANCHOR_NAMES.map((entry) => entry.id));
  const entries: NameEntry[] = [...ANCHOR_NAMES];
  for (let id = 1; entries.length < count; id++) {
    if (anchorIds.has(id)) continue;
    const parts = [word()];
    const extra = random.int(1, 4);
    for (let index = 0; index < extra; index++) {
      parts.push(random.chance(0.3) ? random.pick(COMMON) : word());
    }
    entries.push({
      id,
      name: parts.join(" "),
      rarity: random.pick(RARITIES),
      type: random.pick(TYPES),
    });
  }
  return entries.sort((a, b) => a.id - b.id);
}

/** Syllables and common words of each other language's synthetic names. */
const FLAVOURS: Readonly<
  Record<Exclude<Lang, "en" | "zh">, {
    readonly syllables: readonly string[];
    readonly common: readonly string[];
  }>
> = {
  de: {
    syllables: [
      "ka",
      "rü",
      "mo",
      "tel",
      "var",
      "un",
      "schä",
      "dor",
      "lin",
      "grö",
      "ß",
      "ber",
      "zu",
    ],
    common: ["von", "der", "des", "Überlegenes", "Siegel", "Rune", "Rezept", "Haufen", "Phiole"],
  },
  fr: {
    syllables: ["ka", "ré", "mo", "tel", "vè", "un", "cha", "dor", "lin", "grâ", "œu", "bel", "zu"],
    common: ["de", "du", "d'", "supérieur", "Cachet", "Rune", "Recette\u00a0:", "Tas", "Fiole"],
  },
  es: {
    syllables: ["ka", "rí", "mo", "tel", "var", "ún", "cha", "dor", "liñ", "gra", "ó", "bel", "zu"],
    common: ["de", "del", "superior", "Sello", "Runa", "Receta:", "Montón", "Vial", "Pegote"],
  },
};

/** The anchors' real names in each language (Glob of Ectoplasm, Sunrise, Twilight, …). */
const ANCHOR_LOCALIZED: Readonly<Record<Exclude<Lang, "en">, readonly string[]>> = {
  de: [
    "Ektoplasmabatzen",
    "Sonnenaufgang",
    "Düsternis",
    "Geschenk des Sonnenaufgangs",
    "Morgenrot",
    "Mystischer Glücksklee",
    "Mystische Münze",
  ],
  fr: [
    "Boule d'ectoplasme",
    "Aurore",
    "Crépuscule",
    "Don d'Aurore",
    "Aube",
    "Trèfle mystique",
    "Pièce mystique",
  ],
  es: [
    "Pegote de ectoplasma",
    "Amanecer",
    "Crepúsculo",
    "Don del Amanecer",
    "Alba",
    "Trébol místico",
    "Moneda mística",
  ],
  zh: ["球形灵质", "辰光", "暗暮", "辰光赠礼", "破晓", "神秘四叶草", "神秘硬币"],
};

/**
 * The synthetic catalogue in `lang`: the same ids, rarities and types as
 * {@linkcode syntheticNameEntries}, the anchors under their real names, every other name drawn
 * in the language's manner — German compounds with `ß` and umlauts, French accents, elisions
 * and no-break spaces, Spanish accents, Chinese names of two to eight Han characters without
 * spaces (some with a full-width colon, a few left in English as the API leaves some).
 */
export function syntheticLocalizedEntries(count: number, lang: Lang, seed = 1): NameEntry[] {
  const english = syntheticNameEntries(count, seed);
  if (lang === "en") return english;
  const random = seeded(seed, "synthetic names", lang);
  const anchors = new Map(
    ANCHOR_NAMES.map((entry, index) => [entry.id, ANCHOR_LOCALIZED[lang][index] ?? entry.name]),
  );
  const name = (fallback: string): string => {
    if (lang === "zh") {
      if (random.chance(0.005)) return fallback;
      let text = random.chance(0.05) ? "配方：" : "";
      for (let index = random.int(2, 8); index > 0; index--) {
        // A skewed pick among 3,000 common ideographs, as real names reuse a few.
        text += String.fromCharCode(0x4e00 + Math.floor(3_000 * random.next() ** 2));
      }
      return text;
    }
    const flavour = FLAVOURS[lang];
    const word = () => {
      let text = "";
      for (let index = random.int(2, 4); index > 0; index--) text += random.pick(flavour.syllables);
      return text[0]?.toUpperCase() + text.slice(1);
    };
    const parts = [lang === "de" && random.chance(0.4) ? word() + word().toLowerCase() : word()];
    for (let index = random.int(1, 4); index > 0; index--) {
      parts.push(random.chance(0.3) ? random.pick(flavour.common) : word().toLowerCase());
    }
    return parts.join(" ").replace("' ", "'");
  };
  return english.map((entry) => ({ ...entry, name: anchors.get(entry.id) ?? name(entry.name) }));
}

/** An in-memory table of `count` synthetic names (the search alone, no KV). */
export function syntheticNameTable(count: number, seed = 1): NameTable {
  const table = new NameTable();
  table.upsert(syntheticNameEntries(count, seed));
  return table;
}

/**
 * Writes `count` synthetic names a language, in each of `languages` (English alone by default),
 * into the name index on `kv` (under `namespace`), as the catalogue crawl would, so a benchmark
 * can time loading and searching a full index.
 */
export async function seedSyntheticNames(
  kv: Deno.Kv,
  namespace: string,
  count: number,
  seed = 1,
  languages: readonly Lang[] = ["en"],
): Promise<void> {
  const index = new NameIndex({ kv, namespace, log: silentLogger, clock: systemClock });
  for (const lang of languages) {
    await index.putMany(syntheticLocalizedEntries(count, lang, seed), lang);
  }
}

/** A table of `count` synthetic names in each of the five languages (the search alone). */
export function syntheticFiveLanguageTable(count: number, seed = 1): NameTable {
  const table = new NameTable();
  for (const lang of LANGUAGES) table.upsert(syntheticLocalizedEntries(count, lang, seed), lang);
  return table;
}
