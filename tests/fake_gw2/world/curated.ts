/**
 * The curated facts of the fake world (`../data/*.json`, the project's own format): real ids,
 * names, types, rarities, flags, structured `details`, recipes, material categories and
 * currencies. Prose is not stored: a description is kept as its length and rewritten here with
 * fresh text; detail icons are synthesized. The JSON modules are typed by the compiler, so a
 * malformed data file fails `deno check`.
 *
 * @module
 */

import itemsData from "../data/items.json" with { type: "json" };
import recipesData from "../data/recipes.json" with { type: "json" };
import materialsData from "../data/materials.json" with { type: "json" };
import currenciesData from "../data/currencies.json" with { type: "json" };
import { iconUrl, itemChatLink, recipeChatLink, writeProse } from "./text.ts";
import type {
  ClassicRecipeRecord,
  CurrencyRecord,
  ItemRecord,
  JsonObject,
  JsonValue,
  MaterialCategoryRecord,
  RecipeRecord,
} from "./types.ts";

/** A stored item row: `text` is the description's length, absent when the item has none. */
interface CuratedItem {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly rarity: string;
  readonly level: number;
  readonly vendor: number;
  readonly skin?: number | undefined;
  readonly games: readonly string[];
  readonly flags: readonly string[];
  readonly restrictions: readonly string[];
  readonly text?: number | undefined;
  readonly flavor?: boolean | undefined;
  readonly details?: JsonObject | undefined;
  /**
   * An id the 2023 snapshot predates (the Obsidian armor and its parts): id and name are real,
   * the other facts a named snapshot item's of the same kind (`scripts/fake_world_data.ts`).
   */
  readonly later?: boolean | undefined;
  /**
   * An item of the market beyond the pack's selection, carried for the tests of recipes far from
   * any legendary (Weak Potion of Dredge Slaying): kept out of the accounts' random picks, which
   * stay as they were before it came.
   */
  readonly market?: boolean | undefined;
}

/** A stored recipe row: ingredients as `[item id, count]`, guild ones as `[upgrade id, count]`. */
interface CuratedRecipe {
  readonly id: number;
  readonly type: string;
  readonly output: number;
  readonly count: number;
  readonly time: number;
  readonly disciplines: readonly string[];
  readonly rating: number;
  readonly flags: readonly string[];
  readonly items: readonly (readonly number[])[];
  readonly guild?: readonly (readonly number[])[] | undefined;
  readonly upgrade?: number | undefined;
}

/** A stored currency row: `text` is the description's length. */
interface CuratedCurrency {
  readonly id: number;
  readonly name: string;
  readonly order: number;
  readonly text: number;
}

const CURATED_ITEMS: readonly CuratedItem[] = itemsData.items;
const CURATED_RECIPES: readonly CuratedRecipe[] = recipesData.recipes;
const CURATED_CATEGORIES: readonly MaterialCategoryRecord[] = materialsData.categories;
const CURATED_CURRENCIES: readonly CuratedCurrency[] = currenciesData.currencies;

/** The ids of the market's extra items ({@linkcode CuratedItem.market}). */
export const MARKET_ITEM_IDS: ReadonlySet<number> = new Set(
  CURATED_ITEMS.filter((row) => row.market === true).map((row) => row.id),
);

/** The curated items as API records, in id order. */
export function curatedItems(): ItemRecord[] {
  return CURATED_ITEMS.map((row) => {
    const description = row.text === undefined ? undefined : writeProse(row.text, {
      seed: [row.id, "item"],
      kind: row.type,
      flavor: row.flavor === true,
    });
    return {
      name: row.name,
      ...(description === undefined ? {} : { description }),
      type: row.type,
      level: row.level,
      rarity: row.rarity,
      vendor_value: row.vendor,
      ...(row.skin === undefined ? {} : { default_skin: row.skin }),
      game_types: row.games,
      flags: row.flags,
      restrictions: row.restrictions,
      id: row.id,
      chat_link: itemChatLink(row.id),
      icon: iconUrl("item", row.id),
      ...(row.details === undefined ? {} : { details: rewriteDetails(row.details, row.id) }),
    };
  });
}

/**
 * Restores the prose-free stored `details`: a numeric `description` becomes fresh text of that
 * length, a numeric `bonuses` that many bonus lines, and an `icon` a synthesized URL.
 */
function rewriteDetails(details: JsonObject, itemId: number, path = "details"): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(details)) {
    const here = `${path}.${key}`;
    if (key === "description" && typeof value === "number") {
      out[key] = writeProse(value, { seed: [itemId, here] });
    } else if (key === "bonuses" && typeof value === "number") {
      out[key] = bonusLines(value);
    } else if (key === "icon") {
      out[key] = iconUrl("effect", itemId, here);
    } else if (isJsonObject(value)) {
      out[key] = rewriteDetails(value, itemId, here);
    } else {
      out[key] = value;
    }
  }
  return out;
}

const BONUS_ATTRIBUTES = ["Power", "Precision", "Ferocity", "Vitality", "Toughness", "Healing"];

function bonusLines(count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const attribute = BONUS_ATTRIBUTES[index % BONUS_ATTRIBUTES.length] ?? "Power";
    return `+${25 * (index + 1)} ${attribute}`;
  });
}

function isJsonObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The curated recipes in the 2022-03-09 schema and the classic schema, in id order. */
export function curatedRecipes(): { current: RecipeRecord[]; classic: ClassicRecipeRecord[] } {
  const current: RecipeRecord[] = [];
  const classic: ClassicRecipeRecord[] = [];
  for (const row of CURATED_RECIPES) {
    const items = row.items.map(([id = 0, count = 0]) => ({ id, count }));
    const guild = (row.guild ?? []).map(([id = 0, count = 0]) => ({ id, count }));
    const head = {
      id: row.id,
      type: row.type,
      output_item_id: row.output,
      output_item_count: row.count,
      time_to_craft_ms: row.time,
      disciplines: row.disciplines,
      min_rating: row.rating,
      flags: row.flags,
    };
    const upgrade = row.upgrade === undefined ? {} : { output_upgrade_id: row.upgrade };
    const chatLink = recipeChatLink(row.id);
    current.push({
      ...head,
      ingredients: [
        ...items.map(({ id, count }) => ({ type: "Item" as const, id, count })),
        ...guild.map(({ id, count }) => ({ type: "GuildUpgrade" as const, id, count })),
      ],
      ...upgrade,
      chat_link: chatLink,
    });
    classic.push({
      ...head,
      ingredients: items.map(({ id, count }) => ({ item_id: id, count })),
      guild_ingredients: guild.map(({ id, count }) => ({ upgrade_id: id, count })),
      ...upgrade,
      chat_link: chatLink,
    });
  }
  return { current, classic };
}

/** The nine material-storage categories, in id order. */
export function curatedMaterialCategories(): readonly MaterialCategoryRecord[] {
  return CURATED_CATEGORIES;
}

/** The currencies with fresh descriptions and synthesized icons, in id order. */
export function curatedCurrencies(): CurrencyRecord[] {
  return CURATED_CURRENCIES.map((row) => ({
    id: row.id,
    name: row.name,
    description: writeProse(row.text, { seed: [row.id, "currency"], kind: "Currency" }),
    order: row.order,
    icon: iconUrl("currency", row.id),
  }));
}
