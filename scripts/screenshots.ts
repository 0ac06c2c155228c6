/**
 * Regenerates the screenshots in `docs/` (shown in the README): the recipe tree view of
 * Sunrise (30703, a generation-1 legendary), the legendary ranking view over the fake GW2 API's
 * veteran account, the price history view of a day of the fake's moving market, and the Trading
 * Post view of the fake's main account (its planted orders, box and history), each
 * rendered by headless Chromium inside the test host
 * (`tests/views/_host.ts`) from a real tool result of the in-process server; and the public
 * server's front page as a player sees it (an operator and gw2.me configured).
 *
 * ```sh
 * deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-run --allow-env scripts/screenshots.ts
 * ```
 *
 * Needs Chromium (`apt-get install chromium-headless-shell`).
 *
 * @module
 */

import type { CallToolResult } from "@modelcontextprotocol/client";
import { TEST_KEYS, WELL_KNOWN } from "../tests/fake_gw2/mod.ts";
import { connectClient, startTestApp } from "../tests/support/app.ts";
import { Browser, findChromium } from "../tests/support/browser.ts";
import { ManualClock } from "../tests/support/clock.ts";
import { historyDeps, MovingMarket, simulate } from "../tests/support/history.ts";
import { hostView } from "../tests/views/_host.ts";
import { frontPage } from "../src/auth/front_page.ts";
import {
  PRICE_HISTORY_VIEW_URI,
  RANKING_VIEW_URI,
  TRADING_POST_VIEW_URI,
  TREE_VIEW_URI,
  VIEWS,
} from "../src/views/mod.ts";

const WIDTH = 880;
/** The shots stop here: enough to show the view, small enough to keep the PNG light. */
const MAX_HEIGHT = 1_100;

const chromium = await findChromium();
if (chromium === undefined) {
  throw new Error("No Chromium found: apt-get install chromium-headless-shell");
}

function documentOf(uri: string): string {
  const view = VIEWS.find((entry) => entry.uri === uri);
  if (view === undefined) throw new Error(`no view ${uri}`);
  return view.html;
}

async function shoot(
  name: string,
  html: string,
  result: CallToolResult,
  args: Record<string, unknown>,
  maxHeight = MAX_HEIGHT,
): Promise<void> {
  await using browser = await Browser.launch(chromium!);
  const page = await browser.newPage();
  await page.viewport(WIDTH, maxHeight);
  const host = await hostView(page, html, { width: WIDTH });
  const first = await host.sizeFrom(0, () => true, "the first size");
  const mark = host.sizes.length;
  await host.bridge.sendToolInput({ arguments: args });
  await host.bridge.sendToolResult(result);
  const drawn = await host.sizeFrom(
    mark,
    (size) => (size.height ?? 0) > (first.height ?? 0) + 100,
    "the drawn view",
  );
  // The frame follows the reported heights: wait until a few frames pass without a new one.
  for (let quiet = 0, seen = host.sizes.length; quiet < 3;) {
    await page.evaluate("new Promise((resolve) => setTimeout(resolve, 50))");
    quiet = host.sizes.length === seen ? quiet + 1 : 0;
    seen = host.sizes.length;
  }
  const last = host.sizes.at(-1) ?? drawn;
  const height = Math.min(maxHeight, Math.ceil(last.height ?? maxHeight));
  const png = await page.screenshot({ x: 0, y: 0, width: WIDTH, height });
  const path = new URL(`../docs/${name}`, import.meta.url);
  await Deno.writeFile(path, png);
  // deno-lint-ignore no-console -- the script reports what it wrote
  console.log(`${path.pathname}: ${png.byteLength} bytes, ${WIDTH}×${height}`);
}

await using app = await startTestApp();
await using client = await connectClient(app.handler, {
  headers: { "X-GW2-Key": TEST_KEYS.veteran },
});

const treeArgs = { itemId: 30703, useAccount: true };
const tree = await client.callTool({ name: "priory_recipe_tree", arguments: treeArgs });
await shoot(
  "view-recipe-tree.png",
  documentOf(TREE_VIEW_URI),
  tree as CallToolResult,
  treeArgs,
  2_000,
);

const rankingArgs = { limit: 10 };
const ranking = await client.callTool({ name: "priory_legendary_ranking", arguments: rankingArgs });
await shoot(
  "view-legendary-ranking.png",
  documentOf(RANKING_VIEW_URI),
  ranking as CallToolResult,
  rankingArgs,
);

// A day and a bit of snapshots of the moving market, then the history of two items.
const clock = new ManualClock({ start: Date.UTC(2026, 10, 28, 22), advance: "delays" });
await using market = await startTestApp({ clock });
const historyIds = [WELL_KNOWN.mysticCoin, 19721];
await simulate(historyDeps({ kv: market.kv, clock }), new MovingMarket(), historyIds, 26 * 60, {
  upkeepEvery: 15,
});
await using marketClient = await connectClient(market.handler);
const historyArgs = { ids: historyIds };
const history = await marketClient.callTool({
  name: "priory_price_history",
  arguments: historyArgs,
});
await shoot(
  "view-price-history.png",
  documentOf(PRICE_HISTORY_VIEW_URI),
  history as CallToolResult,
  historyArgs,
);

/** The front page of a public server at priory.example.com, as its HTML is served. */
async function shootFrontPage(name: string, width: number, maxHeight: number): Promise<void> {
  const html = frontPage({
    lang: "en",
    resource: "https://priory.example.com/mcp",
    gw2me: true,
    operator: { name: "The Priory guild", url: "https://priory.example.com/privacy" },
  });
  await using browser = await Browser.launch(chromium!);
  const page = await browser.newPage();
  await page.viewport(width, 800);
  await page.navigate(
    `data:text/html;base64,${btoa(String.fromCharCode(...new TextEncoder().encode(html)))}`,
  );
  const full = Number(await page.evaluate("document.documentElement.scrollHeight"));
  const height = Math.min(maxHeight, Math.ceil(full));
  const png = await page.screenshot({ x: 0, y: 0, width, height });
  const path = new URL(`../docs/${name}`, import.meta.url);
  await Deno.writeFile(path, png);
  // deno-lint-ignore no-console -- the script reports what it wrote
  console.log(`${path.pathname}: ${png.byteLength} bytes, ${width}×${height}`);
}

await shootFrontPage("page-front.png", 600, 2_400);

// The main account's Trading Post: undercut and outbid orders, the delivery box, the week.
await using trader = await connectClient(app.handler, { headers: { "X-GW2-Key": TEST_KEYS.full } });
const tradingArgs = { limit: 5 };
const trading = await trader.callTool({ name: "priory_trading_post", arguments: tradingArgs });
await shoot(
  "view-trading-post.png",
  documentOf(TRADING_POST_VIEW_URI),
  trading as CallToolResult,
  tradingArgs,
);
