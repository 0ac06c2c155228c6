/**
 * The upstream endpoints the client reads, with the schema that validates each answer, how long
 * an answer stays fresh, and the scope to name when a 403 cannot be read. One table, so adding
 * an endpoint is one row.
 *
 * @module
 */

import { z } from "zod";
import { BOOK_MAX_LEVELS, keptBook, unreadBook } from "./order_book.ts";
import type { Freshness, Lang } from "./types.ts";
import { Gw2NotFoundError } from "./errors.ts";
import {
  AccountMaterialSchema,
  AccountSchema,
  ArmoryLimitSchema,
  ArmorySlotSchema,
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
import {
  AccountAchievementsSchema,
  AchievementSchema,
  MiniSchema,
  SkinSchema,
} from "./schemas_achievements.ts";
import { API_ANSWER_READ_MAX_BYTES } from "./api_path.ts";
import { ApiListSchema } from "./schemas_api.ts";
import {
  CurrentOrderSchema,
  DeliverySchema,
  GemExchangeSchema,
  PastTransactionSchema,
  TP_HISTORY_MAX_PAGES,
} from "./schemas_trading.ts";
import {
  AccountVaultListingSchema,
  AccountVaultPeriodSchema,
  AccountVaultSpecialSchema,
  DungeonSchema,
  RaidSchema,
  StringIdsSchema,
  VaultListingSchema,
  VaultSeasonSchema,
} from "./schemas_today.ts";

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
  /** `gw2_api`'s public reads: every listed endpoint, some of which move by the minute; kept briefly. */
  passthrough: { ttlMs: 5 * MINUTE, staleForMs: HOUR },
  /** The gem exchange moves slowly; a quote a few minutes old (or an hour, on failure) will do. */
  exchange: { ttlMs: 5 * MINUTE, staleForMs: HOUR },
} as const satisfies Record<string, Freshness>;

/** A bulk endpoint read by `ids=`. */
export interface BulkEndpoint<T extends { readonly id: number }> {
  /** Its records' cache kind (`RecordKind`, `cache/keys.ts`): `item`, `price`, a `BULK` name. */
  readonly kind: string;
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
   * Named in a language (`gw2.bulk(name, ids, lang)`): each language's records are read with
   * `lang` always sent and cached apart (`<kind>-<lang>`).
   */
  readonly localized?: boolean;
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

/** Query parameters of a request, in order. */
export type Query = readonly (readonly [string, string])[];

/** A document endpoint (no ids, or `ids=all`). */
export interface DocEndpoint<T> {
  /** Route template, for logs. */
  readonly endpoint: string;
  readonly schema: z.ZodType<T>;
  readonly freshness: Freshness;
  /** Named when a 403 body is unreadable. */
  readonly scope: string;
  /**
   * What is validated and kept of an answer, when more than its JSON: `gw2_api`'s reads keep
   * the paging headers too. @default the answer's JSON
   */
  readonly fromAnswer?: (answer: DocAnswer) => unknown;
  /**
   * The largest answer read, in bytes as sent; past it the read stops and fails `too_large`
   * (`gw2_api`'s reads, whose size no row bounds). @default unbounded
   */
  readonly maxBytes?: number;
}

/** An upstream answer as a document row may keep it. */
export interface DocAnswer {
  readonly json: unknown;
  readonly pageTotal?: number;
  readonly resultTotal?: number;
}

/** Where one read of a {@linkcode Doc} goes, from its parameters. */
export interface DocTarget {
  /** The concrete path, URL-encoded. @default the row's `endpoint` */
  readonly path?: string;
  /** Query parameters besides the row's own. */
  readonly query?: Query;
  /** What tells this read's cache entry from the row's other reads (a character's name ...). */
  readonly cacheParts?: readonly (string | number)[];
}

/**
 * A row of {@linkcode DOCS}: a document read whole by `gw2.doc(name, args)`. `P` is what a read
 * takes besides the player's key (`void`: nothing); `auth` whether it takes the key at all.
 */
export interface Doc<T, P, Auth extends boolean = boolean> extends DocEndpoint<T> {
  /** Whether the endpoint needs the player's key (cached under its HMAC, never stale). */
  readonly auth: Auth;
  /** Noun for a 404 (`character`), and for a document that is gone. */
  readonly what: string;
  /** Query parameters of every read (`ids=all`). */
  readonly query?: Query;
  /** The path, query and cache identity of one read, from its parameters. */
  readonly target?: (params: P) => DocTarget;
  /**
   * A collection read whole, page by page (`page_size=200`): the first page tells the count, the
   * rest are read at once; a short or empty page ends it early (a page count can lie), and at
   * most `maxPages` are read. The cached document is every page's records in order.
   */
  readonly paged?: { readonly maxPages: number };
}

/**
 * A row of {@linkcode DOCS} whatever its types (`never` parameters: every row's `target` fits),
 * as the client's one reader of them holds it.
 */
export type AnyDoc = Doc<unknown, never>;

/** A document the player's key reads: at most 5 minutes old, cached under the key's HMAC. */
export function accountDoc<T, P = void>(
  endpoint: string,
  schema: z.ZodType<T>,
  scope: string,
  more: Pick<Doc<T, P>, "query" | "target" | "paged" | "fromAnswer" | "maxBytes"> & {
    readonly what?: string;
  } = {},
): Doc<T, P, true> {
  return {
    endpoint,
    schema,
    freshness: FRESHNESS.account,
    scope,
    auth: true,
    what: more.what ?? "account record",
    ...more,
  };
}

/**
 * A public document of game data: a day fresh and served stale for a week if upstream fails,
 * unless `more.freshness` says otherwise.
 */
export function publicDoc<T, P = void>(
  endpoint: string,
  schema: z.ZodType<T>,
  what: string,
  more: Partial<
    Pick<Doc<T, P>, "query" | "target" | "paged" | "freshness" | "fromAnswer" | "maxBytes">
  > = {},
): Doc<T, P, false> {
  return {
    endpoint,
    schema,
    freshness: more.freshness ?? FRESHNESS.static,
    scope: "account",
    auth: false,
    what,
    ...more,
  };
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

/** One gem-exchange quote: its `quantity`, and a cache entry per quantity. */
function exchangeQuote({ quantity }: { quantity: number }): DocTarget {
  return { query: [["quantity", String(quantity)]], cacheParts: [quantity] };
}

/**
 * The largest answer `gw2_api` keeps, in bytes of JSON (a whole id list of the real `/v2/items`
 * is ~600 KB): a larger one is kept as its size alone, and the tool asks for a page or ids.
 */
export const API_ANSWER_MAX_BYTES = 2_000_000;

/** What `gw2_api` keeps of an answer: its JSON (absent when too large), size and paging. */
const ApiAnswerSchema = z.object({
  json: z.unknown().optional(),
  bytes: z.number().int().nonnegative(),
  pageTotal: z.number().int().nonnegative().optional(),
  resultTotal: z.number().int().nonnegative().optional(),
});
/** A kept `gw2_api` answer. */
export type ApiAnswer = z.infer<typeof ApiAnswerSchema>;

/** A `gw2_api` read: the checked path (`src/gw2/api_path.ts`) and its query. */
export interface ApiTarget {
  readonly path: string;
  readonly query: Query;
}

function apiTarget({ path, query }: ApiTarget): DocTarget {
  return { path, query, cacheParts: [path, ...query.flat()] };
}

function apiAnswer(answer: DocAnswer): ApiAnswer {
  const bytes = new TextEncoder().encode(JSON.stringify(answer.json)).length;
  return {
    ...(bytes > API_ANSWER_MAX_BYTES ? {} : { json: answer.json }),
    bytes,
    ...(answer.pageTotal === undefined ? {} : { pageTotal: answer.pageTotal }),
    ...(answer.resultTotal === undefined ? {} : { resultTotal: answer.resultTotal }),
  };
}

/**
 * Every document endpoint `gw2.doc(name, args)` reads, by name: adding an endpoint is adding a
 * row (and its record schema). The name is also its cache entry's name.
 */
export const DOCS = {
  account: accountDoc("/v2/account", AccountSchema, "account"),
  accountMaterials: accountDoc(
    "/v2/account/materials",
    z.array(AccountMaterialSchema),
    "inventories",
  ),
  accountWallet: accountDoc("/v2/account/wallet", z.array(WalletEntrySchema), "wallet"),
  accountBank: accountDoc("/v2/account/bank", SlotsSchema, "inventories"),
  accountInventory: accountDoc("/v2/account/inventory", SlotsSchema, "inventories"),
  /** The ids of the recipes the account has learned. */
  accountRecipes: accountDoc("/v2/account/recipes", RecipeIdsSchema, "unlocks"),
  /** The legendary armory: how many of each legendary the account has unlocked. */
  accountLegendaryArmory: accountDoc(
    "/v2/account/legendaryarmory",
    z.array(ArmorySlotSchema),
    "unlocks",
  ),
  /** The characters' names. */
  characters: accountDoc("/v2/characters", CharacterNamesSchema, "characters"),
  /**
   * Every character with its bags, equipment and crafting disciplines in one request; `bags`
   * is absent on each when the key lacks the `inventories` scope.
   */
  characterBags: accountDoc("/v2/characters", z.array(CharacterBagsSchema), "characters", {
    query: [["ids", "all"]],
  }),
  /** One character's bags. */
  characterInventory: accountDoc<z.infer<typeof CharacterInventorySchema>, { name: string }>(
    "/v2/characters/:name/inventory",
    CharacterInventorySchema,
    "inventories",
    {
      what: "character",
      target: ({ name }) => {
        // No character has a blank name: do not spend a request on one.
        if (name.trim() === "") throw new Gw2NotFoundError([], "character");
        return { path: `/v2/characters/${encodeURIComponent(name)}/inventory`, cacheParts: [name] };
      },
    },
  ),
  tokenInfo: accountDoc("/v2/tokeninfo", TokenInfoSchema, "account"),
  // Issue 30: achievements, and gw2_api's reads of any listed endpoint.
  /** The account's progress: every achievement begun or done (2-3 k rows). */
  accountAchievements: accountDoc(
    "/v2/account/achievements",
    AccountAchievementsSchema,
    "progression",
  ),
  /** `/v2.json`: the API's own list of its endpoints, which `gw2_api` checks paths against. */
  apiList: publicDoc("/v2.json", ApiListSchema, "endpoint list"),
  /** `gw2_api`'s read of a public endpoint: briefly cached, with its paging headers. */
  apiPublic: publicDoc<ApiAnswer, ApiTarget>("/v2/:path", ApiAnswerSchema, "record", {
    freshness: FRESHNESS.passthrough,
    target: apiTarget,
    fromAnswer: apiAnswer,
    maxBytes: API_ANSWER_READ_MAX_BYTES,
  }),
  /** `gw2_api`'s read of an endpoint needing the player's key (at most 5 minutes, its HMAC). */
  apiAccount: accountDoc<ApiAnswer, ApiTarget>("/v2/:path", ApiAnswerSchema, "account", {
    what: "record",
    target: apiTarget,
    fromAnswer: apiAnswer,
    maxBytes: API_ANSWER_READ_MAX_BYTES,
  }),
  // The Trading Post of the account and the gem exchange (issue 27).
  /** The account's open sell listings. */
  tpSelling: accountDoc(
    "/v2/commerce/transactions/current/sells",
    z.array(CurrentOrderSchema),
    "tradingpost",
    { paged: { maxPages: 10 } },
  ),
  /** The account's open buy orders. */
  tpBuying: accountDoc(
    "/v2/commerce/transactions/current/buys",
    z.array(CurrentOrderSchema),
    "tradingpost",
    { paged: { maxPages: 10 } },
  ),
  /** Sales of the last 90 days, newest first (at most `TP_HISTORY_MAX_PAGES` pages). */
  tpSold: accountDoc(
    "/v2/commerce/transactions/history/sells",
    z.array(PastTransactionSchema),
    "tradingpost",
    { paged: { maxPages: TP_HISTORY_MAX_PAGES } },
  ),
  /** Purchases of the last 90 days, newest first. */
  tpBought: accountDoc(
    "/v2/commerce/transactions/history/buys",
    z.array(PastTransactionSchema),
    "tradingpost",
    { paged: { maxPages: TP_HISTORY_MAX_PAGES } },
  ),
  /** The delivery box: coins and items waiting to be picked up. */
  tpDelivery: accountDoc("/v2/commerce/delivery", DeliverySchema, "tradingpost"),
  /** What `quantity` gems sell for, in copper (no key). */
  gemsToCoins: publicDoc<z.infer<typeof GemExchangeSchema>, { quantity: number }>(
    "/v2/commerce/exchange/gems",
    GemExchangeSchema,
    "gem exchange quote",
    { freshness: FRESHNESS.exchange, target: exchangeQuote },
  ),
  /** How many gems `quantity` copper buys (no key). */
  coinsToGems: publicDoc<z.infer<typeof GemExchangeSchema>, { quantity: number }>(
    "/v2/commerce/exchange/coins",
    GemExchangeSchema,
    "gem exchange quote",
    { freshness: FRESHNESS.exchange, target: exchangeQuote },
  ),
  // The resets and the Wizard's Vault (`priory_today`, `priory_wizards_vault`): the catalogues,
  // read whole and kept a day; the season an hour (it turns over every few months); then the
  // account's progress against them.
  dailyCrafting: publicDoc("/v2/dailycrafting", StringIdsSchema, "daily crafting list"),
  worldBosses: publicDoc("/v2/worldbosses", StringIdsSchema, "world boss list"),
  mapChests: publicDoc("/v2/mapchests", StringIdsSchema, "map chest list"),
  raids: publicDoc("/v2/raids", z.array(RaidSchema), "raid", { query: [["ids", "all"]] }),
  dungeons: publicDoc("/v2/dungeons", z.array(DungeonSchema), "dungeon", {
    query: [["ids", "all"]],
  }),
  vaultSeason: publicDoc("/v2/wizardsvault", VaultSeasonSchema, "Wizard's Vault season", {
    freshness: { ttlMs: HOUR, staleForMs: 7 * DAY },
  }),
  vaultListings: publicDoc(
    "/v2/wizardsvault/listings",
    z.array(VaultListingSchema),
    "Wizard's Vault listing",
    { query: [["ids", "all"]] },
  ),
  accountDailyCrafting: accountDoc("/v2/account/dailycrafting", StringIdsSchema, "progression"),
  accountWorldBosses: accountDoc("/v2/account/worldbosses", StringIdsSchema, "progression"),
  accountMapChests: accountDoc("/v2/account/mapchests", StringIdsSchema, "progression"),
  /** Dungeon path ids done since the daily reset. */
  accountDungeons: accountDoc("/v2/account/dungeons", StringIdsSchema, "progression"),
  /** Raid event ids cleared since the weekly reset. */
  accountRaids: accountDoc("/v2/account/raids", StringIdsSchema, "progression"),
  accountVaultDaily: accountDoc(
    "/v2/account/wizardsvault/daily",
    AccountVaultPeriodSchema,
    "progression",
  ),
  accountVaultWeekly: accountDoc(
    "/v2/account/wizardsvault/weekly",
    AccountVaultPeriodSchema,
    "progression",
  ),
  accountVaultSpecial: accountDoc(
    "/v2/account/wizardsvault/special",
    AccountVaultSpecialSchema,
    "progression",
  ),
  accountVaultListings: accountDoc(
    "/v2/account/wizardsvault/listings",
    z.array(AccountVaultListingSchema),
    "progression",
  ),
} as const;

/** The name of a {@linkcode DOCS} row. */
export type DocName = keyof typeof DOCS;

/** What the row `N` reads. */
export type DocValue<N extends DocName> = typeof DOCS[N] extends Doc<infer T, infer _P> ? T
  : never;

/** What a read of the row `N` takes: the player's key when it needs one, and its parameters. */
export type DocArgs<N extends DocName> =
  & (typeof DOCS[N] extends Doc<unknown, never, true> ? { readonly key: string } : unknown)
  & (typeof DOCS[N] extends Doc<infer _T, infer P> ? [P] extends [void] ? unknown : P : never);

/**
 * Every by-id endpoint `gw2.bulk(name, ids)` reads (batched by 200, cached per record,
 * coalesced), by name: adding one is adding a row. The name is its records' cache kind.
 */
export const BULK = {
  /** `/v2/legendaryarmory`: how many of each legendary the armory holds (`max_count`). */
  legendaryArmory: {
    kind: "legendaryArmory",
    path: "/v2/legendaryarmory",
    schema: ArmoryLimitSchema,
    freshness: FRESHNESS.static,
    what: "legendary armory entry",
  },
  // Issue 30: achievements and what their bits name, in the caller's language.
  /** `/v2/achievements`: name, tiers, bits, rewards, prerequisites (prose dropped). */
  achievements: {
    kind: "achievement",
    path: "/v2/achievements",
    schema: AchievementSchema,
    freshness: FRESHNESS.static,
    what: "achievement",
    localized: true,
  },
  /** `/v2/skins`, by name. */
  skins: {
    kind: "skin",
    path: "/v2/skins",
    schema: SkinSchema,
    freshness: FRESHNESS.static,
    what: "skin",
    localized: true,
  },
  /** `/v2/minis`: name and unlocking item. */
  minis: {
    kind: "mini",
    path: "/v2/minis",
    schema: MiniSchema,
    freshness: FRESHNESS.static,
    what: "mini",
    localized: true,
  },
} as const satisfies Record<string, BulkEndpoint<{ readonly id: number }>>;

/** The name of a {@linkcode BULK} row. */
export type BulkName = keyof typeof BULK;

/** The records the row `N` reads. */
export type BulkValue<N extends BulkName> = typeof BULK[N] extends BulkEndpoint<infer T> ? T
  : never;

/** A cache-value parser from a schema: the value, or `undefined` when it no longer fits. */
export function parseWith<T>(schema: z.ZodType<T>): (value: unknown) => T | undefined {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? result.data : undefined;
  };
}
