/**
 * The GW2 client: the one way into the GW2 API. It implements {@linkcode Gw2Client} over a
 * Deno KV cache (one entry per record, freshness checked on read, stale-if-error), coalesced
 * and de-duplicated bulk reads in requests of at most 200 ids, a token bucket in KV shared by
 * every instance, and a transport with timeouts and retries. `withDeadline` hands out views of
 * the one client whose reads end by a tool call's deadline. The player's key is used only in
 * the `Authorization` header; account data is cached under an HMAC of it, whose secret is kept
 * in the same KV (`src/gw2/cache/key_secret.ts`).
 *
 * @module
 */

import { type Clock, systemClock } from "../async/clock.ts";
import type { Deadline } from "../async/deadline.ts";
import { DocCache } from "./cache/doc_cache.ts";
import { KEY_SECRET_BYTES, loadKeySecret } from "./cache/key_secret.ts";
import { Gw2Keys } from "./cache/keys.ts";
import { RecordCache } from "./cache/record_cache.ts";
import { RECORD_MEMORY_ENTRIES } from "./cache/record_memory.ts";
import { KV_TIMEOUT_MS, type KvTimeout, withKvTimeout } from "../kv/timeout.ts";
import { BucketPriority, TokenBucket } from "./token_bucket.ts";
import { describeError, type Logger } from "../log.ts";
import { Counters, type CounterSnapshot } from "../metrics.ts";
import { BulkReader } from "./bulk_reader.ts";
import { DocReader, type DocReaderOptions } from "./doc_reader.ts";
import {
  ACCOUNT_ENDPOINTS,
  CURRENCIES,
  CURRENCY_NAMES,
  type DocEndpoint,
  itemNamesEndpoint,
  ITEMS,
  LISTINGS,
  MATERIAL_NAMES,
  MATERIALS,
  PRICES,
  RECIPE_SEARCH,
  RECIPES,
} from "./endpoints.ts";
import { Gw2KeyRejectedError, Gw2NotFoundError } from "./errors.ts";
import { createKeyHasher, type KeyHasher } from "./key_hash.ts";
import type {
  Account,
  AccountMaterial,
  CharacterBags,
  CharacterInventory,
  Currency,
  Item,
  ItemSlot,
  MaterialCategory,
  Named,
  OrderBook,
  Price,
  Recipe,
  TokenInfo,
  WalletEntry,
} from "./schemas.ts";
import {
  type CatalogueItem,
  CatalogueItemSchema,
  type CatalogueRecipe,
  CatalogueRecipeSchema,
  PriceSchema,
} from "./schemas.ts";
import { type FetchFn, Transport } from "./transport.ts";
import { PageReader } from "./page_reader.ts";
import type {
  BoundableGw2Client,
  BulkRead,
  Fresh,
  Gw2Client,
  Gw2PagedReads,
  Lang,
  Page,
  RecipeSearchQuery,
} from "./types.ts";
import { LANGUAGES } from "./types.ts";

export { BucketPriority };

/** Options of {@linkcode createGw2Client}. Plain values; `main.ts` wires them from the config. */
export interface Gw2ClientOptions {
  /** Upstream base URL without a trailing slash (`GW2_API_BASE`). */
  readonly baseUrl: string;
  /** The KV holding the cache, the shared token bucket and the secret of the key HMAC. */
  readonly kv: Deno.Kv;
  readonly clock: Clock;
  readonly log: Logger;
  /** The shared upstream budget (`GW2_RATE_BURST`, `GW2_RATE_PER_SEC`). */
  readonly rate: { readonly burst: number; readonly perSec: number };
  /** @default globalThis.fetch */
  readonly fetch?: FetchFn;
  /** Per-attempt timeout (a call's deadline may cut an attempt shorter). @default 10000 */
  readonly timeoutMs?: number;
  /** Retries of a transient failure after the first attempt. @default 2 */
  readonly maxRetries?: number;
  /**
   * Longest wait for the token bucket or a 429's `Retry-After`. A read under a deadline also
   * stops waiting while the deadline still leaves room for an attempt, so for tool calls the
   * deadline is the bound: a 45 s ranking may queue for budget longer than a 15 s call.
   * @default 60000
   */
  readonly maxRateWaitMs?: number;
  /**
   * Coalescing window for bulk reads, on `clock`: a batch waits this long after its last caller
   * joined; 0 means the same tick only. @default 2
   */
  readonly coalesceWindowMs?: number;
  /** The longest a bulk batch gathers callers, however many keep coming. @default 25 */
  readonly coalesceMaxMs?: number;
  /**
   * Upstream requests of one bulk batch in flight at once: 8 sends the warm set's or a ranking's
   * ~1,100 ids (6 requests) in one round trip. @default 8
   */
  readonly maxParallelRequests?: number;
  /**
   * Ids per bulk endpoint (items, recipes, prices; order books at most 1,000) whose latest entry
   * this process keeps in memory in front of KV, still judged by its own `fetchedAt` on every
   * read; 0 keeps none. @default 2500 (`RECORD_MEMORY_ENTRIES`)
   */
  readonly memoryRecords?: number;
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number;
  /**
   * Write-through hook: called with the item records (or item names, in another language) of
   * every upstream answer and their language, after they are cached (not for cache hits), and
   * awaited up to the KV bound (`kvTimeoutMs`): it writes to KV, and a stalled write must not
   * hold the read's callers. The name index (`src/search/`) is fed this way. A rejection or a
   * timeout is logged and never fails the read.
   */
  readonly onItemsFetched?: (items: readonly CatalogueItem[], lang: Lang) => Promise<void>;
  /**
   * Answers a price read from memory when it can: the market sheet while it is fresh
   * (`src/market/sheets.ts`, `MarketSheets.prices`), so every price read - trees, `gw2_prices`,
   * the warm-up's - prices from the same snapshot of the whole Trading Post; `undefined` sends
   * the read on to the cache and upstream as usual. Counted as cache hits.
   */
  readonly priceSheet?: (ids: readonly number[]) => BulkRead<Price> | undefined;
  /**
   * Makes this a background client (warm-up, catalogue crawl) over the same KV cache and bucket:
   * it leaves `reserveTokens` of the shared bucket to interactive calls, and re-reads cached
   * records and searches that would expire within `refreshAheadMs`, so data it warms never
   * lapses between two runs.
   */
  readonly background?: {
    readonly reserveTokens: number;
    readonly refreshAheadMs: number;
    /**
     * Awaited before each of its requests takes a token: resolves once no interactive call is
     * in flight (or after a bound), so interactive reads go first (`Foreground.idle`).
     */
    readonly giveWay?: () => Promise<void>;
  };
  /**
   * Shared by the process's clients (give every one the same instance): a background client's
   * takes of the budget give way while an interactive client's take waits for a refill.
   */
  readonly priority?: BucketPriority;
  /** Bound of each KV operation (cache lookup or write, budget take). @default 2000 */
  readonly kvTimeoutMs?: number;
  /**
   * The clock of those bounds: real time by default, whatever `clock` is (see
   * `src/kv/timeout.ts`); a test of the bound passes its manual clock.
   */
  readonly kvClock?: Clock;
}

/**
 * A {@linkcode BoundableGw2Client} with the counters the benchmark reads, and the paged reads
 * (the crawl, the catalogue's fill, the market sheet).
 */
export interface InstrumentedGw2Client extends BoundableGw2Client, Gw2PagedReads {
  /** Counters since creation (or the last reset). */
  stats(): CounterSnapshot;
  /** Sets every counter back to zero. */
  resetStats(): void;
  /** Tokens left in the shared bucket (a strong KV read). */
  bucketLevel(): Promise<number>;
}

/**
 * Creates the GW2 client.
 *
 * @example
 * ```ts
 * const gw2 = createGw2Client({
 *   baseUrl: config.gw2ApiBase,
 *   kv,
 *   clock: systemClock,
 *   log,
 *   rate: { burst: config.rateBurst, perSec: config.ratePerSec },
 * });
 * const { found, missingIds } = await gw2.items([19721, 19976]);
 * ```
 */
export function createGw2Client(options: Gw2ClientOptions): InstrumentedGw2Client {
  return new KvGw2Client(options);
}

/**
 * How much arrival lag the spare tokens absorb: a request is counted when we decide to send it
 * and by upstream when it arrives, after a KV commit, a network hop and - on a busy process -
 * an event-loop delay. 100 ms (one token at 10/s) was measured to be exceeded under the bench's
 * burst of 200 calls in flight on two cores (a peak of 10.2 against a burst of 10, one 429).
 */
const ARRIVAL_LAG_S = 0.25;

/** Order books this process holds in memory in front of KV, however short they are. */
const BOOK_MEMORY_ENTRIES = 1_000;

/**
 * Sell levels those books hold together: a level is ~ 75 bytes of heap, and a book holds up to
 * 1,000 of them, so a count alone would allow ~ 75 MB; 100,000 levels are ~ 7.5 MB - every book
 * a ranking over every legendary reads, at the fake's depth (at most 40 levels), or a hundred
 * books at the level cap.
 */
const BOOK_MEMORY_LEVELS = 100_000;

/**
 * The capacity our bucket runs with: a few tokens under upstream's burst - as many as upstream
 * refills during {@linkcode ARRIVAL_LAG_S}, at least one. If upstream's bucket sits full while
 * our decided requests are still on their way, it forgoes the refill ours counted, and at exact
 * saturation the next request would meet a 429. With the defaults (300 + 5/s) that is 2 of 300
 * burst tokens; the sustained rate is unchanged.
 */
export function bucketCapacity(burst: number, perSec: number): number {
  const spare = Math.max(1, Math.ceil(perSec * ARRIVAL_LAG_S));
  return Math.max(1, burst - spare);
}

type AccountReaders = { [Doc in keyof typeof ACCOUNT_ENDPOINTS]: DocReader<AccountValue<Doc>> };
type AccountValue<Doc extends keyof typeof ACCOUNT_ENDPOINTS> =
  typeof ACCOUNT_ENDPOINTS[Doc] extends DocEndpoint<infer T> ? T : never;

class KvGw2Client implements InstrumentedGw2Client {
  readonly #keys: Gw2Keys;
  readonly #counters = new Counters();
  readonly #bucket: TokenBucket;
  readonly #hasher: KeyHasher;
  /** Used only while KV cannot yield the shared secret: this process's own, random. */
  readonly #localHasher: KeyHasher;
  readonly #log: Logger;
  readonly #items: BulkReader<Item>;
  readonly #recipes: BulkReader<Recipe>;
  readonly #prices: BulkReader<Price>;
  readonly #listings: BulkReader<OrderBook>;
  readonly #materials: DocReader<MaterialCategory[]>;
  readonly #currencies: DocReader<Currency[]>;
  /** Item names in each language but English (whose are the items'). */
  readonly #itemNames: ReadonlyMap<Lang, BulkReader<CatalogueItem>>;
  readonly #materialNames: DocReader<Named[]>;
  readonly #currencyNames: DocReader<Named[]>;
  readonly #search: DocReader<number[]>;
  readonly #account: AccountReaders;
  readonly #itemPages: PageReader<CatalogueItem>;
  readonly #recipePages: PageReader<CatalogueRecipe>;
  readonly #pricePages: PageReader<Price>;
  readonly #priceSheet: ((ids: readonly number[]) => BulkRead<Price> | undefined) | undefined;

  constructor(options: Gw2ClientOptions) {
    const random = options.random ?? Math.random;
    this.#keys = new Gw2Keys(options.baseUrl);
    this.#log = options.log;
    const kvTimeout: KvTimeout = {
      ms: options.kvTimeoutMs ?? KV_TIMEOUT_MS,
      clock: options.kvClock ?? systemClock,
    };
    const secretKey = this.#keys.keySecret();
    this.#hasher = createKeyHasher(() =>
      loadKeySecret({
        kv: options.kv,
        key: secretKey,
        clock: options.clock,
        random,
        timeout: kvTimeout,
      })
    );
    const localSecret = crypto.getRandomValues(new Uint8Array(KEY_SECRET_BYTES));
    this.#localHasher = createKeyHasher(() => Promise.resolve(localSecret));
    this.#bucket = new TokenBucket({
      kv: options.kv,
      key: this.#keys.bucket(),
      burst: bucketCapacity(options.rate.burst, options.rate.perSec),
      perSec: options.rate.perSec,
      clock: options.clock,
      random,
      timeout: kvTimeout,
      log: options.log,
      ...(options.background === undefined ? {} : { reserve: options.background.reserveTokens }),
      ...(options.priority === undefined ? {} : { priority: options.priority }),
      yields: options.background !== undefined,
    });
    const transport = new Transport({
      baseUrl: options.baseUrl,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      clock: options.clock,
      log: options.log,
      bucket: this.#bucket,
      counters: this.#counters,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxRetries: options.maxRetries ?? 2,
      maxRateWaitMs: options.maxRateWaitMs ?? 60_000,
      random,
      ...(options.background?.giveWay === undefined ? {} : { giveWay: options.background.giveWay }),
    });
    const shared = {
      transport,
      clock: options.clock,
      log: options.log,
      counters: this.#counters,
      refreshAheadMs: options.background?.refreshAheadMs ?? 0,
    };
    const bulk = {
      ...shared,
      records: new RecordCache(options.kv, this.#keys, options.log, kvTimeout),
      windowMs: options.coalesceWindowMs ?? 2,
      maxWindowMs: options.coalesceMaxMs ?? 25,
      maxParallelRequests: options.maxParallelRequests ?? 8,
      memoryEntries: options.memoryRecords ?? RECORD_MEMORY_ENTRIES,
    };
    const onItemsFetched = options.onItemsFetched;
    const observed = (lang: Lang) =>
      onItemsFetched === undefined ? {} : {
        onFetched: (items: readonly CatalogueItem[]) =>
          withKvTimeout(kvTimeout, () => onItemsFetched(items, lang)),
      };
    this.#items = new BulkReader(ITEMS, { ...bulk, ...observed("en") });
    // Names in other languages: the name index is their in-memory copy, so none is kept here.
    this.#itemNames = new Map(
      LANGUAGES.filter((lang) => lang !== "en").map((lang) => [
        lang,
        new BulkReader(itemNamesEndpoint(lang), { ...bulk, memoryEntries: 0, ...observed(lang) }),
      ]),
    );
    this.#recipes = new BulkReader(RECIPES, bulk);
    this.#prices = new BulkReader(PRICES, bulk);
    // A book is larger than a price (up to ~ 14 KB): fewer of them are held in memory.
    this.#listings = new BulkReader(LISTINGS, {
      ...bulk,
      memoryEntries: Math.min(bulk.memoryEntries, BOOK_MEMORY_ENTRIES),
      memoryWeight: {
        max: BOOK_MEMORY_LEVELS,
        weigh: (book) => 1 + book.sells.length + (book.buys?.length ?? 0),
      },
    });
    const docs: DocReaderOptions = {
      ...shared,
      docs: new DocCache(options.kv, this.#keys, options.log, kvTimeout),
    };
    this.#materials = new DocReader(MATERIALS, docs);
    this.#currencies = new DocReader(CURRENCIES, docs);
    this.#materialNames = new DocReader(MATERIAL_NAMES, docs);
    this.#currencyNames = new DocReader(CURRENCY_NAMES, docs);
    this.#search = new DocReader(RECIPE_SEARCH, docs);
    this.#account = {
      account: new DocReader(ACCOUNT_ENDPOINTS.account, docs),
      account_materials: new DocReader(ACCOUNT_ENDPOINTS.account_materials, docs),
      account_wallet: new DocReader(ACCOUNT_ENDPOINTS.account_wallet, docs),
      account_bank: new DocReader(ACCOUNT_ENDPOINTS.account_bank, docs),
      account_inventory: new DocReader(ACCOUNT_ENDPOINTS.account_inventory, docs),
      account_recipes: new DocReader(ACCOUNT_ENDPOINTS.account_recipes, docs),
      characters: new DocReader(ACCOUNT_ENDPOINTS.characters, docs),
      characters_all: new DocReader(ACCOUNT_ENDPOINTS.characters_all, docs),
      character_inventory: new DocReader(ACCOUNT_ENDPOINTS.character_inventory, docs),
      tokeninfo: new DocReader(ACCOUNT_ENDPOINTS.tokeninfo, docs),
    };
    this.#itemPages = new PageReader(ITEMS.path, CatalogueItemSchema, transport);
    this.#recipePages = new PageReader(RECIPES.path, CatalogueRecipeSchema, transport);
    this.#pricePages = new PageReader(PRICES.path, PriceSchema, transport);
    this.#priceSheet = options.priceSheet;
  }

  withDeadline(deadline: Deadline): Gw2Client {
    return new DeadlineView(this, deadline);
  }

  // Each read takes an optional deadline, which only `DeadlineView` passes.

  items(ids: readonly number[], deadline?: Deadline): Promise<BulkRead<Item>> {
    return this.#items.read(ids, deadline);
  }

  async itemNames(
    ids: readonly number[],
    lang: Lang,
    deadline?: Deadline,
  ): Promise<BulkRead<CatalogueItem>> {
    const reader = this.#itemNames.get(lang);
    if (reader !== undefined) return await reader.read(ids, deadline);
    const read = await this.#items.read(ids, deadline);
    return {
      ...read,
      found: read.found.map(({ id, name, rarity, type }) => ({ id, name, rarity, type })),
    };
  }

  recipes(ids: readonly number[], deadline?: Deadline): Promise<BulkRead<Recipe>> {
    return this.#recipes.read(ids, deadline);
  }

  prices(ids: readonly number[], deadline?: Deadline): Promise<BulkRead<Price>> {
    const sheet = ids.length === 0 ? undefined : this.#priceSheet?.(ids);
    if (sheet === undefined) return this.#prices.read(ids, deadline);
    this.#counters.add("cacheHits", sheet.found.length + sheet.missingIds.length);
    this.#counters.add("memoryHits", sheet.found.length + sheet.missingIds.length);
    return Promise.resolve(sheet);
  }

  listings(ids: readonly number[], deadline?: Deadline): Promise<BulkRead<OrderBook>> {
    return this.#listings.read(ids, deadline);
  }

  async searchRecipes(
    query: RecipeSearchQuery,
    deadline?: Deadline,
  ): Promise<Fresh<readonly number[]>> {
    const [direction, itemId] = "input" in query
      ? ["input", query.input] as const
      : ["output", query.output] as const;
    // No id can match a non-positive or fractional item id; do not spend a request on it.
    if (!Number.isSafeInteger(itemId) || itemId <= 0) return { value: [] };
    return await this.#search.read({
      cacheKey: this.#keys.search(direction, itemId),
      path: RECIPE_SEARCH.endpoint,
      query: [[direction, String(itemId)]],
      what: "item",
    }, deadline);
  }

  materials(lang: Lang = "en", deadline?: Deadline): Promise<Fresh<readonly MaterialCategory[]>> {
    return this.#listIn(lang, this.#materials, this.#materialNames, {
      list: "materials",
      path: MATERIALS.endpoint,
      what: "material category",
    }, deadline);
  }

  currencies(lang: Lang = "en", deadline?: Deadline): Promise<Fresh<readonly Currency[]>> {
    return this.#listIn(lang, this.#currencies, this.#currencyNames, {
      list: "currencies",
      path: CURRENCIES.endpoint,
      what: "currency",
    }, deadline);
  }

  /**
   * A whole localized list (`ids=all`) in `lang`: the English records (`lang=en`, sent
   * explicitly), and in another language their names laid over them from that language's list.
   */
  #listIn<T extends { readonly id: number; readonly name: string }>(
    lang: Lang,
    records: DocReader<T[]>,
    names: DocReader<Named[]>,
    list: {
      readonly list: "materials" | "currencies";
      readonly path: string;
      readonly what: string;
    },
    deadline: Deadline | undefined,
  ): Promise<Fresh<readonly T[]>> {
    const request = (language: Lang): Parameters<DocReader<Named[]>["read"]>[0] => ({
      cacheKey: this.#keys.list(list.list, language),
      path: list.path,
      query: [["ids", "all"], ["lang", language]],
      what: list.what,
    });
    const english = records.read(request("en"), deadline);
    return lang === "en" ? english : this.#renamed(english, names, request(lang), deadline);
  }

  /**
   * The English records of `english`, each named as the localized list says (a record it lacks
   * keeps its English name); the older of the two ages when either was served stale.
   */
  async #renamed<T extends { readonly id: number; readonly name: string }>(
    english: Promise<Fresh<readonly T[]>>,
    names: DocReader<Named[]>,
    request: Parameters<DocReader<Named[]>["read"]>[0],
    deadline: Deadline | undefined,
  ): Promise<Fresh<readonly T[]>> {
    const [records, localized] = await Promise.all([english, names.read(request, deadline)]);
    const byId = new Map(localized.value.map((entry) => [entry.id, entry.name]));
    const value = records.value.map((record) => {
      const name = byId.get(record.id);
      return name === undefined ? record : { ...record, name };
    });
    const staleAgeMs = Math.max(records.staleAgeMs ?? -1, localized.staleAgeMs ?? -1);
    return staleAgeMs < 0 ? { value } : { value, staleAgeMs };
  }

  account(key: string, deadline?: Deadline): Promise<Fresh<Account>> {
    return this.#accountRead(key, "account", deadline);
  }

  accountMaterials(key: string, deadline?: Deadline): Promise<Fresh<readonly AccountMaterial[]>> {
    return this.#accountRead(key, "account_materials", deadline);
  }

  accountWallet(key: string, deadline?: Deadline): Promise<Fresh<readonly WalletEntry[]>> {
    return this.#accountRead(key, "account_wallet", deadline);
  }

  accountBank(key: string, deadline?: Deadline): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#accountRead(key, "account_bank", deadline);
  }

  accountInventory(
    key: string,
    deadline?: Deadline,
  ): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#accountRead(key, "account_inventory", deadline);
  }

  accountRecipes(key: string, deadline?: Deadline): Promise<Fresh<readonly number[]>> {
    return this.#accountRead(key, "account_recipes", deadline);
  }

  characters(key: string, deadline?: Deadline): Promise<Fresh<readonly string[]>> {
    return this.#accountRead(key, "characters", deadline);
  }

  async characterBags(
    key: string,
    deadline?: Deadline,
  ): Promise<Fresh<readonly CharacterBags[]>> {
    const hash = await this.#hashKey(key);
    return await this.#account.characters_all.read({
      cacheKey: this.#keys.account(hash, "characters_all"),
      path: ACCOUNT_ENDPOINTS.characters_all.endpoint,
      query: [["ids", "all"]],
      key,
      what: "account record",
    }, deadline);
  }

  async characterInventory(
    key: string,
    name: string,
    deadline?: Deadline,
  ): Promise<Fresh<CharacterInventory>> {
    if (name.trim() === "") throw new Gw2NotFoundError([], "character");
    const hash = await this.#hashKey(key);
    return await this.#account.character_inventory.read({
      cacheKey: this.#keys.account(hash, "character_inventory", name),
      path: `/v2/characters/${encodeURIComponent(name)}/inventory`,
      key,
      what: "character",
    }, deadline);
  }

  tokenInfo(key: string, deadline?: Deadline): Promise<Fresh<TokenInfo>> {
    return this.#accountRead(key, "tokeninfo", deadline);
  }

  itemsPage(
    page: number,
    pageSize: number,
    deadline?: Deadline,
    lang: Lang = "en",
  ): Promise<Page<CatalogueItem>> {
    return this.#itemPages.read(page, pageSize, deadline, [["lang", lang]]);
  }

  recipesPage(
    page: number,
    pageSize: number,
    deadline?: Deadline,
  ): Promise<Page<CatalogueRecipe>> {
    return this.#recipePages.read(page, pageSize, deadline);
  }

  pricesPage(page: number, pageSize: number, deadline?: Deadline): Promise<Page<Price>> {
    return this.#pricePages.read(page, pageSize, deadline);
  }

  stats(): CounterSnapshot {
    return this.#counters.snapshot();
  }

  resetStats(): void {
    this.#counters.reset();
  }

  bucketLevel(): Promise<number> {
    return this.#bucket.level();
  }

  async #accountRead<
    Doc extends Exclude<keyof AccountReaders, "character_inventory" | "characters_all">,
  >(
    key: string,
    doc: Doc,
    deadline: Deadline | undefined,
  ): Promise<Fresh<AccountValue<Doc>>> {
    const hash = await this.#hashKey(key);
    const reader: DocReader<AccountValue<Doc>> = this.#account[doc];
    return await reader.read({
      cacheKey: this.#keys.account(hash, doc),
      path: ACCOUNT_ENDPOINTS[doc].endpoint,
      key,
      what: "account record",
    }, deadline);
  }

  /**
   * The key's cache identity; an empty key is rejected without asking upstream. While KV cannot
   * yield the shared secret, a process-local one stands in: account entries are then not
   * shared with other instances, but the call still works.
   */
  async #hashKey(key: string): Promise<string> {
    if (key.trim() === "") throw new Gw2KeyRejectedError();
    try {
      return await this.#hasher.hash(key);
    } catch (error) {
      this.#log.warn("key-hash secret unavailable, using a process-local one", {
        error: describeError(error),
      });
      return await this.#localHasher.hash(key);
    }
  }
}

/**
 * The client seen by one tool call: every read of the one client, with the call's deadline.
 * Shares everything (cache, coalescers, budget, counters); costs one small object per call.
 */
class DeadlineView implements Gw2Client {
  readonly #client: KvGw2Client;
  readonly #deadline: Deadline;

  constructor(client: KvGw2Client, deadline: Deadline) {
    this.#client = client;
    this.#deadline = deadline;
  }

  items(ids: readonly number[]): Promise<BulkRead<Item>> {
    return this.#client.items(ids, this.#deadline);
  }
  itemNames(ids: readonly number[], lang: Lang): Promise<BulkRead<CatalogueItem>> {
    return this.#client.itemNames(ids, lang, this.#deadline);
  }
  recipes(ids: readonly number[]): Promise<BulkRead<Recipe>> {
    return this.#client.recipes(ids, this.#deadline);
  }
  prices(ids: readonly number[]): Promise<BulkRead<Price>> {
    return this.#client.prices(ids, this.#deadline);
  }
  listings(ids: readonly number[]): Promise<BulkRead<OrderBook>> {
    return this.#client.listings(ids, this.#deadline);
  }
  searchRecipes(query: RecipeSearchQuery): Promise<Fresh<readonly number[]>> {
    return this.#client.searchRecipes(query, this.#deadline);
  }
  materials(lang?: Lang): Promise<Fresh<readonly MaterialCategory[]>> {
    return this.#client.materials(lang, this.#deadline);
  }
  currencies(lang?: Lang): Promise<Fresh<readonly Currency[]>> {
    return this.#client.currencies(lang, this.#deadline);
  }
  account(key: string): Promise<Fresh<Account>> {
    return this.#client.account(key, this.#deadline);
  }
  accountMaterials(key: string): Promise<Fresh<readonly AccountMaterial[]>> {
    return this.#client.accountMaterials(key, this.#deadline);
  }
  accountWallet(key: string): Promise<Fresh<readonly WalletEntry[]>> {
    return this.#client.accountWallet(key, this.#deadline);
  }
  accountBank(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#client.accountBank(key, this.#deadline);
  }
  accountInventory(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#client.accountInventory(key, this.#deadline);
  }
  accountRecipes(key: string): Promise<Fresh<readonly number[]>> {
    return this.#client.accountRecipes(key, this.#deadline);
  }
  characters(key: string): Promise<Fresh<readonly string[]>> {
    return this.#client.characters(key, this.#deadline);
  }
  characterBags(key: string): Promise<Fresh<readonly CharacterBags[]>> {
    return this.#client.characterBags(key, this.#deadline);
  }
  characterInventory(key: string, name: string): Promise<Fresh<CharacterInventory>> {
    return this.#client.characterInventory(key, name, this.#deadline);
  }
  tokenInfo(key: string): Promise<Fresh<TokenInfo>> {
    return this.#client.tokenInfo(key, this.#deadline);
  }
}
