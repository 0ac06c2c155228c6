/**
 * Recipes the GW2 API does not serve, owned by this project: the Mystic Forge recipes of the
 * generation-1 legendary weapons (the 21 weapons, their 20 named gifts, Gift of Mastery, Gift of
 * Fortune, Gift of Might, Gift of Magic and Mystic Clover) and the NPC vendor purchases that end
 * their trees (Icy Runestone, Obsidian Shard, Philosopher's Stone, Bloodstone Shard, Eldritch
 * Scroll, Mystic Crystal and the eight dungeon gifts), with their currency costs.
 *
 * Sources (facts carried over, checked ingredient by ingredient; details and the choice among
 * several vendor offers in `docs/curated-data.md`):
 * - Mystic Forge recipes: `gw2efficiency/gw2-mystic-forge-recipes`, `recipes.json`, commit
 *   `e126d91cbaef908d6897ebab87a669dbe49af4bd` (2025-01-01), the records with
 *   `disciplines: ["Mystic Forge"]`; cross-checked against `krjackso/gw2-data-repo` commit
 *   `ed5e37766f79e64592f0349c702bc8e6e9ddb0e9` (2026-03) and the gifts' in-game descriptions.
 * - Vendor purchases: the same gw2efficiency file, records with `disciplines: ["Merchant"]`.
 * - Currency names: `/v2/currencies` (snapshot `tr7zw/Gw2APITracker` commit
 *   `a58c92a215ac087e6f045456d144cc7486eb6bf0`, 2023-10-17).
 *
 * Recorded 2026-11-30. Mystic Clover's output count is 0.31, gw2efficiency's expected yield per
 * forge attempt, not an integer: 77 clovers take ⌈77 / 0.31⌉ = 249 attempts.
 *
 * @module
 */

/** The currency id of coin (copper); coin costs are priced, other currencies are reported. */
export const COIN_ID = 1;

/** Where a curated recipe is performed. */
export type CuratedSource = "mystic_forge" | "vendor";

/** One ingredient: an item, or a currency a vendor takes. */
export interface CuratedIngredient {
  readonly type: "Item" | "Currency";
  readonly id: number;
  readonly count: number;
}

/** A recipe the API lacks: a Mystic Forge combination or a vendor purchase. */
export interface CuratedRecipe {
  readonly outputId: number;
  /** The output's name as the source records it (the tree takes names from the API). */
  readonly name: string;
  /** Items produced per run; Mystic Clover's 0.31 is an expected yield. */
  readonly outputCount: number;
  readonly source: CuratedSource;
  /** In the source's order, which is the order the tree lists them. */
  readonly ingredients: readonly CuratedIngredient[];
  /** The vendor selling it (vendor purchases only). */
  readonly merchant?: string;
}

const GIFT_OF_MASTERY = 19674;
const GIFT_OF_FORTUNE = 19626;
const ICY_RUNESTONE = 19676;

/** Generation-1 legendaries: [id, name, precursor, named gift] + Gift of Mastery + Gift of Fortune. */
const LEGENDARY_ROWS: readonly (readonly [number, string, number, number])[] = [
  [30698, "The Bifrost", 29180, 19654],
  [30699, "Bolt", 29181, 19655],
  [30686, "The Dreamer", 29178, 19660],
  [30696, "The Flameseeker Prophecies", 29177, 19653],
  [30697, "Frenzy", 29179, 19659],
  [30684, "Frostfang", 29166, 19625],
  [30702, "Howler", 29184, 19662],
  [30687, "Incinerator", 29167, 19645],
  [30690, "The Juggernaut", 29170, 19649],
  [30685, "Kudzu", 29172, 19644],
  [30701, "Kraitkin", 29183, 19658],
  [30691, "Kamohoali'i Kotaki", 29171, 19657],
  [30695, "Meteorlogicus", 29176, 19652],
  [30688, "The Minstrel", 29168, 19646],
  [30692, "The Moot", 29173, 19650],
  [30694, "The Predator", 29175, 19661],
  [30693, "Quip", 29174, 19651],
  [30700, "Rodgort", 29182, 19656],
  [30703, "Sunrise", 29169, 19647],
  [30704, "Twilight", 29185, 19648],
];

/**
 * The named gifts: [id, name, component gift, second gift/statue/vial, Superior Sigil], with
 * 100 Icy Runestones between the second gift and the sigil.
 */
const NAMED_GIFT_ROWS: readonly (readonly [number, string, number, number, number])[] = [
  [19654, "Gift of The Bifrost", 19623, 19638, 24572],
  [19655, "Gift of Bolt", 19621, 19639, 24554],
  [19660, "Gift of The Dreamer", 19622, 19628, 24571],
  [19653, "Gift of The Flameseeker Prophecies", 19621, 19629, 24601],
  [19659, "Gift of Frenzy", 19622, 19643, 24561],
  [19625, "Gift of Frostfang", 19621, 19624, 24555],
  [19662, "Gift of Howler", 19622, 19640, 24618],
  [19645, "Gift of Incinerator", 19621, 19634, 24548],
  [19649, "Gift of The Juggernaut", 19621, 19633, 24584],
  [19644, "Gift of Kudzu", 19622, 19627, 24865],
  [19658, "Gift of Kraitkin", 19623, 19642, 24632],
  [19657, "Gift of Kamohoali'i Kotaki", 19621, 19641, 24612],
  [19652, "Gift of Meteorlogicus", 19623, 19637, 24554],
  [19646, "Gift of The Minstrel", 19623, 19630, 24607],
  [19650, "Gift of The Moot", 19621, 19635, 24607],
  [19661, "Gift of The Predator", 19622, 19636, 24615],
  [19651, "Gift of Quip", 19622, 19635, 24592],
  [19656, "Gift of Rodgort", 19622, 19634, 24548],
  [19647, "Gift of Sunrise", 19621, 19632, 24562],
  [19648, "Gift of Twilight", 19621, 19631, 24570],
];

function items(pairs: readonly (readonly [number, number])[]): CuratedIngredient[] {
  return pairs.map(([id, count]) => ({ type: "Item", id, count }));
}

function forge(
  outputId: number,
  name: string,
  ingredients: readonly (readonly [number, number])[],
  outputCount = 1,
): CuratedRecipe {
  return { outputId, name, outputCount, source: "mystic_forge", ingredients: items(ingredients) };
}

function vendor(
  outputId: number,
  name: string,
  outputCount: number,
  currencies: readonly (readonly [number, number])[],
  merchant: string,
): CuratedRecipe {
  return {
    outputId,
    name,
    outputCount,
    source: "vendor",
    ingredients: currencies.map(([id, count]) => ({ type: "Currency", id, count })),
    merchant,
  };
}

const FORGE_LIST: readonly CuratedRecipe[] = [
  ...LEGENDARY_ROWS.map(([id, name, precursor, gift]) =>
    forge(id, name, [[precursor, 1], [gift, 1], [GIFT_OF_MASTERY, 1], [GIFT_OF_FORTUNE, 1]])
  ),
  // Eternity: Sunrise + Twilight + 5 Pile of Crystalline Dust + 10 Philosopher's Stone.
  forge(30689, "Eternity", [[30703, 1], [30704, 1], [24277, 5], [20796, 10]]),
  ...NAMED_GIFT_ROWS.map(([id, name, component, second, sigil]) =>
    forge(id, name, [[component, 1], [second, 1], [ICY_RUNESTONE, 100], [sigil, 1]])
  ),
  // Gift of Battle + Gift of Exploration + 250 Obsidian Shard + Bloodstone Shard.
  forge(GIFT_OF_MASTERY, "Gift of Mastery", [[19678, 1], [19677, 1], [19925, 250], [20797, 1]]),
  // Gift of Magic + Gift of Might + 77 Mystic Clover + 250 Glob of Ectoplasm.
  forge(GIFT_OF_FORTUNE, "Gift of Fortune", [[19673, 1], [19672, 1], [19675, 77], [19721, 250]]),
  // 250 each of Vicious Fang, Armored Scale, Vicious Claw, Ancient Bone.
  forge(19672, "Gift of Might", [[24357, 250], [24289, 250], [24351, 250], [24358, 250]]),
  // 250 each of Vial of Powerful Blood, Powerful Venom Sac, Elaborate Totem, Crystalline Dust.
  forge(19673, "Gift of Magic", [[24295, 250], [24283, 250], [24300, 250], [24277, 250]]),
  // Obsidian Shard + Mystic Coin + Glob of Ectoplasm + 6 Philosopher's Stone, 0.31 per attempt.
  forge(19675, "Mystic Clover", [[19925, 1], [19976, 1], [19721, 1], [20796, 6]], 0.31),
];

const KARMA = 2;
const SPIRIT_SHARD = 23;
const TALES_OF_DUNGEON_DELVING = 69;
const MIYANI = "Miyani / Mystic Forge Attendant";
const DUNGEON_VENDOR = "Dungeon Armor and Weapons";

/** One offer per item; why this offer among several is in `docs/curated-data.md`. */
const VENDOR_LIST: readonly CuratedRecipe[] = [
  vendor(ICY_RUNESTONE, "Icy Runestone", 1, [[COIN_ID, 10_000]], "Rojan the Penitent"),
  vendor(19925, "Obsidian Shard", 1, [[KARMA, 2_100]], "Tactician Deathstrider"),
  vendor(20796, "Philosopher's Stone", 10, [[SPIRIT_SHARD, 1]], MIYANI),
  vendor(20797, "Bloodstone Shard", 1, [[SPIRIT_SHARD, 200]], MIYANI),
  vendor(20852, "Eldritch Scroll", 1, [[SPIRIT_SHARD, 50]], MIYANI),
  vendor(20799, "Mystic Crystal", 5, [[SPIRIT_SHARD, 3]], MIYANI),
  ...([
    [19664, "Gift of Ascalon"],
    [19665, "Gift of the Nobleman"],
    [19666, "Gift of the Forgeman"],
    [19667, "Gift of Thorns"],
    [19668, "Gift of Baelfire"],
    [19669, "Gift of Zhaitan"],
    [19670, "Gift of the Sanctuary"],
    [19671, "Gift of Knowledge"],
  ] as const).map(([id, name]) =>
    vendor(id, name, 1, [[TALES_OF_DUNGEON_DELVING, 500]], DUNGEON_VENDOR)
  ),
];

function byOutput(recipes: readonly CuratedRecipe[]): ReadonlyMap<number, CuratedRecipe> {
  return new Map(recipes.map((recipe) => [recipe.outputId, recipe]));
}

/** The Mystic Forge recipes by output item id. */
export const MYSTIC_FORGE_RECIPES: ReadonlyMap<number, CuratedRecipe> = byOutput(FORGE_LIST);

/** The vendor purchases by the item id they buy. */
export const VENDOR_PURCHASES: ReadonlyMap<number, CuratedRecipe> = byOutput(VENDOR_LIST);

/** Every curated recipe by output item id (no item is both forged and bought). */
export const CURATED_RECIPES: ReadonlyMap<number, CuratedRecipe> = byOutput([
  ...FORGE_LIST,
  ...VENDOR_LIST,
]);

/** Names of the currencies the vendor purchases take, by currency id. */
export const CURRENCY_NAMES: ReadonlyMap<number, string> = new Map([
  [COIN_ID, "Coin"],
  [KARMA, "Karma"],
  [SPIRIT_SHARD, "Spirit Shard"],
  [TALES_OF_DUNGEON_DELVING, "Tales of Dungeon Delving"],
]);

/**
 * Every item id the curated recipes mention (outputs and item ingredients), ascending: the
 * items a legendary tree is certain to read, for warming the cache.
 *
 * @example
 * ```ts
 * curatedTreeItemIds().includes(19675); // true: Mystic Clover
 * ```
 */
export function curatedTreeItemIds(): number[] {
  const ids = new Set<number>();
  for (const recipe of CURATED_RECIPES.values()) {
    ids.add(recipe.outputId);
    for (const ingredient of recipe.ingredients) {
      if (ingredient.type === "Item") ids.add(ingredient.id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}
