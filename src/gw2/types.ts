/**
 * The GW2 client's public face: what every other module may ask of upstream. The
 * implementation (`client.ts`) batches, coalesces, caches in Deno KV, spends the shared token
 * bucket and retries; callers see only these reads and the error taxonomy in `errors.ts`.
 *
 * @module
 */

import type { Deadline } from "../async/deadline.ts";
import type { BulkName, BulkValue, DocArgs, DocName, DocValue } from "./endpoints.ts";
import type {
  CatalogueItem,
  CatalogueRecipe,
  Currency,
  Item,
  MaterialCategory,
  OrderBook,
  Price,
  Recipe,
} from "./schemas.ts";

export type { BulkName, BulkValue, DocArgs, DocName, DocValue };

/**
 * The languages GW2 names things in (the API's `lang` parameter), English first: the API's
 * default and this server's. Only names are localized; ids, rarities, types and every number
 * are the same in each.
 */
export const LANGUAGES = ["en", "de", "fr", "es", "zh"] as const;
/** One of {@linkcode LANGUAGES}. */
export type Lang = typeof LANGUAGES[number];

/**
 * How long a cached answer of an endpoint is fresh, and how long after that it may still be
 * served stale (only when upstream fails): each endpoint row names its own (`endpoints.ts`).
 */
export interface Freshness {
  readonly ttlMs: number;
  readonly staleForMs: number;
}

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
 * of it). All methods reject only with a `Gw2Failure` (see `errors.ts`). Each read is bounded by
 * the deadline of the work it runs in (`withinDeadline`, `src/async/deadline.ts`): a tool call's
 * reads end by the call's deadline without passing it along.
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
  /**
   * Any document endpoint of the `DOCS` table (`endpoints.ts`), public or the player's: one
   * request, or every page of a collection, validated and cached whole. A row that reads the
   * player's account takes `args.key`: it authenticates that read only, and its answer is cached
   * at most 5 minutes under an HMAC of the key, never under the key.
   *
   * @example
   * ```ts
   * const wallet = await gw2.doc("accountWallet", { key });
   * const bags = await gw2.doc("characterInventory", { key, name: "Zojja" });
   * ```
   */
  doc<N extends DocName>(name: N, ...args: DocArgList<N>): Promise<Fresh<DocValue<N>>>;
  /**
   * Any by-id endpoint of the `BULK` table (`endpoints.ts`), read as `items` is: batched by 200,
   * coalesced with concurrent reads, cached per record.
   */
  bulk<N extends BulkName>(name: N, ids: readonly number[]): Promise<BulkRead<BulkValue<N>>>;
  /**
   * Optional - answered from the recipe catalogue when the client has one (its `recipeIndex`,
   * `src/catalogue/recipe_lookup.ts`): every official recipe making each of `outputIds`
   * (ascending id; an item none makes maps to an empty list), as `searchRecipes({output})` then
   * `recipes(ids)` would give them reduced to output, count and ingredients, in one lookup - the
   * catalogue filled first when none is usable. `undefined` when it cannot answer: search instead.
   */
  officialRecipes?(
    outputIds: readonly number[],
  ): Promise<ReadonlyMap<number, readonly CatalogueRecipe[]> | undefined>;
}

/**
 * What a read of the `DOCS` row `N` takes, as arguments: nothing for a public row without
 * parameters, else one object with the player's key and the row's parameters.
 */
export type DocArgList<N extends DocName> = Record<never, never> extends DocArgs<N>
  ? [args?: DocArgs<N>]
  : [args: DocArgs<N>];

/**
 * Where the client's recipe lookups come from before upstream: the recipe catalogue
 * (`src/catalogue/recipe_lookup.ts`), given to the client by `main.ts`. Each answer is
 * `undefined` when the catalogue cannot give it; the client then asks upstream.
 */
export interface RecipeIndex {
  /** The recipe ids a search would give, from the catalogue; bounded by `deadline`. */
  search(query: RecipeSearchQuery, deadline?: Deadline): Promise<readonly number[] | undefined>;
  /** The official recipes making each of `outputIds` (see `Gw2Client.officialRecipes`). */
  recipesMaking(
    outputIds: readonly number[],
    deadline?: Deadline,
  ): Promise<ReadonlyMap<number, readonly CatalogueRecipe[]> | undefined>;
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
