/**
 * The lean result of `priory_item_search`: each match as `{id, name, rarity, type}` and what
 * the index covers, built field by field like every other shape.
 *
 * @module
 */

import type { IndexStatus, NameEntry } from "./name_index.ts";

/** One match. */
export interface ShapedMatch {
  readonly id: number;
  readonly name: string;
  readonly rarity: string;
  readonly type: string;
}

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

/** Shapes matches (in rank order) and the index status. */
export function shapeItemSearchResult(
  matches: readonly NameEntry[],
  status: IndexStatus,
): ItemSearchResult {
  return {
    matches: matches.map((match) => ({
      id: match.id,
      name: match.name,
      rarity: match.rarity,
      type: match.type,
    })),
    index: { names: status.names, complete: status.complete },
  };
}
