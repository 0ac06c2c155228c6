/**
 * What a search query is: an item name (or part of one) or an in-game chat link, decided and
 * checked before any work. Chat links are decoded with gw2efficiency's `gw2e-chat-codes`;
 * only item links resolve to an item, and any other kind (skill, map, recipe...) is refused with
 * a sentence saying what it is (a recipe link names the recipe id for `gw2_recipes`).
 *
 * @module
 */

import { decode } from "gw2e-chat-codes";
import { foldName } from "./normalize.ts";

/** The longest query accepted, in characters. */
export const MAX_QUERY_LENGTH = 200;

/** A query ready to run. */
export type SearchQuery =
  | { readonly kind: "name"; readonly text: string }
  | { readonly kind: "link"; readonly id: number };

/** A query, or why it cannot be run (a model-facing sentence). */
export type ParsedQuery = SearchQuery | { readonly kind: "refused"; readonly reason: string };

const LINK_SYNTAX = /^\[&[A-Za-z0-9+/]+=*\]$/;
const EXAMPLES = 'such as "glob of ecto", or an item chat link such as [&AgEJTQAA]';

/**
 * Parses a raw query (surrounding whitespace ignored).
 *
 * @example
 * ```ts
 * parseSearchQuery("[&AgEJTQAA]"); // { kind: "link", id: 19721 }
 * parseSearchQuery(" ecto ");      // { kind: "name", text: "ecto" }
 * ```
 */
export function parseSearchQuery(raw: string): ParsedQuery {
  const text = raw.trim();
  if (text === "") {
    return refused(`the query is empty: give an item name or part of one, ${EXAMPLES}`);
  }
  if (text.length > MAX_QUERY_LENGTH) {
    return refused(
      `the query is ${text.length} characters long, at most ${MAX_QUERY_LENGTH}: give the item's name or the part of it you know`,
    );
  }
  if (text.startsWith("[&")) return parseChatLink(text);
  if (foldName(text) === "") {
    return refused(`the query has no letter or digit: give an item name ${EXAMPLES}`);
  }
  return { kind: "name", text };
}

function parseChatLink(text: string): ParsedQuery {
  const invalid = refused(
    `${
      JSON.stringify(text.slice(0, 40))
    } is not a valid chat link: copy the whole link from the game, e.g. [&AgEJTQAA], or search by name`,
  );
  if (!LINK_SYNTAX.test(text)) return invalid;
  let decoded: ReturnType<typeof decode>;
  try {
    decoded = decode(text);
  } catch {
    return invalid;
  }
  if (decoded === false) return invalid;
  if (decoded.type === "recipe") {
    return refused(
      `that is a recipe chat link, not an item link: read recipe ${decoded.id} with gw2_recipes`,
    );
  }
  if (decoded.type !== "item") {
    return refused(
      `that is a ${decoded.type} chat link, not an item link: this tool resolves item links only (they start [&Ag); search by the item's name instead`,
    );
  }
  if (!Number.isSafeInteger(decoded.id) || decoded.id <= 0) return invalid;
  return { kind: "link", id: decoded.id };
}

function refused(reason: string): ParsedQuery {
  return { kind: "refused", reason };
}
