/**
 * The upstream endpoints the client reads, with the schema that validates each answer, how long
 * an answer stays fresh, and the scope to name when a 403 cannot be read. One table, so adding
 * an endpoint is one row.
 *
 * @module
 */

import { z } from "zod";
import type { Freshness } from "./cache/freshness.ts";
import type { AccountDoc, RecordKind } from "./cache/keys.ts";
import {
  AccountMaterialSchema,
  AccountSchema,
  CharacterBagsSchema,
  CharacterInventorySchema,
  CharacterNamesSchema,
  CurrencySchema,
  ItemSchema,
  MaterialCategorySchema,
  PriceSchema,
  RecipeIdsSchema,
  RecipeSchema,
  SlotsSchema,
  TokenInfoSchema,
  WalletEntrySchema,
} from "./schemas.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Freshness per kind of data (see docs/upstream.md). */
export const FRESHNESS = {
  /** Items, recipes, materials, currencies, recipe searches: game data changes with builds. */
  static: { ttlMs: DAY, staleForMs: 7 * DAY },
  /** Trading-post prices move by the minute; a day-old price is still better than none. */
  price: { ttlMs: MINUTE, staleForMs: DAY },
  /** "Unknown id" markers, so a repeated bad id does not reach upstream. */
  unknownId: { ttlMs: HOUR, staleForMs: DAY },
  /** Account reads: at most 5 minutes, never served stale (the contract's limit on keeping them). */
  account: { ttlMs: 5 * MINUTE, staleForMs: 0 },
} as const satisfies Record<string, Freshness>;

/** A bulk endpoint read by `ids=`. */
export interface BulkEndpoint<T extends { readonly id: number }> {
  readonly kind: RecordKind;
  readonly path: string;
  readonly schema: z.ZodType<T>;
  readonly freshness: Freshness;
  /** Noun for not-found messages. */
  readonly what: string;
}

/** `/v2/items`. */
export const ITEMS: BulkEndpoint<z.infer<typeof ItemSchema>> = {
  kind: "item",
  path: "/v2/items",
  schema: ItemSchema,
  freshness: FRESHNESS.static,
  what: "item",
};

/** `/v2/recipes` (2022-03-09 schema). */
export const RECIPES: BulkEndpoint<z.infer<typeof RecipeSchema>> = {
  kind: "recipe",
  path: "/v2/recipes",
  schema: RecipeSchema,
  freshness: FRESHNESS.static,
  what: "recipe",
};

/** `/v2/commerce/prices`. Untradeable items are simply absent (206/404 → missing). */
export const PRICES: BulkEndpoint<z.infer<typeof PriceSchema>> = {
  kind: "price",
  path: "/v2/commerce/prices",
  schema: PriceSchema,
  freshness: FRESHNESS.price,
  what: "price",
};

/** A document endpoint (no ids, or `ids=all`). */
export interface DocEndpoint<T> {
  /** Route template, for logs. */
  readonly endpoint: string;
  readonly schema: z.ZodType<T>;
  readonly freshness: Freshness;
  /** Named when a 403 body is unreadable. */
  readonly scope: string;
}

/** `/v2/materials?ids=all`. */
export const MATERIALS: DocEndpoint<z.infer<typeof MaterialCategorySchema>[]> = {
  endpoint: "/v2/materials",
  schema: z.array(MaterialCategorySchema),
  freshness: FRESHNESS.static,
  scope: "account",
};

/** `/v2/currencies?ids=all`. */
export const CURRENCIES: DocEndpoint<z.infer<typeof CurrencySchema>[]> = {
  endpoint: "/v2/currencies",
  schema: z.array(CurrencySchema),
  freshness: FRESHNESS.static,
  scope: "account",
};

/** `/v2/recipes/search?input=|output=`. */
export const RECIPE_SEARCH: DocEndpoint<number[]> = {
  endpoint: "/v2/recipes/search",
  schema: RecipeIdsSchema,
  freshness: FRESHNESS.static,
  scope: "account",
};

function accountDoc<T>(endpoint: string, schema: z.ZodType<T>, scope: string): DocEndpoint<T> {
  return { endpoint, schema, freshness: FRESHNESS.account, scope };
}

/** The authenticated endpoints, by cache document name. */
export const ACCOUNT_ENDPOINTS = {
  account: accountDoc("/v2/account", AccountSchema, "account"),
  account_materials: accountDoc(
    "/v2/account/materials",
    z.array(AccountMaterialSchema),
    "inventories",
  ),
  account_wallet: accountDoc("/v2/account/wallet", z.array(WalletEntrySchema), "wallet"),
  account_bank: accountDoc("/v2/account/bank", SlotsSchema, "inventories"),
  account_inventory: accountDoc("/v2/account/inventory", SlotsSchema, "inventories"),
  characters: accountDoc("/v2/characters", CharacterNamesSchema, "characters"),
  characters_all: accountDoc("/v2/characters", z.array(CharacterBagsSchema), "characters"),
  character_inventory: accountDoc(
    "/v2/characters/:name/inventory",
    CharacterInventorySchema,
    "inventories",
  ),
  tokeninfo: accountDoc("/v2/tokeninfo", TokenInfoSchema, "account"),
} as const satisfies Record<AccountDoc, DocEndpoint<unknown>>;

/** A cache-value parser from a schema: the value, or `undefined` when it no longer fits. */
export function parseWith<T>(schema: z.ZodType<T>): (value: unknown) => T | undefined {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? result.data : undefined;
  };
}
