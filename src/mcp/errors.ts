/**
 * The one place failures become model-facing text. Every branch says what happened and what to
 * do about it; none carries a stack, an internal path, the upstream URL or a credential (the
 * upstream errors are built without them, and unexpected errors are never echoed).
 *
 * @module
 */

import { DeadlineExceededError } from "../async/deadline.ts";
import { CraftCatalogueError } from "../craft/scanner.ts";
import { MarketSheetPendingError } from "../market/sheets.ts";
import { NotCraftableError } from "../tree/pricing.ts";
import { isGw2Failure, type UpstreamFailureReason } from "../gw2/errors.ts";
import { NameIndexUnavailableError } from "../search/name_index.ts";
import { MAX_IDS } from "../tools/inputs.ts";
import { MissingGw2KeyError, UnexpandedGw2KeyError } from "../tools/types.ts";

/**
 * Where a call's GW2 key came from: the `X-GW2-Key` header (token mode), or the player's sign-in
 * (public mode), whose remedy for a bad key is to sign in again.
 */
export type KeySource = "header" | "sign-in";

/** Where a player creates or edits GW2 API keys. */
const KEY_PAGE = "https://account.arena.net/applications";
/**
 * How to make `mcp-remote` sign in again: it keeps its tokens in a folder of its own and reuses
 * them until the server refuses them.
 */
const MCP_REMOTE_SIGN_OUT =
  "mcp-remote keeps its sign-in in ~/.mcp-auth: delete that folder, then restart it";

/** What a tool looks up, for not-found texts; unlisted tools get the generic text. */
const NOT_FOUND: Readonly<Record<string, { what: string; hint: string }>> = {
  gw2_items: { what: "item", hint: "Check the ids: item ids are numbers such as 19721." },
  gw2_recipes: {
    what: "recipe",
    hint: "These must be recipe ids, not item ids: find them with gw2_recipe_search.",
  },
  gw2_prices: {
    what: "Trading Post price",
    hint:
      "Untradeable items (account bound, soulbound, most currencies) have no price; check the ids with gw2_items.",
  },
  priory_recipe_tree: { what: "item", hint: "Check the id: item ids are numbers such as 19721." },
};

/**
 * What each tool can do about a used-up budget besides waiting. Id-list tools save requests by
 * batching; the tree tools keep what they read, so a retry asks for less. Unlisted: wait only.
 */
const RATE_LIMIT_ADVICE: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    ["gw2_items", "gw2_recipes", "gw2_prices", "priory_account_materials"].map((name) => [
      name,
      `, and batch ids into one call (up to MAX_IDS = ${MAX_IDS}) instead of many calls`,
    ]),
  ),
  priory_recipe_tree:
    "; the records already read are cached, so the retry asks the GW2 API for less",
  priory_legendary_ranking:
    " (a cold ranking reads hundreds of records); what it already read is cached, so the retry, on any instance, asks for less",
  priory_craft_profit:
    " (a fresh server reads the whole Trading Post, ~135 requests); what it already read is kept, so the retry asks for less",
};

const UPSTREAM_TEXT: Readonly<Record<UpstreamFailureReason, string>> = {
  timeout: "the GW2 API did not answer in time. Retry in a minute",
  network: "the GW2 API could not be reached. Retry in a minute",
  server_error: "the GW2 API is failing on its side. Retry in a few minutes",
  not_active:
    'ArenaNet has switched this GW2 API endpoint off ("API not active"), usually for maintenance. Retry later; there is no workaround meanwhile',
  disabled:
    "ArenaNet has disabled the whole GW2 API for now (this happens around game releases). Retry later",
  malformed:
    "the GW2 API sent an answer that could not be read. Retry once; if it persists, report it to the server operator",
  unexpected_status:
    "the GW2 API answered with an unexpected status. Retry later; if it persists, report it to the server operator",
};

/** Lists ids for a message, bounded so a 100-id failure stays short. */
function listIds(ids: readonly number[]): string {
  const shown = ids.slice(0, 20).join(", ");
  return ids.length > 20 ? `${shown} and ${ids.length - 20} more` : shown;
}

/**
 * Model-facing text for a failed tool call.
 *
 * @example
 * ```ts
 * toolErrorText(new Gw2RateLimitedError(12_000), "gw2_items");
 * // "Rate limited: ... Retry in 12 s ..."
 * ```
 */
export function toolErrorText(
  error: unknown,
  toolName: string,
  keySource: KeySource = "header",
): string {
  if (error instanceof MissingGw2KeyError) {
    return `No GW2 API key: this tool reads your GW2 account and needs the header "X-GW2-Key: <your GW2 API key>" in this MCP server's client configuration, next to the Authorization header (Claude Code: add --header "X-GW2-Key: <key>" to claude mcp add, or "X-GW2-Key" under "headers" in .mcp.json), then reconnect. Create a key at ${KEY_PAGE}. Never paste the key into the conversation.`;
  }
  if (error instanceof UnexpandedGw2KeyError) {
    return `GW2 API key rejected before use: the X-GW2-Key header holds a "$" variable reference, not a key, so the client configuration's \${VAR} substitution did not happen (a known problem with headers). Put the key itself in the configuration, or add it with claude mcp add --header "X-GW2-Key: <key>" from a shell, which expands variables before the client stores them.`;
  }
  if (error instanceof NameIndexUnavailableError) {
    return "Item search unavailable: the server's name index could not be read. Retry in a minute; if you know the item id, gw2_items answers without the index.";
  }
  if (error instanceof NotCraftableError) {
    const name = error.itemName === undefined ? "" : ` (${error.itemName})`;
    return `Not craftable: item ${error.itemId}${name} has no recipe in the GW2 API nor in Priory's Mystic Forge and vendor data, so there is no tree to price. Its Trading Post price is in gw2_prices.`;
  }
  if (error instanceof MarketSheetPendingError) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    const read = error.pageTotal === undefined
      ? ""
      : ` (${error.pagesRead} of ${error.pageTotal} pages read)`;
    return `Not ready: this server is still reading the whole Trading Post${read}, which pricing every recipe needs; it goes on without you. Retry in ${seconds} s.`;
  }
  if (error instanceof CraftCatalogueError) {
    switch (error.reason) {
      case "off":
        return "Crafting scan unavailable: this server runs without its recipe catalogue (PRIORY_CATALOGUE=off), which the scan over every recipe needs. Use priory_recipe_tree for one item instead.";
      case "pending":
        return "Not ready: this server is still reading the recipe catalogue (every recipe page of the GW2 API), which the scan over every recipe needs; it goes on without you. Retry in 30 s.";
      case "failed":
        return "Crafting scan unavailable: the recipe catalogue could not be read from the GW2 API just now. Retry in a minute.";
    }
  }
  if (error instanceof DeadlineExceededError) {
    return "Timed out: the answer was not ready within this tool's time limit, usually because the GW2 API is slow or not answering. Retry in a minute.";
  }
  if (!isGw2Failure(error)) {
    return "Internal error: the tool failed unexpectedly. Retry once; if it fails again, report it to the server operator.";
  }
  switch (error.kind) {
    case "rate_limited": {
      const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      const advice = RATE_LIMIT_ADVICE[toolName] ?? "";
      return `Rate limited: the shared GW2 API request budget is used up. Retry in ${seconds} s${advice}.`;
    }
    case "not_found": {
      const known = NOT_FOUND[toolName];
      const subject = known?.what ?? error.what;
      const hint = known?.hint ?? "Check the ids.";
      return error.ids.length === 0
        ? `Not found: the GW2 API has no such ${subject}. ${hint}`
        : `Not found: the GW2 API has no ${subject} with id ${listIds(error.ids)}. ${hint}`;
    }
    case "key_rejected":
      if (keySource === "sign-in") {
        return `GW2 API key rejected: GW2 no longer accepts the key you gave when you signed in to this server (deleted, expired or replaced), so this sign-in has ended. Sign in again with a current key from ${KEY_PAGE}: your app asks you to on its next request to this server; if it does not, disconnect and reconnect the server in it (${MCP_REMOTE_SIGN_OUT}).`;
      }
      return `GW2 API key rejected: GW2 does not accept the key in the X-GW2-Key header (wrong, expired or deleted). Check it, or create a new one at ${KEY_PAGE}, and update the client configuration. If the configuration uses \${VAR}, check that the variable was expanded.`;
    case "scope_missing": {
      const named = error.scopes.map((scope) => `"${scope}"`).join(", ");
      const plural = error.scopes.length > 1 ? "s" : "";
      if (keySource === "sign-in") {
        return `GW2 API key lacks the ${named} permission${plural}: the key you signed in with cannot read this. Create a key with ${named} ticked at ${KEY_PAGE}, then sign in again with it: disconnect and reconnect this server in your app (${MCP_REMOTE_SIGN_OUT}).`;
      }
      return `GW2 API key lacks the ${named} permission${plural}: create a key with ${named} ticked at ${KEY_PAGE} and put it in the X-GW2-Key header.`;
    }
    case "upstream": {
      const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
      return `GW2 API unavailable${status}: ${UPSTREAM_TEXT[error.reason]}.`;
    }
    case "storage":
      return "Server storage unavailable: this server's database (Deno KV), which holds its cache and its GW2 API request budget, is not answering, so the GW2 API was not asked. Retry in a minute; if it persists, report it to the server operator.";
  }
}
