/**
 * A counting, scriptable {@linkcode Gw2Client} for tool-layer tests: a handful of records, every
 * call recorded, and a failure that the next calls reject with.
 *
 * @module
 */

import type {
  CatalogueItem,
  Currency,
  Item,
  MaterialCategory,
  OrderBook,
  Price,
  Recipe,
} from "../../src/gw2/schemas.ts";
import { currentDeadline, type Deadline } from "../../src/async/deadline.ts";
import type {
  BulkName,
  BulkRead,
  BulkValue,
  DocArgList,
  DocArgs,
  DocName,
  DocValue,
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

/** One recorded call: a method of the client, or the name of the `DOCS` row a `doc` read. */
export interface StubCall {
  readonly method: keyof Gw2Client | DocName;
  readonly args: readonly unknown[];
}

/** How the stub answers reads of one `DOCS` row (see {@linkcode StubGw2Client.serveDoc}). */
type DocServer<N extends DocName> = (args: DocArgs<N>) => Promise<Fresh<DocValue<N>>>;

/** Options for {@linkcode StubGw2Client}. */
export interface StubOptions {
  /** Age reported as `staleAgeMs` on every read, when set. */
  readonly staleAgeMs?: number;
}

/**
 * The stub. Unknown ids land in `missingIds`; `failWith` makes every call reject. The
 * deadlines its reads ran under are kept.
 */
export class StubGw2Client implements Gw2Client {
  readonly calls: StubCall[] = [];
  /** Every deadline a read ran under (`withinDeadline`), in order, each once. */
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

  /** Number of calls to any method. */
  get callCount(): number {
    return this.calls.length;
  }

  #record(method: StubCall["method"], ...args: unknown[]): void {
    this.calls.push({ method, args });
    const deadline = currentDeadline();
    if (deadline !== undefined && !this.deadlines.includes(deadline)) this.deadlines.push(deadline);
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

  #unsupported<T>(method: StubCall["method"], ...args: unknown[]): Promise<T> {
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
  readonly #docServers = new Map<DocName, DocServer<DocName>>();

  /** Answers `doc(name, args)` with `serve` from now on (recorded as a call named `name`). */
  serveDoc<N extends DocName>(name: N, serve: DocServer<N>): this {
    // Kept with the name it serves: `doc` looks it up by that name only.
    this.#docServers.set(name, serve as unknown as DocServer<DocName>);
    return this;
  }

  doc<N extends DocName>(name: N, ...args: DocArgList<N>): Promise<Fresh<DocValue<N>>> {
    const serve = this.#docServers.get(name);
    if (serve === undefined) return this.#unsupported(name, ...args);
    return Promise.resolve().then(() => {
      this.#record(name, ...args);
      const [given] = args;
      // The server registered for `name` answers `name`'s value (see `serveDoc`).
      return serve(given as DocArgs<DocName>) as Promise<Fresh<DocValue<N>>>;
    });
  }
  bulk<N extends BulkName>(name: N, ids: readonly number[]): Promise<BulkRead<BulkValue<N>>> {
    return this.#unsupported("bulk", name, ids);
  }
}
