/**
 * `priory_item_search`: item ids by name (any case or accents, a typo forgiven) or by chat
 * link, from the project's own name index.
 *
 * @module
 */

import { z } from "zod";
import { type FoundMatch, shapeItemSearchResult } from "../search/result.ts";
import { Gw2NotFoundError } from "../gw2/errors.ts";
import type { Lang } from "../gw2/types.ts";
import { itemNamesIn } from "../search/localize.ts";
import type { NameIndex } from "../search/name_index.ts";
import { MAX_QUERY_LENGTH, parseSearchQuery, type SearchQuery } from "../search/query.ts";
import { argumentsSchema, LangField } from "./inputs.ts";
import { defineTool, type ToolDeps, UPSTREAM_READ } from "./types.ts";

/** Matches returned when `limit` is not given, and the most a call may ask for. */
export const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 25;

/**
 * The query (also `priory_find_items`'): refused before any work when empty, blank, over {@linkcode MAX_QUERY_LENGTH}
 * characters, without a letter or digit, or a chat link that is not a valid item link.
 */
export const QueryField = z.string({
  error: 'query must be text: an item name such as "glob of ecto", or a chat link',
})
  .min(1, { error: 'the query is empty: give an item name such as "glob of ecto"' })
  .max(MAX_QUERY_LENGTH, {
    error: (issue) =>
      `the query is ${
        typeof issue.input === "string" ? issue.input.length : "too many"
      } characters long, at most ${MAX_QUERY_LENGTH}: give the item's name or the part of it you know`,
  })
  .describe("Item name or part of one, or an item chat link")
  .transform((raw, context): SearchQuery => {
    const parsed = parseSearchQuery(raw);
    if (parsed.kind !== "refused") return parsed;
    context.issues.push({ code: "custom", message: parsed.reason, input: raw });
    return z.NEVER;
  });

const LimitField = z.number({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  .int({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
  .min(1, { error: `limit must be at least 1` })
  .max(MAX_LIMIT, { error: `limit is at most ${MAX_LIMIT}` })
  .default(DEFAULT_LIMIT)
  .describe("Most matches to return");

/** The `priory_item_search` tool. */
export const prioryItemSearch = defineTool({
  name: "priory_item_search",
  title: "Item search by name",
  description:
    "Priory-computed: item ids by name from this server's own name index: every item it has read, kept across restarts, and the whole catalogue once index.complete is true. Matches en, de, fr, es and zh names at once; forgives case, accents and a typo; ranks exact > prefix > word > fuzzy. Each match says its lang, unless you pass one. query may be an item chat link ([&AgEJTQAA]). While index.complete is false a miss does not prove the item does not exist. Use the ids with gw2_items, gw2_prices or priory_recipe_tree.",
  inputSchema: argumentsSchema({ query: QueryField, limit: LimitField, lang: LangField }),
  outputSchema: z.object({
    matches: z.array(z.object({
      id: z.number(),
      name: z.string(),
      rarity: z.string(),
      type: z.string(),
      lang: z.string().optional(),
    })),
    index: z.object({ names: z.number(), complete: z.boolean() }),
  }),
  annotations: UPSTREAM_READ,
  async handle({ query, limit, lang }, deps) {
    const names = requireNameIndex(deps);
    if (query.kind === "name") {
      const { matches, status } = await names.search(query.text, limit, lang);
      return shapeItemSearchResult(
        lang === undefined ? matches : await inLanguage(deps, names, matches, lang),
        status,
        lang,
      );
    }
    const named = lang ?? "en";
    const { entry, status } = await names.lookup(query.id, named);
    if (entry !== undefined) {
      return shapeItemSearchResult([{ ...entry, lang: named }], status, lang);
    }
    // Not indexed yet: ask upstream; the client's write-through indexes what it fetches.
    const read = await deps.gw2.itemNames([query.id], named);
    const [item] = read.found;
    if (item === undefined) throw new Gw2NotFoundError([query.id], "item");
    return shapeItemSearchResult([{ ...item, lang: named }], await names.status(), lang);
  },
});

/**
 * `matches` named in `lang` (the index's names, else upstream's); a match without one keeps the
 * name (and language) it matched in.
 *
 * @throws a `Gw2Failure` when upstream's names cannot be read
 */
export async function inLanguage(
  deps: ToolDeps,
  names: NameIndex,
  matches: readonly FoundMatch[],
  lang: Lang,
): Promise<FoundMatch[]> {
  const other = matches.filter((match) => match.lang !== lang).map((match) => match.id);
  const localized = other.length === 0
    ? new Map<number, string>()
    : await itemNamesIn(deps.gw2, names, other, lang);
  return matches.map((match) => {
    const name = localized.get(match.id);
    return name === undefined ? match : { ...match, name, lang };
  });
}

/**
 * The index from the tool's dependencies.
 *
 * @throws {Error} when the server was wired without one (a programming error, reported as an
 * internal error).
 */
export function requireNameIndex(deps: ToolDeps): NameIndex {
  if (deps.names === undefined) {
    throw new Error("Cannot search item names: this server was started without a name index");
  }
  return deps.names;
}
