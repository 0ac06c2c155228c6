/**
 * The fake world: every record the fake serves, built once per module load (lazily) and shared
 * read-only between fake instances. Building is deterministic: two builds serialise to the
 * same bytes.
 *
 * @module
 */

import { buildAccount, type FakeAccount, MAIN_ACCOUNT, VETERAN_ACCOUNT } from "./account.ts";
import { buildAchievements, type FakeAchievements } from "./achievements.ts";
import {
  curatedCurrencies,
  curatedItems,
  curatedMaterialCategories,
  curatedRecipes,
} from "./curated.ts";
import { type ArmoryLimitRecord, armoryLimits } from "./armory.ts";
import { craftMarketItems, craftMarketPrices, craftMarketRecipes } from "./crafting_market.ts";
import { fillerItems } from "./filler.ts";
import { FakeBooks } from "./listings.ts";
import { generatePrices } from "./prices.ts";
import { standInItems } from "./stand_ins.ts";
import { type FakeTradingPost, plantedTradingPost, veteranTradingPost } from "./trading_post.ts";
import type {
  ClassicRecipeRecord,
  CurrencyRecord,
  ItemRecord,
  MaterialCategoryRecord,
  PriceRecord,
  RecipeRecord,
} from "./types.ts";
import { FILLER_COUNT, FILLER_FIRST_ID, WELL_KNOWN } from "./well_known.ts";

/**
 * Everything the fake serves. Maps iterate in upstream order (ascending id, account order);
 * the account part (account, accountMaterials, wallet, bank, sharedInventory, characters) is
 * the main account's, from {@linkcode FakeAccount}; `veteran` is the 19-character account.
 */
export interface FakeWorld extends FakeAccount {
  /** The 19-character account the `veteran` test key reads. */
  readonly veteran: FakeAccount;
  /** `/v2/items`: curated, stand-in and filler items. */
  readonly items: ReadonlyMap<number, ItemRecord>;
  /** `/v2/recipes` in the 2022-03-09 schema. */
  readonly recipes: ReadonlyMap<number, RecipeRecord>;
  /** `/v2/recipes` in the classic schema (no `v`). */
  readonly classicRecipes: ReadonlyMap<number, ClassicRecipeRecord>;
  /** Recipe ids by the item id they consume (`/v2/recipes/search?input=`). */
  readonly recipesByInput: ReadonlyMap<number, readonly number[]>;
  /** Recipe ids by the item id they make (`/v2/recipes/search?output=`). */
  readonly recipesByOutput: ReadonlyMap<number, readonly number[]>;
  /** `/v2/commerce/prices`: tradeable items only. */
  readonly prices: ReadonlyMap<number, PriceRecord>;
  /** `/v2/commerce/listings`: the order book of every priced item, built on first ask. */
  readonly listings: FakeBooks;
  /** `/v2/materials`. */
  readonly materials: ReadonlyMap<number, MaterialCategoryRecord>;
  /** `/v2/currencies`. */
  readonly currencies: ReadonlyMap<number, CurrencyRecord>;
  /** `/v2/legendaryarmory`: how many of each legendary the armory holds. */
  readonly armoryLimits: ReadonlyMap<number, ArmoryLimitRecord>;
  /** Named ids of well-known items. */
  readonly wellKnown: typeof WELL_KNOWN;
  /** Ids whose facts come from the curated data (real GW2 items). */
  readonly curatedItemIds: readonly number[];
  /** Real ids the curated recipes and material categories reference, with generated records. */
  readonly standInItemIds: readonly number[];
  /** Generated filler ids (900001 and up). */
  readonly fillerItemIds: readonly number[];
  /** The crafting market's synthetic ids (970001 and up, `crafting_market.ts`). */
  readonly craftMarketItemIds: readonly number[];
  /** Achievements, skins, minis and each account's progress (`achievements.ts`). */
  readonly achievements: FakeAchievements;
  /** Stand-ins for the items achievements name that nothing else describes. */
  readonly achievementItemIds: readonly number[];
  /** Each account's Trading Post (`trading_post.ts`): the main account's planted, the veteran's small. */
  readonly tradingPost: Readonly<Record<"main" | "veteran", FakeTradingPost>>;
}

let shared: FakeWorld | undefined;

/** The shared world, built on first use. */
export function getWorld(): FakeWorld {
  shared ??= buildWorld();
  return shared;
}

/**
 * Builds a fresh world (tests use it to prove determinism; everyone else uses getWorld). Its
 * records and arrays are frozen, so a test that sorts or edits them in place fails loudly
 * instead of corrupting the world other tests share.
 */
export function buildWorld(): FakeWorld {
  const curated = curatedItems();
  const curatedRecipeRows = curatedRecipes();
  const craftRecipes = craftMarketRecipes();
  const current = [...curatedRecipeRows.current, ...craftRecipes.current];
  const classic = [...curatedRecipeRows.classic, ...craftRecipes.classic];
  const categories = curatedMaterialCategories();
  const curatedIds = new Set(curated.map((item) => item.id));
  const standIns = standInItems(curatedIds, curatedRecipeRows.current, categories);
  const filler = fillerItems(FILLER_FIRST_ID, FILLER_COUNT);
  // The accounts are generated from the items before the crafting market's were added, so their
  // holdings stay what they were.
  const accountItems = byId([...curated, ...standIns, ...filler]);
  const craftItems = craftMarketItems();
  const achievements = buildAchievements(
    new Set([...accountItems.keys(), ...craftItems.map((item) => item.id)]),
  );
  const items = byId([...accountItems.values(), ...craftItems, ...achievements.items]);
  const currencies = byId(curatedCurrencies());
  const account = buildAccount(MAIN_ACCOUNT, accountItems, categories, currencies);
  const veteran = buildAccount(VETERAN_ACCOUNT, accountItems, categories, currencies);
  // The crafting market's prices are set, not generated (`crafting_market.ts`).
  const craftIds = new Set(craftItems.map((item) => item.id));
  const generated = generatePrices([...items.values()].filter((item) => !craftIds.has(item.id)));
  const prices = byId([...generated, ...craftMarketPrices()]);
  const listings = new FakeBooks(prices);
  return deepFreeze({
    items,
    recipes: byId(current),
    classicRecipes: byId(classic),
    recipesByInput: index(
      current,
      (recipe) =>
        recipe.ingredients.filter((ingredient) => ingredient.type === "Item").map(({ id }) => id),
    ),
    recipesByOutput: index(current, (recipe) => [recipe.output_item_id]),
    prices,
    listings,
    materials: byId(categories),
    currencies,
    armoryLimits: armoryLimits(items),
    ...account,
    veteran,
    wellKnown: WELL_KNOWN,
    curatedItemIds: [...curatedIds].sort((a, b) => a - b),
    standInItemIds: standIns.map((item) => item.id),
    fillerItemIds: filler.map((item) => item.id),
    craftMarketItemIds: craftItems.map((item) => item.id),
    achievements,
    achievementItemIds: achievements.items.map((item) => item.id),
    tradingPost: {
      main: plantedTradingPost(prices, listings),
      veteran: veteranTradingPost(listings),
    },
  });
}

/** Freezes every object and array reachable from `value`, and the values of its maps. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  if (value instanceof Map) {
    for (const entry of value.values()) deepFreeze(entry);
    return value;
  }
  Object.freeze(value);
  for (const entry of Object.values(value)) deepFreeze(entry);
  return value;
}

function byId<T extends { readonly id: number }>(records: readonly T[]): Map<number, T> {
  return new Map([...records].sort((a, b) => a.id - b.id).map((record) => [record.id, record]));
}

function index(
  recipes: readonly RecipeRecord[],
  keys: (recipe: RecipeRecord) => readonly number[],
): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const recipe of recipes) {
    for (const key of new Set(keys(recipe))) {
      const list = out.get(key) ?? [];
      list.push(recipe.id);
      out.set(key, list);
    }
  }
  return out;
}
