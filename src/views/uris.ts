/**
 * Where the MCP Apps views live (`ui://` URIs), and what a tool declares to link one. Kept apart
 * from the documents themselves so a tool definition names its view without loading its HTML.
 *
 * @module
 */

/** The media type of an MCP Apps view (`io.modelcontextprotocol/ui`, 2026-01-26). */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** The priced recipe tree's view (`priory_recipe_tree`). */
export const TREE_VIEW_URI = "ui://priory/recipe-tree.html";

/** The legendary ranking's view (`priory_legendary_ranking`). */
export const RANKING_VIEW_URI = "ui://priory/legendary-ranking.html";

/** The crafting profit table's view (`priory_craft_profit`). */
export const CRAFT_VIEW_URI = "ui://priory/craft-profit.html";
/** The price history's chart (`priory_price_history`). */
export const PRICE_HISTORY_VIEW_URI = "ui://priory/price-history.html";
/** The day's checklist (`priory_today`). */
export const TODAY_VIEW_URI = "ui://priory/today.html";
/** The account's Trading Post (`priory_trading_post`). */
export const TRADING_POST_VIEW_URI = "ui://priory/trading-post.html";

/**
 * The `_meta` a tool publishes in `tools/list` to link its view: the extension's
 * `ui.resourceUri`, and the flat `ui/resourceUri` key hosts that predate it read (the extension's
 * own `registerAppTool` writes both).
 *
 * @example
 * ```ts
 * viewMeta(TREE_VIEW_URI); // {ui: {resourceUri: "ui://priory/recipe-tree.html"}, "ui/resourceUri": ...}
 * ```
 */
export function viewMeta(uri: string): Record<string, unknown> {
  return { ui: { resourceUri: uri }, "ui/resourceUri": uri };
}
