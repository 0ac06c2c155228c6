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
import { BOOK_MAX_LEVELS, keptBook, unreadBook } from "./order_book.ts";
import type { Lang } from "./types.ts";
import {
  AccountMaterialSchema,
  AccountSchema,
  CatalogueItemSchema,
  CharacterBagsSchema,
  CharacterInventorySchema,
  CharacterNamesSchema,
  CurrencySchema,
  ItemSchema,
  ListingSchema,
  MaterialCategorySchema,
  NamedSchema,
  type OrderBook,
  OrderBookSchema,
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
  /** Order books move as fast as prices; an hour-old book still beats a unit price. */
  listing: { ttlMs: MINUTE, staleForMs: HOUR },
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
  /**
   * Validates a cached value, when what is kept differs from what upstream sends (`schema`
   * then transforms the upstream record into it). @default schema
   */
  readonly stored?: z.ZodType<T>;
  /** Query parameters added to every request (besides `ids`). */
  readonly query?: readonly (readonly [string, string])[];
  /**
   * For an endpoint where one id can fail a whole request (listings: a huge book answers 502
   * for every request naming it): a request answered `status` is split in halves, again and
   * again, until the ids behind it stand alone, at most `maxRequests` extra requests per
   * request of 200 ids; an id that fails alone is recorded as `unreadable(id)` (and cached),
   * so are the ids left when the split runs out of requests (not cached). Such a request is
   * not retried on `status`: the split is its retry.
   */
  readonly isolate?: {
    readonly status: number;
    readonly maxRequests: number;
    readonly unreadable: (id: number) => T;
  };
}

/**
 * `/v2/items`, in English: `lang=en` always sent, since without it the API guesses a language
 * from the caller's address (and a caller's `Accept-Language` is never forwarded).
 */
export const ITEMS: BulkEndpoint<z.infer<typeof ItemSchema>> = {
  kind: "item",
  path: "/v2/items",
  schema: ItemSchema,
  freshness: FRESHNESS.static,
  what: "item",
  query: [["lang", "en"]],
};

/**
 * `/v2/items?lang=` for another language: kept as the name (with the rarity and type the name
 * index ranks and answers with), not as a second copy of the whole item.
 */
export function itemNamesEndpoint(
  lang: Exclude<Lang, "en">,
): BulkEndpoint<z.infer<typeof CatalogueItemSchema>> {
  return {
    kind: `name-${lang}`,
    path: "/v2/items",
    schema: CatalogueItemSchema,
    freshness: FRESHNESS.static,
    what: "item",
    query: [["lang", lang]],
  };
}

/** `/v2/recipes` (2022-03-09 schema). */
export const RECIPES: BulkEndpoint<z.infer<typeof RecipeSchema>> = {
  kind: "recipe",
  path: "/v2/recipes",
  schema: RecipeSchema,
  freshness: FRESHNESS.static,
  what: "recipe",
};

/** `/v2/commerce/prices`. Untradeable items are simply absent (206/404 -> missing). */
export const PRICES: BulkEndpoint<z.infer<typeof PriceSchema>> = {
  kind: "price",
  path: "/v2/commerce/prices",
  schema: PriceSchema,
  freshness: FRESHNESS.price,
  what: "price",
};

/**
 * `/v2/commerce/listings`, kept as bounded order books (`order_book.ts`); `top=` asks upstream
 * for one level per side more than are kept: enough for `keptBook` to tell a book that goes on
 * past them (`more`) from one that ends there. 32 extra requests isolate two failing ids among
 * 200 (2 × 2 × ceil(log2 200)).
 */
export const LISTINGS: BulkEndpoint<OrderBook> = {
  kind: "listing",
  path: "/v2/commerce/listings",
  schema: ListingSchema.transform(keptBook),
  stored: OrderBookSchema,
  freshness: FRESHNESS.listing,
  what: "order book",
  query: [["top", String(BOOK_MAX_LEVELS + 1)]],
  isolate: { status: 502, maxRequests: 32, unreadable: unreadBook },
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

/** `/v2/materials?ids=all&lang=` in another language: the categories' names only. */
export const MATERIAL_NAMES: DocEndpoint<z.infer<typeof NamedSchema>[]> = {
  endpoint: "/v2/materials",
  schema: z.array(NamedSchema),
  freshness: FRESHNESS.static,
  scope: "account",
};

/** `/v2/currencies?ids=all&lang=` in another language: the currencies' names only. */
export const CURRENCY_NAMES: DocEndpoint<z.infer<typeof NamedSchema>[]> = {
  endpoint: "/v2/currencies",
  schema: z.array(NamedSchema),
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
  account_recipes: accountDoc("/v2/account/recipes", RecipeIdsSchema, "unlocks"),
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
