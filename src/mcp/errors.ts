/**
 * The one place failures are classified: what a failed tool call was, how loudly it is logged,
 * and the model-facing text. Every text says what happened and what to do about it; none carries
 * a stack, an internal path, the upstream URL or a credential (the upstream errors are built
 * without them, and unexpected errors are never echoed). A tool's own wording (what it looks up,
 * what it can do about a used-up budget) comes from its definition's `errorHints`.
 *
 * @module
 */

import { AchievementCatalogueNotReadyError } from "../achievements/run.ts";
import { DeadlineExceededError } from "../async/deadline.ts";
import { Gw2ApiRefusedError, Gw2ApiTooLargeError } from "../gw2/api_path.ts";
import { CraftCatalogueError } from "../craft/scanner.ts";
import { MarketSheetPendingError } from "../market/sheets.ts";
import { NotCraftableError } from "../tree/pricing.ts";
import { isGw2Failure, type UpstreamFailureReason } from "../gw2/errors.ts";
import { NameIndexUnavailableError } from "../search/name_index.ts";
import { MissingGw2KeyError, type ToolErrorHints, UnexpandedGw2KeyError } from "../tools/types.ts";

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
  too_large:
    "the GW2 API's answer was larger than this server reads. Ask for less (a page, or some ids)",
  unexpected_status:
    "the GW2 API answered with an unexpected status. Retry later; if it persists, report it to the server operator",
};

/** Lists ids for a message, bounded so a 100-id failure stays short. */
function listIds(ids: readonly number[]): string {
  const shown = ids.slice(0, 20).join(", ");
  return ids.length > 20 ? `${shown} and ${ids.length - 20} more` : shown;
}

/** The level a failure is logged at: the player's or upstream's trouble (info) up to a crash. */
export type FailureLevel = "info" | "warn" | "error";

/**
 * A failed tool call as every consumer sees it: `kind`, a short label for logs and metrics
 * (`rate_limited`, `missing_gw2_key`, `deadline`, `crashed` ...); `level`, the level its log line
 * takes; `text`, what the model reads. `reason` refines an upstream failure's kind.
 */
export interface Failure {
  readonly kind: string;
  readonly level: FailureLevel;
  readonly text: string;
  readonly reason?: string;
}

/** What {@linkcode classifyFailure} needs to know of the call besides the error. */
export interface FailureContext {
  /** The tool's own wording for a not-found or a used-up budget (its definition's). */
  readonly hints?: ToolErrorHints;
  /** Where the call's key came from. @default "header" */
  readonly keySource?: KeySource;
}

/**
 * The one classification of a failed tool call: what it was, how loudly to log it, and the
 * text naming the cause and the remedy. The tool server logs and answers from it; nothing else
 * inspects errors.
 *
 * @example
 * ```ts
 * classifyFailure(new Gw2RateLimitedError(12_000), { hints: gw2Items.errorHints });
 * // { kind: "rate_limited", level: "info", text: "Rate limited: ... Retry in 12 s ..." }
 * ```
 */
export function classifyFailure(error: unknown, context: FailureContext = {}): Failure {
  const { hints = {}, keySource = "header" } = context;
  const info = (kind: string, text: string): Failure => ({ kind, level: "info", text });
  if (error instanceof MissingGw2KeyError) {
    return info(
      "missing_gw2_key",
      `No GW2 API key: this tool reads your GW2 account and needs the header "X-GW2-Key: <your GW2 API key>" in this MCP server's client configuration, next to the Authorization header (Claude Code: add --header "X-GW2-Key: <key>" to claude mcp add, or "X-GW2-Key" under "headers" in .mcp.json), then reconnect. Create a key at ${KEY_PAGE}. Never paste the key into the conversation.`,
    );
  }
  if (error instanceof UnexpandedGw2KeyError) {
    return info(
      "unexpanded_gw2_key",
      `GW2 API key rejected before use: the X-GW2-Key header holds a "$" variable reference, not a key, so the client configuration's \${VAR} substitution did not happen (a known problem with headers). Put the key itself in the configuration, or add it with claude mcp add --header "X-GW2-Key: <key>" from a shell, which expands variables before the client stores them.`,
    );
  }
  if (error instanceof NameIndexUnavailableError) {
    // The server's own storage failed, not the player: worth a warning, not a crash report.
    return {
      kind: "name_index_unavailable",
      level: "warn",
      text:
        "Item search unavailable: the server's name index could not be read. Retry in a minute; if you know the item id, gw2_items answers without the index.",
    };
  }
  if (error instanceof NotCraftableError) {
    const name = error.itemName === undefined ? "" : ` (${error.itemName})`;
    return info(
      "not_craftable",
      `Not craftable: item ${error.itemId}${name} has no recipe in the GW2 API nor in Priory's Mystic Forge and vendor data, so there is no tree to price. Its Trading Post price is in gw2_prices.`,
    );
  }
  if (error instanceof MarketSheetPendingError) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    const read = error.pageTotal === undefined
      ? ""
      : ` (${error.pagesRead} of ${error.pageTotal} pages read)`;
    return info(
      "not_ready",
      `Not ready: this server is still reading the whole Trading Post${read}, which pricing every recipe needs; it goes on without you. Retry in ${seconds} s.`,
    );
  }
  if (error instanceof CraftCatalogueError) return craftCatalogueFailure(error);
  // Issue 30: gw2_api's gate, an answer too large to keep, the achievement catalogue.
  if (error instanceof Gw2ApiRefusedError) return info("refused", `Refused: ${error.reason}`);
  if (error instanceof Gw2ApiTooLargeError) {
    const megabytes = (error.bytes / 1_000_000).toFixed(1);
    return info(
      "too_large",
      `Too large: the answer of ${error.path} is ${
        error.atLeast ? "over " : ""
      }${megabytes} MB of JSON, more than gw2_api keeps. Ask for a page (page: 0) or some ids instead.`,
    );
  }
  if (error instanceof AchievementCatalogueNotReadyError) {
    return info(
      "not_ready",
      "Not ready: the achievement catalogue (every /v2/achievements page), which a name or item lookup needs, could not be read from the GW2 API just now. Retry in a minute; a lookup by ids works without it.",
    );
  }
  if (error instanceof DeadlineExceededError) {
    return {
      kind: "deadline",
      level: "warn",
      text:
        "Timed out: the answer was not ready within this tool's time limit, usually because the GW2 API is slow or not answering. Retry in a minute.",
    };
  }
  if (!isGw2Failure(error)) {
    return {
      kind: "crashed",
      level: "error",
      text:
        "Internal error: the tool failed unexpectedly. Retry once; if it fails again, report it to the server operator.",
    };
  }
  const gw2 = (text: string): Failure => ({ kind: error.kind, level: "info", text });
  switch (error.kind) {
    case "rate_limited": {
      const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      return gw2(
        `Rate limited: the shared GW2 API request budget is used up. Retry in ${seconds} s${
          hints.rateLimited ?? ""
        }.`,
      );
    }
    case "not_found": {
      const subject = hints.notFound?.what ?? error.what;
      const hint = hints.notFound?.hint ?? "Check the ids.";
      return gw2(
        error.ids.length === 0
          ? `Not found: the GW2 API has no such ${subject}. ${hint}`
          : `Not found: the GW2 API has no ${subject} with id ${listIds(error.ids)}. ${hint}`,
      );
    }
    case "key_rejected":
      if (keySource === "sign-in") {
        return gw2(
          `GW2 API key rejected: GW2 no longer accepts the key you gave when you signed in to this server (deleted, expired or replaced), so this sign-in has ended. Sign in again with a current key from ${KEY_PAGE}: your app asks you to on its next request to this server; if it does not, disconnect and reconnect the server in it (${MCP_REMOTE_SIGN_OUT}).`,
        );
      }
      return gw2(
        `GW2 API key rejected: GW2 does not accept the key in the X-GW2-Key header (wrong, expired or deleted). Check it, or create a new one at ${KEY_PAGE}, and update the client configuration. If the configuration uses \${VAR}, check that the variable was expanded.`,
      );
    case "scope_missing": {
      const named = error.scopes.map((scope) => `"${scope}"`).join(", ");
      const plural = error.scopes.length > 1 ? "s" : "";
      if (keySource === "sign-in") {
        return gw2(
          `GW2 API key lacks the ${named} permission${plural}: the key you signed in with cannot read this. Create a key with ${named} ticked at ${KEY_PAGE}, then sign in again with it: disconnect and reconnect this server in your app (${MCP_REMOTE_SIGN_OUT}).`,
        );
      }
      return gw2(
        `GW2 API key lacks the ${named} permission${plural}: create a key with ${named} ticked at ${KEY_PAGE} and put it in the X-GW2-Key header.`,
      );
    }
    case "upstream": {
      const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
      return {
        ...gw2(`GW2 API unavailable${status}: ${UPSTREAM_TEXT[error.reason]}.`),
        reason: error.reason,
      };
    }
    case "storage":
      return gw2(
        "Server storage unavailable: this server's database (Deno KV), which holds its cache and its GW2 API request budget, is not answering, so the GW2 API was not asked. Retry in a minute; if it persists, report it to the server operator.",
      );
  }
}

/** The crafting scan's catalogue could not be used: off (for good), pending, or failed. */
function craftCatalogueFailure(error: CraftCatalogueError): Failure {
  switch (error.reason) {
    case "off":
      return {
        kind: "unavailable",
        level: "info",
        text:
          "Crafting scan unavailable: this server runs without its recipe catalogue (PRIORY_CATALOGUE=off), which the scan over every recipe needs. Use priory_recipe_tree for one item instead.",
      };
    case "pending":
      return {
        kind: "not_ready",
        level: "info",
        text:
          "Not ready: this server is still reading the recipe catalogue (every recipe page of the GW2 API), which the scan over every recipe needs; it goes on without you. Retry in 30 s.",
      };
    case "failed":
      return {
        kind: "unavailable",
        level: "info",
        text:
          "Crafting scan unavailable: the recipe catalogue could not be read from the GW2 API just now. Retry in a minute.",
      };
  }
}
