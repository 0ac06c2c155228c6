/**
 * `gw2_recipe_search`: recipe ids by input or output item id.
 *
 * @module
 */

import { z } from "zod";
import { shapeRecipeSearchResult } from "../passthrough/shape.ts";
import type { RecipeSearchQuery } from "../gw2/types.ts";
import { argumentsSchema, idSchema, MAX_IDS, staleAgeField } from "./inputs.ts";
import { defineTool, UPSTREAM_READ } from "./types.ts";

/**
 * The input: exactly one of `input` / `output`. The rule is a refinement, which JSON Schema as
 * the SDK publishes it cannot express, so the description states it in prose and the SDK still
 * enforces it at call time (before the handler runs).
 */
const RecipeSearchInput = argumentsSchema({
  input: idSchema("item").optional().describe("Item id used as an ingredient"),
  output: idSchema("item").optional().describe("Item id the recipe makes"),
}).refine((query) => (query.input === undefined) !== (query.output === undefined), {
  error: (issue) => {
    const both = typeof issue.input === "object" && issue.input !== null &&
      "input" in issue.input && "output" in issue.input;
    return both
      ? "give exactly one of input or output, not both: make two calls to search both ways"
      : "give exactly one of input (recipes using the item) or output (recipes making it)";
  },
});

/**
 * Narrows the validated input to the client's query type.
 *
 * @throws {RangeError} when not exactly one field is set (the schema already refuses that).
 */
function toQuery(query: z.output<typeof RecipeSearchInput>): RecipeSearchQuery {
  if (query.input !== undefined && query.output === undefined) return { input: query.input };
  if (query.output !== undefined && query.input === undefined) return { output: query.output };
  throw new RangeError("Cannot search recipes: give exactly one of input or output");
}

/** The `gw2_recipe_search` tool. */
export const gw2RecipeSearch = defineTool({
  name: "gw2_recipe_search",
  title: "GW2 recipe search",
  description:
    `Official GW2 API: ids of the recipes using an item (input) or making it (output) (/v2/recipes/search). Give exactly one of input or output, never both. Fetch them with gw2_recipes (MAX_IDS = ${MAX_IDS} ids per call). An empty list means this API cannot answer, not that no recipe exists: Mystic Forge recipes (legendaries, their gifts, Mystic Clovers) are missing from it.`,
  inputSchema: RecipeSearchInput,
  outputSchema: z.object({ recipe_ids: z.array(z.number()), stale_age_s: staleAgeField }),
  annotations: UPSTREAM_READ,
  async handle(query, { gw2 }) {
    const read = await gw2.searchRecipes(toQuery(query));
    return shapeRecipeSearchResult(read.value, read.staleAgeMs);
  },
});
