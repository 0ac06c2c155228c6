/**
 * A small crafting market in the fake world, for `priory_craft_profit`: synthetic items (ids
 * 970001 and up, named "Sample …") with fixed Trading Post prices, and recipes over them (and over
 * real items) chosen so that some crafts are profitable, some are not, some are thin — the output's
 * buy orders or an input's sell listings run out after a few crafts — and some are left out for a
 * reason the tool must see: an unavailable or unpriced ingredient, an untradeable output, a daily
 * cooldown, a recipe sheet the account has not learned, a rating no character has. Also the
 * recipes the fake accounts have learned (`/v2/account/recipes`).
 *
 * Prices are set, not generated, so the tests can check figures by hand: the figures below, in
 * units of {@linkcode CRAFT_MARKET_SCALE} copper (1 silver), so that these crafts rank among the
 * real recipes of the fake, whose generated prices make many exotics profitable by tens of gold.
 * The order books are generated from them as for every item (`listings.ts`).
 *
 * @module
 */

import { makeItem } from "./item_factory.ts";
import { recipeChatLink } from "./text.ts";
import type { ClassicRecipeRecord, ItemRecord, PriceRecord, RecipeRecord } from "./types.ts";

/** The market's items by role. */
export const CRAFT_MARKET = {
  // Materials. (Figures in silver: `CRAFT_MARKET_SCALE`.)
  ore: 970_001,
  resin: 970_002,
  /** Only 12 units listed for sale: an input's asks stop a run of crafts. */
  thinThread: 970_003,
  /** Account bound, no recipe: can be neither bought nor crafted. */
  relic: 970_004,
  /** On the Trading Post with buy orders only: no sell listing, no recipe. */
  dust: 970_005,
  /** Cheaper to craft (2 ore, 200) than to buy (260). */
  ingot: 970_010,
  // Outputs.
  /** One level: 3 ore + 2 resin = 400; bought at 600 → 510 net; profit 110. */
  dagger: 970_020,
  /** Two levels: 2 ingots (crafted, 200 each) + 1 resin = 450; 800 → 680; profit 230. */
  sword: 970_021,
  /** Makes 5: 1 ore + 1 resin = 150; 5 × floor(50 × 0.85) = 210; profit 60. */
  rations: 970_022,
  /** Needs the relic: left out. */
  charm: 970_024,
  /** Needs the dust: left out. */
  brooch: 970_025,
  /** 2 resin = 100; 400 → 340, but only 3 units wanted: the bids stop it. */
  banner: 970_026,
  /** 5 thin thread = 150; 500 → 425; 12 threads listed: the asks stop it after 2 crafts. */
  cloak: 970_027,
  /** A recipe sheet the main account has learned: 1 ore = 100; 400 → 340. */
  spear: 970_028,
  /** A recipe sheet nobody has learned: 1 ore = 100; 400 → 340. */
  trident: 970_029,
  /** Scribe 425; the main account's best Scribe is 400: 1 ore = 100; 500 → 425. */
  tome: 970_030,
  /** Account bound: never listed. */
  trinket: 970_031,
  /** 3 ore = 300; 300 → 255: a loss. */
  shield: 970_032,
  /** Needs a Lump of Mithrillium (a daily cooldown): left out unless asked for. */
  alloy: 970_033,
} as const;

/** Copper per unit of the prices below: one silver. */
export const CRAFT_MARKET_SCALE = 10_000;

/** Lump of Mithrillium: untradeable, crafted once a day. */
const LUMP_OF_MITHRILLIUM = 46_742;

/** The market's recipes by output (recipe id = output id). */
export const CRAFT_MARKET_RECIPE_IDS: readonly number[] = [
  CRAFT_MARKET.ingot,
  CRAFT_MARKET.dagger,
  CRAFT_MARKET.sword,
  CRAFT_MARKET.rations,
  CRAFT_MARKET.charm,
  CRAFT_MARKET.brooch,
  CRAFT_MARKET.banner,
  CRAFT_MARKET.cloak,
  CRAFT_MARKET.spear,
  CRAFT_MARKET.trident,
  CRAFT_MARKET.tome,
  CRAFT_MARKET.trinket,
  CRAFT_MARKET.shield,
  CRAFT_MARKET.alloy,
];

interface ItemRow {
  readonly id: number;
  readonly name: string;
  readonly kind: "material" | "weapon" | "food" | "trinket";
  readonly flags?: readonly string[];
  /** `[buy, buy units, sell, sell units]`; absent: not on the Trading Post. */
  readonly price?: readonly [number, number, number, number];
}

const ITEMS: readonly ItemRow[] = [
  { id: CRAFT_MARKET.ore, name: "Sample Ore", kind: "material", price: [90, 20_000, 100, 20_000] },
  {
    id: CRAFT_MARKET.resin,
    name: "Sample Resin",
    kind: "material",
    price: [40, 20_000, 50, 20_000],
  },
  {
    id: CRAFT_MARKET.thinThread,
    name: "Sample Thread",
    kind: "material",
    price: [25, 500, 30, 12],
  },
  { id: CRAFT_MARKET.relic, name: "Sample Relic", kind: "material", flags: ["AccountBound"] },
  { id: CRAFT_MARKET.dust, name: "Sample Dust", kind: "material", price: [5, 100, 0, 0] },
  {
    id: CRAFT_MARKET.ingot,
    name: "Sample Ingot",
    kind: "material",
    price: [230, 5_000, 260, 5_000],
  },
  { id: CRAFT_MARKET.dagger, name: "Sample Dagger", kind: "weapon", price: [600, 2_000, 700, 300] },
  { id: CRAFT_MARKET.sword, name: "Sample Sword", kind: "weapon", price: [800, 1_500, 950, 200] },
  { id: CRAFT_MARKET.rations, name: "Sample Rations", kind: "food", price: [50, 4_000, 60, 900] },
  { id: CRAFT_MARKET.charm, name: "Sample Charm", kind: "trinket", price: [9_000, 900, 9_500, 40] },
  {
    id: CRAFT_MARKET.brooch,
    name: "Sample Brooch",
    kind: "trinket",
    price: [9_000, 900, 9_500, 40],
  },
  { id: CRAFT_MARKET.banner, name: "Sample Banner", kind: "material", price: [400, 3, 480, 60] },
  { id: CRAFT_MARKET.cloak, name: "Sample Cloak", kind: "material", price: [500, 1_000, 560, 50] },
  { id: CRAFT_MARKET.spear, name: "Sample Spear", kind: "weapon", price: [400, 800, 450, 80] },
  { id: CRAFT_MARKET.trident, name: "Sample Trident", kind: "weapon", price: [400, 800, 450, 80] },
  { id: CRAFT_MARKET.tome, name: "Sample Tome", kind: "material", price: [500, 800, 550, 80] },
  {
    id: CRAFT_MARKET.trinket,
    name: "Sample Trinket",
    kind: "trinket",
    flags: ["AccountBound", "NoSell"],
  },
  { id: CRAFT_MARKET.shield, name: "Sample Shield", kind: "weapon", price: [300, 2_000, 340, 200] },
  { id: CRAFT_MARKET.alloy, name: "Sample Alloy", kind: "material", price: [300, 200, 320, 20] },
];

interface RecipeRow {
  readonly output: number;
  readonly count?: number;
  readonly discipline: string;
  readonly rating: number;
  readonly flag: "AutoLearned" | "LearnedFromItem";
  readonly items: readonly (readonly [number, number])[];
}

const RECIPES: readonly RecipeRow[] = [
  r(CRAFT_MARKET.ingot, "Weaponsmith", 0, [[CRAFT_MARKET.ore, 2]]),
  r(CRAFT_MARKET.dagger, "Weaponsmith", 100, [[CRAFT_MARKET.ore, 3], [CRAFT_MARKET.resin, 2]]),
  r(CRAFT_MARKET.sword, "Weaponsmith", 150, [[CRAFT_MARKET.ingot, 2], [CRAFT_MARKET.resin, 1]]),
  {
    ...r(CRAFT_MARKET.rations, "Chef", 0, [[CRAFT_MARKET.ore, 1], [CRAFT_MARKET.resin, 1]]),
    count: 5,
  },
  r(CRAFT_MARKET.charm, "Jeweler", 50, [[CRAFT_MARKET.relic, 1], [CRAFT_MARKET.ore, 1]]),
  r(CRAFT_MARKET.brooch, "Jeweler", 50, [[CRAFT_MARKET.dust, 1], [CRAFT_MARKET.ore, 1]]),
  r(CRAFT_MARKET.banner, "Tailor", 0, [[CRAFT_MARKET.resin, 2]]),
  r(CRAFT_MARKET.cloak, "Tailor", 0, [[CRAFT_MARKET.thinThread, 5]]),
  {
    ...r(CRAFT_MARKET.spear, "Weaponsmith", 400, [[CRAFT_MARKET.ore, 1]]),
    flag: "LearnedFromItem",
  },
  {
    ...r(CRAFT_MARKET.trident, "Weaponsmith", 400, [[CRAFT_MARKET.ore, 1]]),
    flag: "LearnedFromItem",
  },
  r(CRAFT_MARKET.tome, "Scribe", 425, [[CRAFT_MARKET.ore, 1]]),
  r(CRAFT_MARKET.trinket, "Jeweler", 0, [[CRAFT_MARKET.ore, 1]]),
  r(CRAFT_MARKET.shield, "Weaponsmith", 0, [[CRAFT_MARKET.ore, 3]]),
  r(CRAFT_MARKET.alloy, "Weaponsmith", 450, [[LUMP_OF_MITHRILLIUM, 1], [CRAFT_MARKET.ore, 1]]),
];

function r(
  output: number,
  discipline: string,
  rating: number,
  items: readonly (readonly [number, number])[],
): RecipeRow {
  return { output, discipline, rating, flag: "AutoLearned", items };
}

/** The market's items, in id order. */
export function craftMarketItems(): ItemRecord[] {
  return ITEMS.map((row) => {
    const shape = row.kind === "weapon"
      ? { kind: "weapon" as const, weaponType: "Dagger", stat: "Berserker" }
      : row.kind === "trinket"
      ? { kind: "trinket" as const, trinketType: "Amulet", stat: "Berserker" }
      : row.kind === "food"
      ? { kind: "food" as const, utility: false }
      : { kind: "material" as const, itemType: "CraftingMaterial" as const };
    return makeItem({
      id: row.id,
      name: row.name,
      rarity: row.kind === "material" ? "Basic" : "Masterwork",
      level: row.kind === "material" ? 0 : 40,
      flags: row.flags ?? [],
      shape,
    });
  }).sort((a, b) => a.id - b.id);
}

/** The market's prices (its tradeable items only), in id order. */
export function craftMarketPrices(): PriceRecord[] {
  return ITEMS.flatMap((row) =>
    row.price === undefined ? [] : [{
      id: row.id,
      whitelisted: false,
      buys: { quantity: row.price[1], unit_price: row.price[0] * CRAFT_MARKET_SCALE },
      sells: { quantity: row.price[3], unit_price: row.price[2] * CRAFT_MARKET_SCALE },
    }]
  ).sort((a, b) => a.id - b.id);
}

/** The market's recipes in the 2022-03-09 and the classic schema, in id order. */
export function craftMarketRecipes(): { current: RecipeRecord[]; classic: ClassicRecipeRecord[] } {
  const rows = [...RECIPES].sort((a, b) => a.output - b.output);
  const head = (row: RecipeRow) => ({
    id: row.output,
    type: "Component",
    output_item_id: row.output,
    output_item_count: row.count ?? 1,
    time_to_craft_ms: 1_000,
    disciplines: [row.discipline],
    min_rating: row.rating,
    flags: [row.flag],
  });
  return {
    current: rows.map((row) => ({
      ...head(row),
      ingredients: row.items.map(([id, count]) => ({ type: "Item" as const, id, count })),
      chat_link: recipeChatLink(row.output),
    })),
    classic: rows.map((row) => ({
      ...head(row),
      ingredients: row.items.map(([id, count]) => ({ item_id: id, count })),
      guild_ingredients: [],
      chat_link: recipeChatLink(row.output),
    })),
  };
}

/**
 * The recipes an account has learned (`/v2/account/recipes`): for the main account, the Sample
 * Spear's sheet (not the Trident's) and every third recipe of the world learned from an item; the
 * veteran account every recipe learned from an item.
 */
export function learnedRecipeIds(
  recipes: ReadonlyMap<number, RecipeRecord>,
  account: "main" | "veteran",
): number[] {
  const sheets = [...recipes.values()].filter((recipe) => recipe.flags.includes("LearnedFromItem"));
  if (account === "veteran") return sheets.map((recipe) => recipe.id);
  return sheets.filter((recipe, index) =>
    recipe.id === CRAFT_MARKET.spear || (recipe.id < 970_000 && index % 3 === 0)
  ).map((recipe) => recipe.id);
}
