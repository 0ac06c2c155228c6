/**
 * The GW2 client: the one way into the GW2 API. It implements {@linkcode Gw2Client} over a
 * Deno KV cache (one entry per record, freshness checked on read, stale-if-error), coalesced
 * and de-duplicated bulk reads in requests of at most 200 ids, a token bucket in KV shared by
 * every instance, and a transport with timeouts and retries. The player's key is used only in
 * the `Authorization` header; account data is cached under an HMAC of it.
 *
 * @module
 */

import type { Clock } from "../clock.ts";
import { DocCache } from "../kv/doc_cache.ts";
import { Gw2Keys } from "../kv/keys.ts";
import { RecordCache } from "../kv/record_cache.ts";
import { TokenBucket } from "../kv/token_bucket.ts";
import type { Logger } from "../log.ts";
import { Counters, type CounterSnapshot } from "../metrics.ts";
import { BulkReader } from "./bulk_reader.ts";
import { DocReader, type DocReaderOptions } from "./doc_reader.ts";
import {
  ACCOUNT_ENDPOINTS,
  CURRENCIES,
  type DocEndpoint,
  ITEMS,
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
  CharacterInventory,
  Currency,
  Item,
  ItemSlot,
  MaterialCategory,
  Price,
  Recipe,
  TokenInfo,
  WalletEntry,
} from "./schemas.ts";
import { type FetchFn, Transport } from "./transport.ts";
import type { BulkRead, Fresh, Gw2Client, RecipeSearchQuery } from "./types.ts";

/** Options of {@linkcode createGw2Client}. Plain values; `main.ts` wires them from the config. */
export interface Gw2ClientOptions {
  /** Upstream base URL without a trailing slash (`GW2_API_BASE`). */
  readonly baseUrl: string;
  /** The KV holding the cache and the shared token bucket. */
  readonly kv: Deno.Kv;
  readonly clock: Clock;
  readonly log: Logger;
  /**
   * The server's MCP bearer token. The HMAC secret for account cache keys is derived from it,
   * so every instance with the same token shares account entries. Never stored.
   */
  readonly keySecret: string;
  /** The shared upstream budget (`GW2_RATE_BURST`, `GW2_RATE_PER_SEC`). */
  readonly rate: { readonly burst: number; readonly perSec: number };
  /** @default globalThis.fetch */
  readonly fetch?: FetchFn;
  /** Per-attempt timeout. @default 10000 */
  readonly timeoutMs?: number;
  /** Retries of a transient failure after the first attempt. @default 2 */
  readonly maxRetries?: number;
  /** Longest wait for the token bucket or a 429's `Retry-After`. @default 10000 */
  readonly maxRateWaitMs?: number;
  /** Coalescing window for bulk reads, on `clock`; 0 means the same tick only. @default 2 */
  readonly coalesceWindowMs?: number;
  /** Upstream requests of one bulk batch in flight at once. @default 4 */
  readonly maxParallelRequests?: number;
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number;
}

/** A {@linkcode Gw2Client} with the counters the benchmark reads. */
export interface InstrumentedGw2Client extends Gw2Client {
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
 *   keySecret: config.authToken,
 *   rate: { burst: config.rateBurst, perSec: config.ratePerSec },
 * });
 * const { found, missingIds } = await gw2.items([19721, 19976]);
 * ```
 */
export function createGw2Client(options: Gw2ClientOptions): InstrumentedGw2Client {
  return new KvGw2Client(options);
}

/**
 * The capacity our bucket runs with: one token under upstream's burst. We count a request when
 * we decide to send it; upstream counts it on arrival, a commit latency later. If upstream's
 * bucket sits full in between, it forgoes that refill while ours does not, and at exact
 * saturation the next request would meet a 429. The spare token absorbs that lag (measured in
 * the two-handle test) at the cost of 1 of 300 burst tokens; the sustained rate is unchanged.
 */
export function bucketCapacity(burst: number): number {
  return burst > 1 ? burst - 1 : burst;
}

type AccountReaders = { [Doc in keyof typeof ACCOUNT_ENDPOINTS]: DocReader<AccountValue<Doc>> };
type AccountValue<Doc extends keyof typeof ACCOUNT_ENDPOINTS> =
  typeof ACCOUNT_ENDPOINTS[Doc] extends DocEndpoint<infer T> ? T : never;

class KvGw2Client implements InstrumentedGw2Client {
  readonly #keys: Gw2Keys;
  readonly #counters = new Counters();
  readonly #bucket: TokenBucket;
  readonly #hasher: KeyHasher;
  readonly #items: BulkReader<Item>;
  readonly #recipes: BulkReader<Recipe>;
  readonly #prices: BulkReader<Price>;
  readonly #materials: DocReader<MaterialCategory[]>;
  readonly #currencies: DocReader<Currency[]>;
  readonly #search: DocReader<number[]>;
  readonly #account: AccountReaders;

  constructor(options: Gw2ClientOptions) {
    const random = options.random ?? Math.random;
    this.#keys = new Gw2Keys(options.baseUrl);
    this.#hasher = createKeyHasher(options.keySecret);
    this.#bucket = new TokenBucket({
      kv: options.kv,
      key: this.#keys.bucket(),
      burst: bucketCapacity(options.rate.burst),
      perSec: options.rate.perSec,
      clock: options.clock,
      random,
      log: options.log,
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
      maxRateWaitMs: options.maxRateWaitMs ?? 10_000,
      random,
    });
    const shared = { transport, clock: options.clock, log: options.log, counters: this.#counters };
    const bulk = {
      ...shared,
      records: new RecordCache(options.kv, this.#keys, options.log),
      windowMs: options.coalesceWindowMs ?? 2,
      maxParallelRequests: options.maxParallelRequests ?? 4,
    };
    this.#items = new BulkReader(ITEMS, bulk);
    this.#recipes = new BulkReader(RECIPES, bulk);
    this.#prices = new BulkReader(PRICES, bulk);
    const docs: DocReaderOptions = {
      ...shared,
      docs: new DocCache(options.kv, this.#keys, options.log),
    };
    this.#materials = new DocReader(MATERIALS, docs);
    this.#currencies = new DocReader(CURRENCIES, docs);
    this.#search = new DocReader(RECIPE_SEARCH, docs);
    this.#account = {
      account: new DocReader(ACCOUNT_ENDPOINTS.account, docs),
      account_materials: new DocReader(ACCOUNT_ENDPOINTS.account_materials, docs),
      account_wallet: new DocReader(ACCOUNT_ENDPOINTS.account_wallet, docs),
      account_bank: new DocReader(ACCOUNT_ENDPOINTS.account_bank, docs),
      account_inventory: new DocReader(ACCOUNT_ENDPOINTS.account_inventory, docs),
      characters: new DocReader(ACCOUNT_ENDPOINTS.characters, docs),
      character_inventory: new DocReader(ACCOUNT_ENDPOINTS.character_inventory, docs),
      tokeninfo: new DocReader(ACCOUNT_ENDPOINTS.tokeninfo, docs),
    };
  }

  items(ids: readonly number[]): Promise<BulkRead<Item>> {
    return this.#items.read(ids);
  }

  recipes(ids: readonly number[]): Promise<BulkRead<Recipe>> {
    return this.#recipes.read(ids);
  }

  prices(ids: readonly number[]): Promise<BulkRead<Price>> {
    return this.#prices.read(ids);
  }

  async searchRecipes(query: RecipeSearchQuery): Promise<Fresh<readonly number[]>> {
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
    });
  }

  materials(): Promise<Fresh<readonly MaterialCategory[]>> {
    return this.#materials.read({
      cacheKey: this.#keys.list("materials"),
      path: MATERIALS.endpoint,
      query: [["ids", "all"]],
      what: "material category",
    });
  }

  currencies(): Promise<Fresh<readonly Currency[]>> {
    return this.#currencies.read({
      cacheKey: this.#keys.list("currencies"),
      path: CURRENCIES.endpoint,
      query: [["ids", "all"]],
      what: "currency",
    });
  }

  account(key: string): Promise<Fresh<Account>> {
    return this.#accountRead(key, "account");
  }

  accountMaterials(key: string): Promise<Fresh<readonly AccountMaterial[]>> {
    return this.#accountRead(key, "account_materials");
  }

  accountWallet(key: string): Promise<Fresh<readonly WalletEntry[]>> {
    return this.#accountRead(key, "account_wallet");
  }

  accountBank(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#accountRead(key, "account_bank");
  }

  accountInventory(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#accountRead(key, "account_inventory");
  }

  characters(key: string): Promise<Fresh<readonly string[]>> {
    return this.#accountRead(key, "characters");
  }

  async characterInventory(key: string, name: string): Promise<Fresh<CharacterInventory>> {
    if (name.trim() === "") throw new Gw2NotFoundError([], "character");
    const hash = await this.#hashKey(key);
    return await this.#account.character_inventory.read({
      cacheKey: this.#keys.account(hash, "character_inventory", name),
      path: `/v2/characters/${encodeURIComponent(name)}/inventory`,
      key,
      what: "character",
    });
  }

  tokenInfo(key: string): Promise<Fresh<TokenInfo>> {
    return this.#accountRead(key, "tokeninfo");
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

  async #accountRead<Doc extends Exclude<keyof AccountReaders, "character_inventory">>(
    key: string,
    doc: Doc,
  ): Promise<Fresh<AccountValue<Doc>>> {
    const hash = await this.#hashKey(key);
    const reader: DocReader<AccountValue<Doc>> = this.#account[doc];
    return await reader.read({
      cacheKey: this.#keys.account(hash, doc),
      path: ACCOUNT_ENDPOINTS[doc].endpoint,
      key,
      what: "account record",
    });
  }

  /** The key's cache identity; an empty key is rejected without asking upstream. */
  #hashKey(key: string): Promise<string> {
    if (key.trim() === "") return Promise.reject(new Gw2KeyRejectedError());
    return this.#hasher.hash(key);
  }
}
