/**
 * Where recipe lookups meet the catalogue: a view of a GW2 client whose `searchRecipes` is
 * answered from the crawled recipe catalogue when a complete one exists, and by the client
 * (its cache, then upstream) otherwise. Every other read goes to the client unchanged. So the
 * client stays "all upstream access and nothing else", and everything that searches recipes
 * through a `Gw2Client` - the tree resolver, `gw2_recipe_search`, the warm-up - benefits
 * without knowing the catalogue exists. `main.ts` wraps the clients it hands out.
 *
 * The view also answers `officialRecipes` - the tree resolver's one lookup per level - from the
 * catalogue, filling it first when none is usable (every `/v2/recipes` page at once, through the
 * client's paged reads under the caller's deadline): a walk over every legendary tree then costs
 * the catalogue's pages once instead of one search per node.
 *
 * The view is itself a {@linkcode BoundableGw2Client}: `withDeadline(deadline)` gives a view of
 * the client's call-scoped view, so a tool call's recipe searches still come from the catalogue
 * and every read that reaches the client still carries the call's deadline. The catalogue's own
 * KV reads (a head check, a load) are raced against that deadline too: past it, the search goes
 * to the client, which answers from an expired cache entry or with the timeout.
 *
 * @module
 */

import { type Deadline, unlessAborted } from "../async/deadline.ts";
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
} from "../gw2/schemas.ts";
import type {
  BoundableGw2Client,
  BulkRead,
  Fresh,
  Gw2Client,
  Gw2PagedReads,
  Lang,
  RecipeSearchQuery,
} from "../gw2/types.ts";
import type { CatalogueRecipe } from "../gw2/schemas.ts";
import type { RecipeCatalogue } from "./recipe_catalogue.ts";

/** The paged read the view fills the catalogue with. */
export type RecipePages = Pick<Gw2PagedReads, "recipesPage">;

/** The lookup the view consults first. */
export type RecipeLookup = Pick<RecipeCatalogue, "search" | "recipesMaking" | "fill">;

/**
 * `gw2` with recipe searches answered from `catalogue` when it can, and `officialRecipes` from
 * it, filled through `pages` (the same client's paged reads) when none is usable.
 *
 * @example
 * ```ts
 * const lookups = withRecipeCatalogue(gw2, catalogue, gw2);
 * await lookups.searchRecipes({ output: 19721 }); // no request once the catalogue is complete
 * await lookups.withDeadline(deadline).searchRecipes({ output: 19721 }); // the same, bounded
 * await lookups.officialRecipes?.([19721, 19685]); // the catalogue's, filled first if needed
 * ```
 */
export function withRecipeCatalogue(
  gw2: BoundableGw2Client,
  catalogue: RecipeLookup,
  pages: RecipePages,
): BoundableGw2Client {
  return new CatalogueLookups(gw2, catalogue, pages, undefined);
}

/** The client, or one call's view of it, with recipe searches from the catalogue first. */
class CatalogueLookups implements BoundableGw2Client {
  /** The process's client, from which call-scoped views are made. */
  readonly #client: BoundableGw2Client;
  /** What reads go to: the client, or its view bounded by `#deadline`. */
  readonly #reads: Gw2Client;
  readonly #catalogue: RecipeLookup;
  readonly #pages: RecipePages;
  readonly #deadline: Deadline | undefined;

  constructor(
    client: BoundableGw2Client,
    catalogue: RecipeLookup,
    pages: RecipePages,
    deadline?: Deadline,
  ) {
    this.#client = client;
    this.#reads = deadline === undefined ? client : client.withDeadline(deadline);
    this.#catalogue = catalogue;
    this.#pages = pages;
    this.#deadline = deadline;
  }

  withDeadline(deadline: Deadline): Gw2Client {
    return new CatalogueLookups(this.#client, this.#catalogue, this.#pages, deadline);
  }

  async officialRecipes(
    outputIds: readonly number[],
  ): Promise<ReadonlyMap<number, readonly CatalogueRecipe[]> | undefined> {
    const deadline = this.#deadline;
    const lookup = (async () => {
      const filled = await this.#catalogue.fill((page, pageSize) =>
        this.#pages.recipesPage(page, pageSize, deadline)
      );
      return filled ? await this.#catalogue.recipesMaking(outputIds) : undefined;
    })();
    if (deadline === undefined) return await lookup;
    return (await unlessAborted(lookup, deadline.signal))?.value;
  }

  async searchRecipes(query: RecipeSearchQuery): Promise<Fresh<readonly number[]>> {
    const lookup = this.#catalogue.search(query);
    const found = this.#deadline === undefined
      ? { value: await lookup }
      : await unlessAborted(lookup, this.#deadline.signal);
    const ids = found?.value;
    return ids === undefined ? await this.#reads.searchRecipes(query) : { value: ids };
  }

  items(ids: readonly number[]): Promise<BulkRead<Item>> {
    return this.#reads.items(ids);
  }
  itemNames(ids: readonly number[], lang: Lang): Promise<BulkRead<CatalogueItem>> {
    return this.#reads.itemNames(ids, lang);
  }
  recipes(ids: readonly number[]): Promise<BulkRead<Recipe>> {
    return this.#reads.recipes(ids);
  }
  prices(ids: readonly number[]): Promise<BulkRead<Price>> {
    return this.#reads.prices(ids);
  }
  listings(ids: readonly number[]): Promise<BulkRead<OrderBook>> {
    return this.#reads.listings(ids);
  }
  materials(lang?: Lang): Promise<Fresh<readonly MaterialCategory[]>> {
    return this.#reads.materials(lang);
  }
  currencies(lang?: Lang): Promise<Fresh<readonly Currency[]>> {
    return this.#reads.currencies(lang);
  }
  account(key: string): Promise<Fresh<Account>> {
    return this.#reads.account(key);
  }
  accountMaterials(key: string): Promise<Fresh<readonly AccountMaterial[]>> {
    return this.#reads.accountMaterials(key);
  }
  accountWallet(key: string): Promise<Fresh<readonly WalletEntry[]>> {
    return this.#reads.accountWallet(key);
  }
  accountBank(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#reads.accountBank(key);
  }
  accountInventory(key: string): Promise<Fresh<readonly (ItemSlot | null)[]>> {
    return this.#reads.accountInventory(key);
  }
  accountRecipes(key: string): Promise<Fresh<readonly number[]>> {
    return this.#reads.accountRecipes(key);
  }
  characters(key: string): Promise<Fresh<readonly string[]>> {
    return this.#reads.characters(key);
  }
  characterBags(key: string): Promise<Fresh<readonly CharacterBags[]>> {
    return this.#reads.characterBags(key);
  }
  characterInventory(key: string, name: string): Promise<Fresh<CharacterInventory>> {
    return this.#reads.characterInventory(key, name);
  }
  tokenInfo(key: string): Promise<Fresh<TokenInfo>> {
    return this.#reads.tokenInfo(key);
  }
}
