/**
 * The GW2 client: the one way into the GW2 API. It implements {@linkcode Gw2Client} over a
 * Deno KV cache (one entry per record, freshness checked on read, stale-if-error), coalesced
 * and de-duplicated bulk reads in requests of at most 200 ids, a token bucket in KV shared by
 * every instance, and a transport with timeouts and retries. Each read ends by the deadline of
 * the work it runs in (`withinDeadline`): a tool call's, a job's. The player's key is used only in
 * the `Authorization` header; account data is cached under an HMAC of it, whose secret is kept
 * in the same KV (`src/gw2/cache/key_secret.ts`).
 *
 * @module
 */

import { type Clock, systemClock } from "../async/clock.ts";
import { currentDeadline, type Deadline, unlessAborted } from "../async/deadline.ts";
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
  type AnyDoc,
  BULK,
  type BulkEndpoint,
  CURRENCIES,
  CURRENCY_NAMES,
  DOCS,
  itemNamesEndpoint,
  ITEMS,
  LISTINGS,
  MATERIAL_NAMES,
  MATERIALS,
  PRICES,
  RECIPE_SEARCH,
  RECIPES,
} from "./endpoints.ts";
import { Gw2KeyRejectedError } from "./errors.ts";
import { createKeyHasher, type KeyHasher } from "./key_hash.ts";
import type {
  Currency,
  Item,
  MaterialCategory,
  Named,
  OrderBook,
  Price,
  Recipe,
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
import { type Achievement, AchievementSchema } from "./schemas_achievements.ts";
import type {
  BulkName,
  BulkRead,
  BulkValue,
  DocArgList,
  DocName,
  DocValue,
  Fresh,
  Gw2Client,
  Gw2PagedReads,
  Lang,
  Page,
  RecipeIndex,
  RecipeSearchQuery,
} from "./types.ts";
import { LANGUAGES } from "./types.ts";

export { BucketPriority, TokenBucket };

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
   * Answers recipe searches and `officialRecipes` from the recipe catalogue when it can
   * (`src/catalogue/recipe_lookup.ts`); without it every search goes to the cache and upstream
   * and `officialRecipes` answers `undefined`.
   */
  readonly recipeIndex?: RecipeIndex;
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
 * A {@linkcode Gw2Client} with the counters the benchmark reads, and the paged reads (the crawl,
 * the catalogue's fill, the market sheet).
 */
export interface InstrumentedGw2Client extends Gw2Client, Gw2PagedReads {
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
  /** One reader per `DOCS` row, made on its first read. */
  readonly #docs = new Map<DocName, DocReader<unknown>>();
  readonly #docOptions: DocReaderOptions;
  /** One reader per `BULK` row (and language, for a localized row), made on its first read. */
  readonly #bulk = new Map<string, BulkReader<{ readonly id: number }>>();
  readonly #bulkOptions: ConstructorParameters<typeof BulkReader>[1];
  readonly #recipeIndex: RecipeIndex | undefined;
  readonly #itemPages: PageReader<CatalogueItem>;
  readonly #recipePages: PageReader<CatalogueRecipe>;
  readonly #pricePages: PageReader<Price>;
  readonly #achievementPages: PageReader<Achievement>;
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
    this.#docOptions = docs;
    this.#bulkOptions = bulk;
    this.#recipeIndex = options.recipeIndex;
    this.#itemPages = new PageReader(ITEMS.path, CatalogueItemSchema, transport);
    this.#recipePages = new PageReader(RECIPES.path, CatalogueRecipeSchema, transport);
    this.#pricePages = new PageReader(PRICES.path, PriceSchema, transport);
    this.#achievementPages = new PageReader(BULK.achievements.path, AchievementSchema, transport);
    this.#priceSheet = options.priceSheet;
  }

  // Every read is bounded by the deadline of the work it runs in (a tool call's, a job's).

  items(ids: readonly number[]): Promise<BulkRead<Item>> {
    return this.#items.read(ids, currentDeadline());
  }

  async itemNames(ids: readonly number[], lang: Lang): Promise<BulkRead<CatalogueItem>> {
    const deadline = currentDeadline();
    const reader = this.#itemNames.get(lang);
    if (reader !== undefined) return await reader.read(ids, deadline);
    const read = await this.#items.read(ids, deadline);
    return {
      ...read,
      found: read.found.map(({ id, name, rarity, type }) => ({ id, name, rarity, type })),
    };
  }

  recipes(ids: readonly number[]): Promise<BulkRead<Recipe>> {
    return this.#recipes.read(ids, currentDeadline());
  }

  prices(ids: readonly number[]): Promise<BulkRead<Price>> {
    const sheet = ids.length === 0 ? undefined : this.#priceSheet?.(ids);
    if (sheet === undefined) return this.#prices.read(ids, currentDeadline());
    this.#counters.add("cacheHits", sheet.found.length + sheet.missingIds.length);
    this.#counters.add("memoryHits", sheet.found.length + sheet.missingIds.length);
    return Promise.resolve(sheet);
  }

  listings(ids: readonly number[]): Promise<BulkRead<OrderBook>> {
    return this.#listings.read(ids, currentDeadline());
  }

  bulk<N extends BulkName>(
    name: N,
    ids: readonly number[],
    lang: Lang = "en",
  ): Promise<BulkRead<BulkValue<N>>> {
    const row: BulkEndpoint<{ readonly id: number }> = BULK[name];
    // A localized row: one reader (and cache kind) per language, `lang` always sent.
    const variant = row.localized === true ? `${name}-${lang}` : name;
    let reader = this.#bulk.get(variant);
    if (reader === undefined) {
      const read = row.localized === true
        ? { ...row, kind: variant, query: [...(row.query ?? []), ["lang", lang] as const] }
        : row;
      reader = new BulkReader(read, this.#bulkOptions);
      this.#bulk.set(variant, reader);
    }
    // The reader of row N validates with N's schema, so its records are N's: the map holds
    // readers of every row, which TypeScript cannot index by N.
    return reader.read(ids, currentDeadline()) as Promise<BulkRead<BulkValue<N>>>;
  }

  async searchRecipes(query: RecipeSearchQuery): Promise<Fresh<readonly number[]>> {
    const deadline = currentDeadline();
    const [direction, itemId] = "input" in query
      ? ["input", query.input] as const
      : ["output", query.output] as const;
    // No id can match a non-positive or fractional item id; do not spend a request on it.
    if (!Number.isSafeInteger(itemId) || itemId <= 0) return { value: [] };
    const indexed = await this.#indexed((index) => index.search(query, deadline), deadline);
    if (indexed !== undefined) return { value: indexed };
    return await this.#search.read({
      cacheKey: this.#keys.search(direction, itemId),
      path: RECIPE_SEARCH.endpoint,
      query: [[direction, String(itemId)]],
      what: "item",
    }, deadline);
  }

  officialRecipes(
    outputIds: readonly number[],
  ): Promise<ReadonlyMap<number, readonly CatalogueRecipe[]> | undefined> {
    const deadline = currentDeadline();
    return this.#indexed((index) => index.recipesMaking(outputIds, deadline), deadline);
  }

  /**
   * An answer of the recipe index, or `undefined` when there is none, it cannot answer, or the
   * deadline passes first (the caller then asks upstream, which answers from an expired entry
   * or with the timeout).
   */
  async #indexed<T>(
    ask: (index: RecipeIndex) => Promise<T | undefined>,
    deadline: Deadline | undefined,
  ): Promise<T | undefined> {
    if (this.#recipeIndex === undefined) return undefined;
    const answer = ask(this.#recipeIndex);
    if (deadline === undefined) return await answer;
    return (await unlessAborted(answer, deadline.signal))?.value;
  }

  materials(lang: Lang = "en"): Promise<Fresh<readonly MaterialCategory[]>> {
    return this.#listIn(lang, this.#materials, this.#materialNames, {
      list: "materials",
      path: MATERIALS.endpoint,
      what: "material category",
    });
  }

  currencies(lang: Lang = "en"): Promise<Fresh<readonly Currency[]>> {
    return this.#listIn(lang, this.#currencies, this.#currencyNames, {
      list: "currencies",
      path: CURRENCIES.endpoint,
      what: "currency",
    });
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
  ): Promise<Fresh<readonly T[]>> {
    const deadline = currentDeadline();
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

  async doc<N extends DocName>(name: N, ...[args]: DocArgList<N>): Promise<Fresh<DocValue<N>>> {
    const deadline = currentDeadline();
    const row: AnyDoc = DOCS[name];
    // `args` as the row reads it: its parameters, and the key when the row needs one.
    const given: { readonly key?: unknown } & Record<string, unknown> = args ?? {};
    const target = row.target?.(given as never) ?? {};
    const parts = target.cacheParts ?? [];
    let cacheKey: Deno.KvKey;
    let key: string | undefined;
    if (row.auth) {
      key = typeof given.key === "string" ? given.key : "";
      cacheKey = this.#keys.account(await this.#hashKey(key), name, parts);
    } else {
      cacheKey = this.#keys.doc(name, parts);
    }
    let reader = this.#docs.get(name);
    if (reader === undefined) {
      reader = new DocReader<unknown>(row, this.#docOptions);
      this.#docs.set(name, reader);
    }
    const read = await reader.read({
      cacheKey,
      path: target.path ?? row.endpoint,
      query: [...(row.query ?? []), ...(target.query ?? [])],
      ...(key === undefined ? {} : { key }),
      what: row.what,
      ...(row.paged === undefined ? {} : { maxPages: row.paged.maxPages }),
    }, deadline);
    // The reader of row N validated the value with N's schema: it is N's value.
    return read as Fresh<DocValue<N>>;
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

  achievementsPage(
    page: number,
    pageSize: number,
    deadline?: Deadline,
    lang: Lang = "en",
  ): Promise<Page<Achievement>> {
    return this.#achievementPages.read(page, pageSize, deadline, [["lang", lang]]);
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
