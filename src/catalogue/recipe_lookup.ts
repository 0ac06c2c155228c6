/**
 * Where recipe lookups meet the catalogue: the {@linkcode RecipeIndex} a GW2 client consults
 * before upstream (`main.ts` gives it to the clients it builds). A recipe search is answered from
 * the crawled recipe catalogue when a complete one exists, and by the client (its cache, then
 * upstream) otherwise; so everything that searches recipes through a `Gw2Client` - the tree
 * resolver, `gw2_recipe_search`, the warm-up - benefits without knowing the catalogue exists.
 *
 * The index also answers `officialRecipes` - the tree resolver's one lookup per level - from the
 * catalogue, filling it first when none is usable (every `/v2/recipes` page at once, through the
 * client's paged reads under the caller's deadline): a walk over every legendary tree then costs
 * the catalogue's pages once instead of one search per node. The client races each answer
 * against the caller's deadline: past it, a search goes upstream, which answers from an expired
 * cache entry or with the timeout.
 *
 * @module
 */

import type { Deadline } from "../async/deadline.ts";
import type { Gw2PagedReads, RecipeIndex } from "../gw2/types.ts";
import type { RecipeCatalogue } from "./recipe_catalogue.ts";

/** The paged read the index fills the catalogue with. */
export type RecipePages = Pick<Gw2PagedReads, "recipesPage">;

/** The lookup the index consults. */
export type RecipeLookup = Pick<RecipeCatalogue, "search" | "recipesMaking" | "fill">;

/**
 * The recipe index of `catalogue`, filled through `pages` (the client's own paged reads) when a
 * lookup finds none usable.
 *
 * @example
 * ```ts
 * const gw2 = createGw2Client({
 *   ...options,
 *   recipeIndex: catalogueRecipeIndex(catalogue, lazyPages(() => gw2)),
 * });
 * await gw2.searchRecipes({ output: 19721 }); // no request once the catalogue is complete
 * ```
 */
export function catalogueRecipeIndex(catalogue: RecipeLookup, pages: RecipePages): RecipeIndex {
  return {
    search: (query) => catalogue.search(query),
    async recipesMaking(outputIds: readonly number[], deadline?: Deadline) {
      const filled = await catalogue.fill((page, pageSize) =>
        pages.recipesPage(page, pageSize, deadline)
      );
      return filled ? await catalogue.recipesMaking(outputIds) : undefined;
    },
  };
}

/**
 * The paged reads of a client made after the index it feeds (the client takes the index as an
 * option, and the index fills through the client): resolved at the first page.
 */
export function lazyPages(client: () => RecipePages): RecipePages {
  return {
    recipesPage: (page, pageSize, deadline) => client().recipesPage(page, pageSize, deadline),
  };
}
