/**
 * The GW2 client's public face: what every other module may ask of upstream. The
 * implementation (`client.ts`) batches, coalesces, caches in Deno KV, spends the shared token
 * bucket and retries; callers see only these reads and the error taxonomy in `errors.ts`.
 *
 * @module
 */

import type { Deadline } from "../async/deadline.ts";
import type {
  Account,
  AccountMaterial,
  CatalogueItem,
  CatalogueRecipe,
  CharacterBags,
  CharacterInventory,
  Currency,
  Item,
  ItemSlot,
  MaterialCategory,
  OrderBook,
  Price,
  Recipe,
  TokenInfo,
  WalletEntry,
} from "./schemas.ts";

/**
 * The languages GW2 names things in (the API's `lang` parameter), English first: the API's
 * default and this server's. Only names are localized; ids, rarities, types and every number
 * are the same in each.
 */
export const LANGUAGES = ["en", "de", "fr", "es", "zh"] as const;
/** One of {@linkcode LANGUAGES}. */
export type Lang = typeof LANGUAGES[number];

/**
 * A single read. `staleAgeMs` is present only when upstream failed and an expired cache entry
 * was served instead (stale-if-error); it is that entry's age.
 */
export interface Fresh<T> {
  readonly value: T;
  readonly staleAgeMs?: number;
}

/**
 * A bulk read by ids. `found` holds the records upstream knows, in the order their ids were
 * first requested, without duplicates; `missingIds` the requested ids it does not know (a 206
 * or 404 is not an error). `staleAgeMs` is the age of the oldest record served stale, present
 * only when some were.
 */
export interface BulkRead<T> {
  readonly found: readonly T[];
  readonly missingIds: readonly number[];
  readonly staleAgeMs?: number;
}

/** `/v2/recipes/search`: exactly one of an input or an output item id. */
export type RecipeSearchQuery = { readonly input: number } | { readonly output: number };

/**
 * Every upstream read the project performs. Reads taking `key` authenticate with the player's
 * GW2 API key, which is never logged, returned or stored (cache entries are keyed by an HMAC
 * of it). All methods reject only with a `Gw2Failure` (see `errors.ts`).
 */
export interface Gw2Client {
  /** Items in English (`lang=en` is always sent). */
  items(ids: readonly number[]): Promise<BulkRead<Item>>;
  /**
   * Item names in `lang` (`/v2/items?lang=`), with the rarity and type: only names are
   * localized, so no other field of an item is kept per language. For `en`, those of `items`.
   */
  itemNames(ids: readonly number[], lang: Lang): Promise<BulkRead<CatalogueItem>>;
  recipes(ids: readonly number[]): Promise<BulkRead<Recipe>>;
  prices(ids: readonly number[]): Promise<BulkRead<Price>>;
  /**
   * `/v2/commerce/listings`, kept bounded (the sell levels a plan could need, the best buy
   * level). A book upstream cannot return - a 502 for that id alone, as the real API answers
   * for some huge books - comes back `unread` instead of failing the read.
   */
  listings(ids: readonly number[]): Promise<BulkRead<OrderBook>>;
  searchRecipes(query: RecipeSearchQuery): Promise<Fresh<readonly number[]>>;
  /** The material categories, named in `lang` (English by default; see `currencies`). */
  materials(lang?: Lang): Promise<Fresh<readonly MaterialCategory[]>>;
  /**
   * Every currency, named in `lang` (English by default): the English records, each with its
   * name from `?lang=` (only the names are read and kept per language; a currency that list
   * lacks keeps its English name).
   */
  currencies(lang?: Lang): Promise<Fresh<readonly Currency[]>>;
  account(key: string): Promise<Fresh<Account>>;
  accountMaterials(key: string): Promise<Fresh<readonly AccountMaterial[]>>;
  accountWallet(key: string): Promise<Fresh<readonly WalletEntry[]>>;
  accountBank(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>>;
  accountInventory(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>>;
  /** `/v2/account/recipes`: the ids of the recipes the account has learned (scope `unlocks`). */
  accountRecipes(key: string): Promise<Fresh<readonly number[]>>;
  characters(key: string): Promise<Fresh<readonly string[]>>;
  /**
   * Every character with its bags and crafting disciplines in one request
   * (`/v2/characters?ids=all`); `bags` is absent on each when the key lacks the `inventories`
   * scope.
   */
  characterBags(key: string): Promise<Fresh<readonly CharacterBags[]>>;
  characterInventory(key: string, name: string): Promise<Fresh<CharacterInventory>>;
  tokenInfo(key: string): Promise<Fresh<TokenInfo>>;
  /**
   * Optional - answered by a view over the recipe catalogue (`src/catalogue/recipe_lookup.ts`),
   * not by the client itself: every official recipe making each of `outputIds` (ascending id; an
   * item none makes maps to an empty list), as `searchRecipes({output})` then `recipes(ids)`
   * would give them reduced to output, count and ingredients, in one lookup - the catalogue
   * filled first when none is usable. `undefined` when it cannot answer: search instead.
   */
  officialRecipes?(
    outputIds: readonly number[],
  ): Promise<ReadonlyMap<number, readonly CatalogueRecipe[]> | undefined>;
}

/**
 * The process's one client, which also hands out call-scoped views. A tool call's reads go
 * through `withDeadline(deadline)`, so a handler that calls `deps.gw2.items(ids)` is bounded by
 * its call's deadline without knowing it.
 */
export interface BoundableGw2Client extends Gw2Client {
  /**
   * A view of this client (same cache, coalescing, budget and counters) whose every read gives
   * up when `deadline` passes: it then answers from an expired cache entry when it may
   * (stale-if-error), else rejects with a `Gw2Failure` saying why (a timeout, rate limited, ...).
   * Work shared with other callers goes on while any of them still waits.
   */
  withDeadline(deadline: Deadline): Gw2Client;
}

/**
 * One page of a collection (`?page=&page_size=`): the records that validated, how many did not
 * (skipped, so one odd record cannot stall a crawl), the collection's page count
 * (`X-Page-Total`) and, when upstream sent it, its record count (`X-Result-Total`).
 */
export interface Page<T> {
  readonly records: readonly T[];
  readonly skipped: number;
  readonly pageTotal: number;
  readonly resultTotal?: number;
}

/**
 * Whole-collection reads: the background catalogue crawl, the recipe catalogue's fill and the
 * market sheet (`src/market/`). Pages are not cached: each caller keeps only what it needs, in
 * its own layout, and passes its own deadline with each read.
 */
export interface Gw2PagedReads {
  /**
   * `/v2/items?page=&page_size=&lang=`: id, name (in `lang`, English by default), rarity and
   * type of each item, until `deadline`.
   */
  itemsPage(
    page: number,
    pageSize: number,
    deadline?: Deadline,
    lang?: Lang,
  ): Promise<Page<CatalogueItem>>;
  /** `/v2/recipes?page=&page_size=`: id, output and ingredients of each recipe, until `deadline`. */
  recipesPage(
    page: number,
    pageSize: number,
    deadline?: Deadline,
  ): Promise<Page<CatalogueRecipe>>;
  /**
   * `/v2/commerce/prices?page=&page_size=`: the best buy and sell of every tradeable item
   * (~27,000 on the real API: 135 pages of 200), until `deadline`.
   */
  pricesPage(page: number, pageSize: number, deadline?: Deadline): Promise<Page<Price>>;
}
