/**
 * A counting, scriptable {@linkcode Gw2Client} for tool-layer tests: a handful of records, every
 * call recorded, and a failure that the next calls reject with.
 *
 * @module
 */

import type {
  Account,
  AccountMaterial,
  CatalogueItem,
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
} from "../../src/gw2/schemas.ts";
import type { Deadline } from "../../src/async/deadline.ts";
import type {
  BoundableGw2Client,
  BulkRead,
  Fresh,
  Gw2Client,
  Lang,
  RecipeSearchQuery,
} from "../../src/gw2/types.ts";

/** Glob of Ectoplasm as the client returns it (validated, unknown fields already dropped). */
export const ECTO: Item = {
  id: 19721,
  name: "Glob of Ectoplasm",
  type: "CraftingMaterial",
  rarity: "Exotic",
  level: 0,
  vendor_value: 256,
  flags: [],
  chat_link: "[&AgHJTQAA]",
};

/** An account-bound item with no Trading Post price. */
export const BOUND: Item = {
  id: 20796,
  name: "Philosopher's Stone",
  type: "CraftingMaterial",
  rarity: "Rare",
  level: 0,
  vendor_value: 0,
  flags: ["AccountBound", "NoSell"],
  chat_link: "[&AgE8UQAA]",
};

/** A recipe with one item, one currency and one guild-upgrade ingredient. */
export const RECIPE: Recipe = {
  id: 7319,
  type: "Refinement",
  output_item_id: 19721,
  output_item_count: 1,
  disciplines: ["Artificer", "Weaponsmith"],
  min_rating: 400,
  flags: ["AutoLearned"],
  ingredients: [
    { type: "Item", id: 19976, count: 5 },
    { type: "Currency", id: 2, count: 150 },
    { type: "GuildUpgrade", id: 1024, count: 1 },
  ],
  chat_link: "[&CZccAAA=]",
};

/** Ecto's price. */
export const ECTO_PRICE: Price = {
  id: 19721,
  whitelisted: false,
  buys: { quantity: 41000, unit_price: 2603 },
  sells: { quantity: 98000, unit_price: 2797 },
};

/** One recorded call. */
export interface StubCall {
  readonly method: keyof Gw2Client;
  readonly args: readonly unknown[];
}

/** Options for {@linkcode StubGw2Client}. */
export interface StubOptions {
  /** Age reported as `staleAgeMs` on every read, when set. */
  readonly staleAgeMs?: number;
}

/**
 * The stub. Unknown ids land in `missingIds`; `failWith` makes every call reject. Its
 * call-scoped views are the stub itself; the deadlines they were bound to are kept.
 */
export class StubGw2Client implements BoundableGw2Client {
  readonly calls: StubCall[] = [];
  /** Every deadline a view was bound to, in order. */
  readonly deadlines: Deadline[] = [];
  /** When set, every call rejects with it. */
  failWith: unknown = undefined;
  readonly #items = new Map<number, Item>([[ECTO.id, ECTO], [BOUND.id, BOUND]]);
  readonly #recipes = new Map<number, Recipe>([[RECIPE.id, RECIPE]]);
  readonly #prices = new Map<number, Price>([[ECTO_PRICE.id, ECTO_PRICE]]);
  readonly #staleAgeMs: number | undefined;

  constructor(options: StubOptions = {}) {
    this.#staleAgeMs = options.staleAgeMs;
  }

  withDeadline(deadline: Deadline): Gw2Client {
    this.deadlines.push(deadline);
    return this;
  }

  /** Number of calls to any method. */
  get callCount(): number {
    return this.calls.length;
  }

  #record(method: keyof Gw2Client, ...args: unknown[]): void {
    this.calls.push({ method, args });
    if (this.failWith !== undefined) throw this.failWith;
  }

  #bulk<T>(map: Map<number, T>, ids: readonly number[]): BulkRead<T> {
    const unique = [...new Set(ids)];
    const found = unique.flatMap((id) => {
      const record = map.get(id);
      return record === undefined ? [] : [record];
    });
    const missingIds = unique.filter((id) => !map.has(id));
    return this.#staleAgeMs === undefined
      ? { found, missingIds }
      : { found, missingIds, staleAgeMs: this.#staleAgeMs };
  }

  #fresh<T>(value: T): Fresh<T> {
    return this.#staleAgeMs === undefined ? { value } : { value, staleAgeMs: this.#staleAgeMs };
  }

  items(ids: readonly number[]): Promise<BulkRead<Item>> {
    return Promise.resolve().then(() => {
      this.#record("items", ids);
      return this.#bulk(this.#items, ids);
    });
  }

  /** Names in any language: the English ones (the stub knows no other). */
  itemNames(ids: readonly number[], lang: Lang): Promise<BulkRead<CatalogueItem>> {
    return Promise.resolve().then(() => {
      this.#record("itemNames", ids, lang);
      const read = this.#bulk(this.#items, ids);
      return {
        ...read,
        found: read.found.map(({ id, name, rarity, type }) => ({ id, name, rarity, type })),
      };
    });
  }

  recipes(ids: readonly number[]): Promise<BulkRead<Recipe>> {
    return Promise.resolve().then(() => {
      this.#record("recipes", ids);
      return this.#bulk(this.#recipes, ids);
    });
  }

  prices(ids: readonly number[]): Promise<BulkRead<Price>> {
    return Promise.resolve().then(() => {
      this.#record("prices", ids);
      return this.#bulk(this.#prices, ids);
    });
  }

  /** Books of what the stub prices: none (every purchase keeps its unit price). */
  listings(ids: readonly number[]): Promise<BulkRead<OrderBook>> {
    return Promise.resolve().then(() => {
      this.#record("listings", ids);
      return this.#bulk(new Map<number, OrderBook>(), ids);
    });
  }

  searchRecipes(query: RecipeSearchQuery): Promise<Fresh<readonly number[]>> {
    return Promise.resolve().then(() => {
      this.#record("searchRecipes", query);
      const ids = [...this.#recipes.values()].filter((recipe) =>
        "output" in query
          ? recipe.output_item_id === query.output
          : recipe.ingredients.some((ingredient) => ingredient.id === query.input)
      ).map((recipe) => recipe.id);
      return this.#fresh(ids);
    });
  }

  #unsupported<T>(method: keyof Gw2Client, ...args: unknown[]): Promise<T> {
    return Promise.resolve().then(() => {
      this.#record(method, ...args);
      throw new TypeError(`Cannot serve ${method}: the stub does not implement it`);
    });
  }

  materials(): Promise<Fresh<readonly MaterialCategory[]>> {
    return this.#unsupported("materials");
  }
  currencies(): Promise<Fresh<readonly Currency[]>> {
    return this.#unsupported("currencies");
  }
  account(key: string): Promise<Fresh<Account>> {
    return this.#unsupported("account", key);
  }
  accountMaterials(key: string): Promise<Fresh<readonly AccountMaterial[]>> {
    return this.#unsupported("accountMaterials", key);
  }
  accountWallet(key: string): Promise<Fresh<readonly WalletEntry[]>> {
    return this.#unsupported("accountWallet", key);
  }
  accountBank(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#unsupported("accountBank", key);
  }
  accountInventory(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#unsupported("accountInventory", key);
  }
  accountRecipes(key: string): Promise<Fresh<readonly number[]>> {
    return this.#unsupported("accountRecipes", key);
  }
  characters(key: string): Promise<Fresh<readonly string[]>> {
    return this.#unsupported("characters", key);
  }
  characterBags(key: string): Promise<Fresh<readonly CharacterBags[]>> {
    return this.#unsupported("characterBags", key);
  }
  characterInventory(key: string, name: string): Promise<Fresh<CharacterInventory>> {
    return this.#unsupported("characterInventory", key, name);
  }
  tokenInfo(key: string): Promise<Fresh<TokenInfo>> {
    return this.#unsupported("tokenInfo", key);
  }
}
