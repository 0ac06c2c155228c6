/**
 * Where recipe lookups meet the catalogue: a view of a GW2 client whose `searchRecipes` is
 * answered from the crawled recipe catalogue when a complete one exists, and by the client
 * (its cache, then upstream) otherwise. Every other read goes to the client unchanged. So the
 * client stays "all upstream access and nothing else", and everything that searches recipes
 * through a `Gw2Client` — the tree resolver, `gw2_recipe_search`, the warm-up — benefits
 * without knowing the catalogue exists. `main.ts` wraps the clients it hands out.
 *
 * @module
 */

import type { Gw2Client } from "../gw2/types.ts";
import type { RecipeCatalogue } from "./recipe_catalogue.ts";

/** The lookup the view consults first. */
export type RecipeLookup = Pick<RecipeCatalogue, "search">;

/**
 * `gw2` with recipe searches answered from `catalogue` when it can.
 *
 * @example
 * ```ts
 * const lookups = withRecipeCatalogue(gw2, catalogue);
 * await lookups.searchRecipes({ output: 19721 }); // no request once the catalogue is complete
 * ```
 */
export function withRecipeCatalogue<C extends Gw2Client>(gw2: C, catalogue: RecipeLookup): C {
  async function searchRecipes(
    ...args: Parameters<Gw2Client["searchRecipes"]>
  ): ReturnType<Gw2Client["searchRecipes"]> {
    const ids = await catalogue.search(args[0]);
    return ids === undefined ? await gw2.searchRecipes(...args) : { value: ids };
  }
  return new Proxy(gw2, {
    get(target, property) {
      if (property === "searchRecipes") return searchRecipes;
      const value: unknown = Reflect.get(target, property);
      // The client's methods use private fields: they must run on the client itself.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
