/**
 * `priory_achievements`: achievements and collections by name, ids or an item they reward or
 * collect, with the account's progress, what is still missing and what buying it costs, the
 * rewards and the chain before each. The work is the achievements room's (`src/achievements/`).
 *
 * @module
 */

import { z } from "zod";
import { type AchievementQuery, runAchievements } from "../achievements/run.ts";
import { argumentsSchema, idListSchema, idSchema, LangField, MAX_IDS, received } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

const queryError = (issue: { readonly input?: unknown }) =>
  `query must be 1 to 200 characters of an achievement's name, not ${received(issue.input)}`;

/**
 * The input: exactly one of `query`, `ids`, `item` (a refinement, which the published JSON
 * Schema cannot express: the description says it, the SDK enforces it before the handler).
 */
const AchievementsInput = argumentsSchema({
  query: z.string({ error: queryError }).trim().min(1, { error: queryError })
    .max(200, { error: queryError }).optional(),
  ids: idListSchema("achievement").optional(),
  item: idSchema("item").optional(),
  lang: LangField,
}).refine(
  (input) =>
    [input.query, input.ids, input.item].filter((given) => given !== undefined).length === 1,
  { error: "give exactly one of query (a name), ids (achievement ids) or item (an item id)" },
);

/** Narrows the validated input to one lookup. */
function toQuery(input: z.output<typeof AchievementsInput>): AchievementQuery {
  if (input.ids !== undefined) return { ids: input.ids };
  if (input.item !== undefined) return { item: input.item };
  if (input.query !== undefined) return { query: input.query };
  throw new RangeError("Cannot look achievements up: give exactly one of query, ids or item");
}

/** The `priory_achievements` tool. */
export const prioryAchievements = defineTool({
  name: "priory_achievements",
  title: "Achievements and collections",
  description:
    `Priory-computed: achievements and collections by exactly one of query (a name, any language; 10 best), ids (MAX_IDS = ${MAX_IDS}) or item (those rewarding or collecting it, e.g. a precursor gift's collection). Each: done, progress of, missing bits (unit = lowest sell listing), missingCost (copper to buy them), rewards, prerequisites with done. Lists cut say more. Progress needs X-GW2-Key (progression); else unread and missing is everything.`,
  inputSchema: AchievementsInput,
  // Rows and the rest (more, missing_ids, unread, catalogue) as the description says.
  outputSchema: z.object({
    achievements: z.array(z.looseObject({ id: z.number(), name: z.string() })),
  }),
  annotations: UPSTREAM_READ,
  errorHints: {
    notFound: { what: "achievement", hint: "Check the ids, or look it up by name with query." },
  },
  async handle(input, deps) {
    // The key is optional here; one given must still be a key, not a `${VAR}` left unexpanded.
    const key = deps.gw2Key === undefined || deps.gw2Key === "" ? undefined : requireGw2Key(deps);
    return await runAchievements(toQuery(input), input.lang ?? "en", {
      gw2: deps.gw2,
      ...(deps.names === undefined ? {} : { names: deps.names }),
      ...(deps.achievements === undefined ? {} : { catalogue: deps.achievements }),
      ...(key === undefined ? {} : { key }),
    });
  },
});
