/**
 * The MCP Apps views (`io.modelcontextprotocol/ui`): the documents, their `ui://` URIs and
 * their registration as resources on a request's server. A tool links its view with
 * `ToolDefinition.view`; hosts that render views fetch the document with `resources/read` and
 * hand it the tool's result, and every other host ignores the link, so the tool result is the
 * same for both.
 *
 * @module
 */

import type { McpServer } from "@modelcontextprotocol/server";
import { CRAFT_RENDER_JS } from "./craft.ts";
import { viewDocument, type ViewDocumentParts } from "./document.ts";
import { HISTORY_RENDER_JS } from "./history.ts";
import { RANKING_RENDER_JS } from "./ranking.ts";
import { TABLE_JS } from "./table.ts";
import { TODAY_RENDER_JS } from "./today.ts";
import { TRADING_POST_RENDER_JS } from "./trading_post.ts";
import { TREE_RENDER_JS } from "./tree.ts";
import {
  CRAFT_VIEW_URI,
  PRICE_HISTORY_VIEW_URI,
  RANKING_VIEW_URI,
  TODAY_VIEW_URI,
  TRADING_POST_VIEW_URI,
  TREE_VIEW_URI,
  VIEW_MIME_TYPE,
} from "./uris.ts";

export {
  CRAFT_VIEW_URI,
  PRICE_HISTORY_VIEW_URI,
  RANKING_VIEW_URI,
  TODAY_VIEW_URI,
  TRADING_POST_VIEW_URI,
  TREE_VIEW_URI,
  VIEW_MIME_TYPE,
  viewMeta,
} from "./uris.ts";

/** One view: a resource served as one HTML document. */
export interface ViewDefinition {
  /** The resource's `name`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly uri: string;
  /** The whole document (built on first read, then kept). */
  readonly html: string;
}

/**
 * A view whose document is assembled when first read: a process that never serves a view (most
 * tool traffic) does not keep ~100 KB of HTML per view in its heap.
 */
function lazyView(
  definition: Omit<ViewDefinition, "html">,
  parts: ViewDocumentParts,
): ViewDefinition {
  let html: string | undefined;
  return {
    ...definition,
    get html(): string {
      html ??= viewDocument(parts);
      return html;
    },
  };
}

/**
 * What the views ask of the host's sandbox, as resource `_meta.ui`: no network origin at all
 * (an empty CSP declaration: scripts and styles are inline, nothing is fetched), and a border.
 */
export const VIEW_UI_META = { csp: {}, prefersBorder: true } as const;

/** Every view, in `resources/list` order. */
export const VIEWS: readonly ViewDefinition[] = [
  lazyView({
    name: "recipe-tree-view",
    title: "Recipe tree view",
    description:
      "Interactive view of priory_recipe_tree: the tree by level with each decision, costs in gold/silver/copper, the shopping list, profit.",
    uri: TREE_VIEW_URI,
  }, {
    title: "Priory recipe tree",
    appName: "priory-recipe-tree",
    scripts: [TREE_RENDER_JS],
    renderer: "PrioryTree",
  }),
  lazyView({
    name: "legendary-ranking-view",
    title: "Legendary ranking view",
    description:
      "Interactive view of priory_legendary_ranking: a sortable table with profit bars; choosing a row opens that legendary's tree.",
    uri: RANKING_VIEW_URI,
  }, {
    title: "Priory legendary ranking",
    appName: "priory-legendary-ranking",
    scripts: [TREE_RENDER_JS, TABLE_JS, RANKING_RENDER_JS],
    renderer: "PrioryRanking",
  }),
  lazyView({
    name: "craft-profit-view",
    title: "Crafting profit view",
    description:
      "Interactive view of priory_craft_profit: a sortable table of crafts with profit bars; choosing a row opens one craft's tree.",
    uri: CRAFT_VIEW_URI,
  }, {
    title: "Priory crafting profit",
    appName: "priory-craft-profit",
    scripts: [TREE_RENDER_JS, TABLE_JS, CRAFT_RENDER_JS],
    renderer: "PrioryCraft",
  }),
  lazyView({
    name: "price-history-view",
    title: "Price history view",
    description:
      "Chart of priory_price_history: per item the lowest listing and best order as lines, units sold and bought as bars, and the figures.",
    uri: PRICE_HISTORY_VIEW_URI,
  }, {
    title: "Priory price history",
    appName: "priory-price-history",
    scripts: [HISTORY_RENDER_JS],
    renderer: "PrioryHistory",
  }),
  lazyView({
    name: "today-view",
    title: "Today view",
    description:
      "Checklist of priory_today: the resets counting down, then per part what is done and what is left, and the Wizard's Vault's tracks.",
    uri: TODAY_VIEW_URI,
  }, {
    title: "Priory today",
    appName: "priory-today",
    scripts: [TODAY_RENDER_JS],
    renderer: "PrioryToday",
  }),
  lazyView({
    name: "trading-post-view",
    title: "Trading Post view",
    description:
      "Your Trading Post from priory_trading_post: listings and buy orders with undercut/outbid badges and the units ahead, the delivery box, the earnings.",
    uri: TRADING_POST_VIEW_URI,
  }, {
    title: "Priory Trading Post",
    appName: "priory-trading-post",
    scripts: [TRADING_POST_RENDER_JS],
    renderer: "PrioryTradingPost",
  }),
];

/**
 * Registers every view as a resource on `server` (`resources/list`, `resources/read`). The
 * document is built once per process; registering costs a map entry per view.
 *
 * @example
 * ```ts
 * registerViews(server);
 * ```
 */
export function registerViews(server: McpServer, views: readonly ViewDefinition[] = VIEWS): void {
  for (const view of views) {
    server.registerResource(view.name, view.uri, {
      title: view.title,
      description: view.description,
      mimeType: VIEW_MIME_TYPE,
      _meta: { ui: VIEW_UI_META },
    }, () => ({
      contents: [{
        uri: view.uri,
        mimeType: VIEW_MIME_TYPE,
        text: view.html,
        _meta: { ui: VIEW_UI_META },
      }],
    }));
  }
}
