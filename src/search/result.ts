/**
 * The lean result of `priory_item_search`: each match as `{id, name, rarity, type}` (and the
 * language of its name when the call asked for none, or when the one asked has no name for it)
 * and what the index covers, built field by field like every other shape.
 *
 * @module
 */

import type { Lang } from "../gw2/types.ts";
import type { IndexStatus, NameEntry } from "./name_index.ts";

/** One match. */
export interface ShapedMatch {
  readonly id: number;
  readonly name: string;
  readonly rarity: string;
  readonly type: string;
  /** The name's language: always without a `lang` asked; else only when it is not that one. */
  readonly lang?: Lang;
}

/** A match as the search found it: an entry and the language of its name. */
export type FoundMatch = NameEntry & { readonly lang: Lang };

/** What the index covers: a miss means "not found" only when `complete` is true. */
export interface ShapedIndexStatus {
  /** Item names indexed. */
  readonly names: number;
  /** True once the whole catalogue is indexed. */
  readonly complete: boolean;
}

/** `priory_item_search` structured result. */
export interface ItemSearchResult {
  readonly matches: ShapedMatch[];
  readonly index: ShapedIndexStatus;
}

/**
 * Shapes matches (in rank order) and the index status. With `asked` (the call's `lang`), a
 * match named in that language says no language; without, each says its own.
 */
export function shapeItemSearchResult(
  matches: readonly FoundMatch[],
  status: IndexStatus,
  asked?: Lang,
): ItemSearchResult {
  return {
    matches: matches.map((match) => ({
      id: match.id,
      name: match.name,
      rarity: match.rarity,
      type: match.type,
      ...(match.lang === asked ? {} : { lang: match.lang }),
    })),
    index: { names: status.names, complete: status.complete },
  };
}
