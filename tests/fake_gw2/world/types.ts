/**
 * Record shapes of the fake world, exactly as the GW2 API v2 serialises them (field order
 * included: records are built in upstream order so pretty-printed bodies look like the real
 * ones). The world is shared read-only between fake instances.
 *
 * @module
 */

/** Any JSON value (the structured `details` of an item). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** `/v2/items` record. */
export interface ItemRecord {
  readonly name: string;
  readonly description?: string;
  readonly type: string;
  readonly level: number;
  readonly rarity: string;
  readonly vendor_value: number;
  readonly default_skin?: number;
  readonly game_types: readonly string[];
  readonly flags: readonly string[];
  readonly restrictions: readonly string[];
  readonly id: number;
  readonly chat_link: string;
  readonly icon: string;
  readonly details?: JsonObject;
}

/** A recipe ingredient in the 2022-03-09 schema. */
export interface RecipeIngredient {
  readonly type: "Item" | "Currency" | "GuildUpgrade";
  readonly id: number;
  readonly count: number;
}

/** The fields both recipe schemas share. */
export interface RecipeHead {
  readonly id: number;
  readonly type: string;
  readonly output_item_id: number;
  readonly output_item_count: number;
  readonly time_to_craft_ms: number;
  readonly disciplines: readonly string[];
  readonly min_rating: number;
  readonly flags: readonly string[];
}

/** `/v2/recipes` record in the 2022-03-09 schema (`?v=2022-03-09T02:00:00.000Z` or later). */
export interface RecipeRecord extends RecipeHead {
  readonly ingredients: readonly RecipeIngredient[];
  readonly output_upgrade_id?: number;
  readonly chat_link: string;
}

/** `/v2/recipes` record in the classic schema (no `v`). */
export interface ClassicRecipeRecord extends RecipeHead {
  readonly ingredients: readonly { readonly item_id: number; readonly count: number }[];
  readonly guild_ingredients: readonly { readonly upgrade_id: number; readonly count: number }[];
  readonly output_upgrade_id?: number;
  readonly chat_link: string;
}

/** One side of a trading-post price (copper). */
export interface PriceSide {
  readonly quantity: number;
  readonly unit_price: number;
}

/** `/v2/commerce/prices` record. */
export interface PriceRecord {
  readonly id: number;
  readonly whitelisted: boolean;
  readonly buys: PriceSide;
  readonly sells: PriceSide;
}

/** `/v2/materials` record: a material-storage category. */
export interface MaterialCategoryRecord {
  readonly id: number;
  readonly name: string;
  readonly items: readonly number[];
  readonly order: number;
}

/** `/v2/currencies` record. */
export interface CurrencyRecord {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly order: number;
  readonly icon: string;
}

/**
 * `/v2/account` with every optional field present; the route drops the ones the key's scopes
 * or the requested schema version do not allow.
 */
export interface AccountRecord {
  readonly id: string;
  readonly name: string;
  readonly age: number;
  readonly world: number;
  readonly guilds: readonly string[];
  readonly guild_leader: readonly string[];
  readonly created: string;
  readonly access: readonly string[];
  readonly commander: boolean;
  readonly fractal_level: number;
  readonly daily_ap: number;
  readonly monthly_ap: number;
  readonly wvw_rank: number;
  readonly wvw: { readonly team_id: number; readonly rank: number };
  readonly last_modified: string;
  readonly build_storage_slots: number;
}

/** `/v2/account/materials` row. */
export interface AccountMaterialRecord {
  readonly id: number;
  readonly category: number;
  readonly binding?: "Account";
  readonly count: number;
}

/** `/v2/account/wallet` row. */
export interface WalletRecord {
  readonly id: number;
  readonly value: number;
}

/** An occupied bank, shared-inventory or bag slot. */
export interface ItemSlotRecord {
  readonly id: number;
  readonly count: number;
  readonly charges?: number;
  readonly skin?: number;
  readonly upgrades?: readonly number[];
  readonly infusions?: readonly number[];
  readonly binding?: "Account" | "Character";
  readonly bound_to?: string;
}

/** A bag in a character's bag slot. */
export interface BagRecord {
  readonly id: number;
  readonly size: number;
  readonly inventory: readonly (ItemSlotRecord | null)[];
}

/**
 * An equipped item (`equipment` of a `/v2/characters` record, with `inventories` or `builds`):
 * `location` and `tabs` from schema 2019-12-19; items shown from the legendary armory are
 * `EquippedFromLegendaryArmory` / `LegendaryArmory` (2021-07-15).
 */
export interface EquipmentRecord {
  readonly id: number;
  readonly slot?: string;
  readonly upgrades?: readonly number[];
  readonly infusions?: readonly number[];
  readonly binding?: "Account" | "Character";
  readonly bound_to?: string;
  readonly location?: "Equipped" | "Armory" | "EquippedFromLegendaryArmory" | "LegendaryArmory";
  readonly tabs?: readonly number[];
}

/** A character's crafting discipline. */
export interface CraftingRecord {
  readonly discipline: string;
  readonly rating: number;
  readonly active: boolean;
}

/**
 * `/v2/characters` record (core, crafting, backstory). `last_modified` is dropped for schemas
 * before 2019-02-21; `bags` is added when the key has the `inventories` scope, and `equipment`
 * with `inventories` or `builds`.
 */
export interface CharacterRecord {
  readonly name: string;
  readonly race: string;
  readonly gender: string;
  readonly profession: string;
  readonly level: number;
  readonly guild?: string;
  readonly age: number;
  readonly last_modified: string;
  readonly created: string;
  readonly deaths: number;
  readonly title?: number;
  readonly crafting: readonly CraftingRecord[];
  readonly backstory: readonly string[];
}

/** A character of the fake account with its inventory and what it wears. */
export interface FakeCharacter {
  readonly name: string;
  readonly record: CharacterRecord;
  /** `/v2/characters/:name/inventory`; `null` is an empty bag slot. */
  readonly inventory: { readonly bags: readonly (BagRecord | null)[] };
  /** The `equipment` of its `/v2/characters` record. */
  readonly equipment: readonly EquipmentRecord[];
}
