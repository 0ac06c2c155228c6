/**
 * `priory_find_items`: where the account's items are - every place holding each item asked for
 * (by ids, or by a name in any of the five languages through the name index), with the total and
 * its value. The work is the account room's (`find.ts`, `find_read.ts`); this module is the
 * tool's contract and how a query becomes ids.
 *
 * @module
 */

import { z } from "zod";
import { settleAll } from "../async/concurrency.ts";
import { findItems } from "../account/find.ts";
import { readFindSources } from "../account/find_read.ts";
import type { Lang } from "../gw2/types.ts";
import { lowestSells } from "../market/trading_post.ts";
import { itemNamesIn } from "../search/localize.ts";
import type { SearchQuery } from "../search/query.ts";
import { staleness } from "../staleness.ts";
import { argumentsSchema, idListSchema, LangField, MAX_IDS } from "./inputs.ts";
import { inLanguage, QueryField, requireNameIndex } from "./priory_item_search.ts";
import { defineTool, requireGw2Key, type ToolDeps, UPSTREAM_READ } from "./types.ts";

/** The most items a name query answers: its best matches. */
export const FIND_QUERY_MATCHES = 10;

const FindInput = argumentsSchema({
  ids: idListSchema("item").optional(),
  query: QueryField.optional(),
  lang: LangField,
}).refine((input) => (input.ids === undefined) !== (input.query === undefined), {
  error: `give exactly one of ids (1 to ${MAX_IDS} item ids) or query (an item name)`,
});

/** The `priory_find_items` tool. */
export const prioryFindItems = defineTool({
  name: "priory_find_items",
  title: "Where are my items",
  description:
    `Priory-computed: where your items are (key from the X-GW2-Key header). Exactly one of ids (MAX_IDS = ${MAX_IDS}) or query (a name in any language or a chat link, as priory_item_search: best ${FIND_QUERY_MATCHES}). Per item: places [{place, count, character?}] in materials, bank, shared, bags/equipped (per character), armory, delivery (TP delivery box), selling (your listings); total (0 = held nowhere); unit (lowest listing) and value = total × unit, copper, when it trades. Over 10 places: smallest character rows cut (more). Parts the key cannot read: unread [{part, scope}].`,
  inputSchema: FindInput,
  outputSchema: z.object({
    // Rows are self-describing and named in the description (as priory_flips').
    items: z.array(z.looseObject({})),
    unread: z.array(z.object({ part: z.string(), scope: z.string() })).optional(),
  }).catchall(z.unknown()),
  annotations: UPSTREAM_READ,
  async handle({ ids, query, lang }, deps) {
    const key = requireGw2Key(deps);
    const target: Target = query === undefined
      ? { ids: [...new Set(ids)], names: () => namesOf(deps, ids ?? [], lang) }
      : await queried(deps, query, lang);
    if (target.ids.length === 0) {
      return { items: [], index: await requireNameIndex(deps).status().then(shortStatus) };
    }
    const [read, prices, names] = await settleAll([
      readFindSources(deps.gw2, key),
      deps.gw2.prices(target.ids),
      target.names(),
    ]);
    return {
      items: findItems(target.ids, read.sources, names, lowestSells(prices.found)),
      ...(read.unread.length === 0 ? {} : { unread: [...read.unread] }),
      ...staleness(prices.staleAgeMs),
    };
  },
});

/** What a query asks for: the ids to find, and how to name them. */
interface Target {
  readonly ids: readonly number[];
  readonly names: () => Promise<ReadonlyMap<number, string>>;
}

/**
 * A name's best matches (each named in the language it matched, or in `lang` when given), or a
 * chat link's item.
 */
async function queried(
  deps: ToolDeps,
  query: SearchQuery,
  lang: Lang | undefined,
): Promise<Target> {
  if (query.kind === "link") {
    return { ids: [query.id], names: () => namesOf(deps, [query.id], lang) };
  }
  const index = requireNameIndex(deps);
  const { matches } = await index.search(query.text, FIND_QUERY_MATCHES, lang);
  const named = lang === undefined ? matches : await inLanguage(deps, index, matches, lang);
  return {
    ids: named.map((match) => match.id),
    names: () => Promise.resolve(new Map(named.map((match) => [match.id, match.name]))),
  };
}

function namesOf(
  deps: ToolDeps,
  ids: readonly number[],
  lang: Lang | undefined,
): Promise<ReadonlyMap<number, string>> {
  return itemNamesIn(deps.gw2, deps.names, ids, lang ?? "en");
}

/** What the index covers, when a query matched nothing: a miss proves absence only when complete. */
function shortStatus(
  status: { readonly names: number; readonly complete: boolean },
): { names: number; complete: boolean } {
  return { names: status.names, complete: status.complete };
}
