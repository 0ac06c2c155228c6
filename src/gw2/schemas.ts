/**
 * Zod schemas of the upstream records, validated at the client boundary. `z.object` strips
 * unknown keys, so only the fields declared here ever leave the client: a new upstream field
 * cannot leak into the cache or a tool result by default. Enum-like fields stay strings
 * because ArenaNet adds values without a schema bump.
 *
 * Shapes follow the schema version the client pins (`2022-03-09T02:00:00.000Z`), under which
 * recipe ingredients are `{type, id, count}`.
 *
 * @module
 */

import { z } from "zod";

const Id = z.number().int().positive();

/** `/v2/items` record (the fields this project uses; icon, description and details are dropped). */
export const ItemSchema = z.object({
  id: Id,
  name: z.string(),
  type: z.string(),
  rarity: z.string(),
  level: z.number().int(),
  vendor_value: z.number().int(),
  flags: z.array(z.string()),
  chat_link: z.string(),
});
/** A validated item. */
export type Item = z.infer<typeof ItemSchema>;

/** One recipe ingredient; `type` is `Item`, `Currency` or `GuildUpgrade`. */
export const RecipeIngredientSchema = z.object({
  type: z.string(),
  id: Id,
  count: z.number().int().positive(),
});
/** A validated recipe ingredient. */
export type RecipeIngredient = z.infer<typeof RecipeIngredientSchema>;

/** `/v2/recipes` record under the 2022-03-09 schema. */
export const RecipeSchema = z.object({
  id: Id,
  type: z.string(),
  output_item_id: Id,
  output_item_count: z.number().int().positive(),
  disciplines: z.array(z.string()),
  min_rating: z.number().int(),
  flags: z.array(z.string()),
  ingredients: z.array(RecipeIngredientSchema),
  output_upgrade_id: Id.optional(),
  chat_link: z.string(),
});
/** A validated recipe. */
export type Recipe = z.infer<typeof RecipeSchema>;

const PriceSideSchema = z.object({
  quantity: z.number().int().nonnegative(),
  unit_price: z.number().int().nonnegative(),
});

/** `/v2/commerce/prices` record: `buys` is the highest buy order, `sells` the lowest listing (copper). */
export const PriceSchema = z.object({
  id: Id,
  whitelisted: z.boolean(),
  buys: PriceSideSchema,
  sells: PriceSideSchema,
});
/** A validated price. */
export type Price = z.infer<typeof PriceSchema>;

/** One price level of `/v2/commerce/listings`: orders at one unit price, and their units. */
const ListingLevelSchema = z.object({
  listings: z.number().int().nonnegative(),
  unit_price: z.number().int().nonnegative(),
  quantity: z.number().int().nonnegative(),
});

/**
 * `/v2/commerce/listings` record as upstream sends it: `sells` lowest price first, `buys`
 * highest first. A popular item's book holds thousands of levels; the client keeps an
 * {@linkcode OrderBook} of it.
 */
export const ListingSchema = z.object({
  id: Id,
  buys: z.array(ListingLevelSchema),
  sells: z.array(ListingLevelSchema),
});
/** A validated listings record. */
export type Listing = z.infer<typeof ListingSchema>;

/**
 * A book level as kept: `[unit price in copper, units]`. Rebuilt as a literal pair once checked:
 * zod builds a tuple by pushing onto an empty array, whose spare capacity made a book read back
 * from KV take ~2.7× the heap of the same book built from upstream (~190 against ~72 bytes a
 * level), and the process holds up to 1,000 books.
 */
const BookLevelSchema = z.tuple([
  z.number().int().nonnegative(),
  z.number().int().positive(),
]).transform(([price, units]): [number, number] => [price, units]);
/** `[unit price in copper, units]` of one price level. */
export type BookLevel = z.infer<typeof BookLevelSchema>;

/**
 * An order book as the client keeps and returns it (see `docs/upstream.md`, "Order books"): the
 * sell levels a plan could need, lowest price first (up to a cap of units and of levels; `more`
 * when the book goes on past them), the best buy level, and the buy levels highest price first
 * under the same caps (`moreBuys` when the book goes on; what a run of crafts sells into, absent
 * in entries cached before they were kept). `unread` marks a book upstream could
 * not return (a 502 for that id alone, the real API's answer for some huge books): no levels,
 * the caller falls back to the unit price.
 */
export const OrderBookSchema = z.object({
  id: Id,
  sells: z.array(BookLevelSchema),
  buy: BookLevelSchema.optional(),
  more: z.literal(true).optional(),
  buys: z.array(BookLevelSchema).optional(),
  moreBuys: z.literal(true).optional(),
  unread: z.literal(true).optional(),
});
/** A validated order book. */
export type OrderBook = z.infer<typeof OrderBookSchema>;

/**
 * An item as the catalogue crawl keeps it (`/v2/items?page=`): only what name search needs, so
 * a page stays valid when a record lacks a field the full schema requires.
 */
export const CatalogueItemSchema = ItemSchema.pick({
  id: true,
  name: true,
  rarity: true,
  type: true,
});
/** A catalogue item. */
export type CatalogueItem = z.infer<typeof CatalogueItemSchema>;

/**
 * A material category's or currency's name in another language (`?lang=`): all that is kept of
 * it, the rest being the English record's.
 */
export const NamedSchema = z.object({ id: Id, name: z.string() });
/** A localized name. */
export type Named = z.infer<typeof NamedSchema>;

/**
 * A recipe as the catalogue crawl keeps it (`/v2/recipes?page=`): output, ingredients, and who may
 * craft it - its disciplines, minimum rating and flags (`AutoLearned`, `LearnedFromItem`), for the
 * crafting scan.
 */
export const CatalogueRecipeSchema = RecipeSchema.pick({
  id: true,
  output_item_id: true,
  output_item_count: true,
  disciplines: true,
  min_rating: true,
  flags: true,
  ingredients: true,
});
/** A catalogue recipe. */
export type CatalogueRecipe = z.infer<typeof CatalogueRecipeSchema>;

/** The crafting disciplines (`/v2/recipes`' `disciplines`, `/v2/characters`' `crafting`). */
export const DISCIPLINES = [
  "Armorsmith",
  "Artificer",
  "Chef",
  "Huntsman",
  "Jeweler",
  "Leatherworker",
  "Scribe",
  "Tailor",
  "Weaponsmith",
] as const;
/** One of {@linkcode DISCIPLINES}. */
export type Discipline = typeof DISCIPLINES[number];

/** `/v2/recipes/search` answer: recipe ids. */
export const RecipeIdsSchema = z.array(Id);

/** `/v2/materials` record: a material-storage category. */
export const MaterialCategorySchema = z.object({
  id: Id,
  name: z.string(),
  items: z.array(Id),
  order: z.number().int(),
});
/** A validated material category. */
export type MaterialCategory = z.infer<typeof MaterialCategorySchema>;

/** `/v2/currencies` record (description and icon dropped). */
export const CurrencySchema = z.object({
  id: Id,
  name: z.string(),
  order: z.number().int(),
});
/** A validated currency. */
export type Currency = z.infer<typeof CurrencySchema>;

/**
 * `/v2/account` (non-secret facts only; the account GUID is dropped). Optional fields depend on
 * the key's scopes.
 */
export const AccountSchema = z.object({
  name: z.string(),
  world: z.number().int(),
  created: z.string(),
  age: z.number().int().nonnegative(),
  access: z.array(z.string()),
  commander: z.boolean(),
  fractal_level: z.number().int().optional(),
  daily_ap: z.number().int().optional(),
  monthly_ap: z.number().int().optional(),
  wvw_rank: z.number().int().optional(),
  /** When the account last changed (ISO 8601; schema >= 2019-02-21): the resets' staleness. */
  last_modified: z.string().optional(),
});
/** A validated account. */
export type Account = z.infer<typeof AccountSchema>;

/** `/v2/account/materials` row; every storable material is listed, count 0 included. */
export const AccountMaterialSchema = z.object({
  id: Id,
  category: z.number().int(),
  count: z.number().int().nonnegative(),
  binding: z.string().optional(),
});
/** A validated material-storage row. */
export type AccountMaterial = z.infer<typeof AccountMaterialSchema>;

/** `/v2/account/wallet` row. */
export const WalletEntrySchema = z.object({
  id: Id,
  value: z.number().int().nonnegative(),
});
/** A validated wallet row. */
export type WalletEntry = z.infer<typeof WalletEntrySchema>;

/** An occupied bank, shared-inventory or bag slot (skins, dyes and stats dropped). */
export const ItemSlotSchema = z.object({
  id: Id,
  count: z.number().int().nonnegative(),
  charges: z.number().int().optional(),
  binding: z.string().optional(),
  bound_to: z.string().optional(),
  upgrades: z.array(z.number().int()).optional(),
  infusions: z.array(z.number().int()).optional(),
});
/** A validated slot. */
export type ItemSlot = z.infer<typeof ItemSlotSchema>;

/** Slot arrays (`/v2/account/bank`, `/v2/account/inventory`): `null` is an empty slot. */
export const SlotsSchema = z.array(ItemSlotSchema.nullable());

/** `/v2/characters` without ids: the character names. */
export const CharacterNamesSchema = z.array(z.string());

/** A character's bag slots; `null` is an empty bag slot. */
const BagsSchema = z.array(
  z.object({
    id: Id,
    size: z.number().int().nonnegative(),
    inventory: SlotsSchema,
  }).nullable(),
);

/** `/v2/characters/:name/inventory`. `null` bags are empty bag slots. */
export const CharacterInventorySchema = z.object({ bags: BagsSchema });
/** A validated character inventory. */
export type CharacterInventory = z.infer<typeof CharacterInventorySchema>;

/**
 * One equipped item: its id, and where it is held - `Equipped` (the active tab), `Armory` (an
 * inactive tab), or `EquippedFromLegendaryArmory` / `LegendaryArmory` (shown from the account's
 * legendary armory); absent before schema 2019-12-19.
 */
const EquipmentSchema = z.object({ id: Id, location: z.string().optional() });

/** One of a character's crafting disciplines: its rating, and whether it is active. */
export const CraftingSchema = z.object({
  discipline: z.string(),
  rating: z.number().int(),
  active: z.boolean(),
});
/** A validated crafting discipline of a character. */
export type Crafting = z.infer<typeof CraftingSchema>;

/**
 * A `/v2/characters?ids=all` record reduced to the name, the bags and what the character wears
 * (both present only when the key has the `inventories` scope), and its crafting disciplines;
 * skills and the rest are dropped.
 */
export const CharacterBagsSchema = z.object({
  name: z.string(),
  bags: BagsSchema.optional(),
  equipment: z.array(EquipmentSchema).optional(),
  crafting: z.array(CraftingSchema).optional(),
});
/** A validated character with its bags and equipment. */
export type CharacterBags = z.infer<typeof CharacterBagsSchema>;

/** `/v2/tokeninfo`, without `id` (the first half of the key itself). */
export const TokenInfoSchema = z.object({
  name: z.string(),
  permissions: z.array(z.string()),
  type: z.string().optional(),
});
/** A validated token description. */
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

/** `/v2/account/legendaryarmory` row: a legendary the armory holds, and how many of it. */
export const ArmorySlotSchema = z.object({ id: Id, count: z.number().int().nonnegative() });
/** A validated armory row of the account. */
export type ArmorySlot = z.infer<typeof ArmorySlotSchema>;

/** `/v2/legendaryarmory` record: how many of a legendary the armory can hold. */
export const ArmoryLimitSchema = z.object({ id: Id, max_count: z.number().int().positive() });
/** A validated armory limit. */
export type ArmoryLimit = z.infer<typeof ArmoryLimitSchema>;
