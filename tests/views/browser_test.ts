/**
 * The views in a real browser: headless Chromium, a test host embedding each view the way
 * hosts do (`_host.ts`: sandboxed iframe, strict CSP, the extension's `AppBridge`), fed real
 * tool results from the in-process server over the fake GW2 API. The assertions are what a host
 * hears — the handshake, the sizes the view reports, its tool calls, its error log — plus the
 * page's accessibility tree (what a user sees), never the view's private DOM.
 *
 * Without Chromium installed the tests are skipped, saying so in their names; with
 * `PRIORY_REQUIRE_BROWSER=1` (set by `.ci/run`) a missing Chromium fails them instead.
 */
import assert from "node:assert/strict";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import {
  getToolUiResourceUri,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, type TestApp } from "../support/app.ts";
import { type AxNode, Browser, findChromium, type Page } from "../support/browser.ts";
import { ManualClock } from "../support/clock.ts";
import { historyDeps, MovingMarket, simulate } from "../support/history.ts";
import { hostView } from "./_host.ts";

const CHROMIUM = await findChromium();
const REQUIRED = Deno.env.get("PRIORY_REQUIRE_BROWSER") === "1";
const SKIPPED = CHROMIUM === undefined && !REQUIRED;
const SUFFIX = SKIPPED
  ? " (SKIPPED: no Chromium found; apt-get install chromium-headless-shell, or set PRIORY_REQUIRE_BROWSER=1 to fail instead)"
  : "";

/** Sunrise, a generation-1 legendary greatsword: a Mystic Forge tree of ~150 nodes. */
const SUNRISE = 30703;

async function launch(): Promise<Browser> {
  if (CHROMIUM === undefined) {
    throw new Error(
      "PRIORY_REQUIRE_BROWSER=1 but no Chromium is installed: apt-get install chromium-headless-shell",
    );
  }
  return await Browser.launch(CHROMIUM);
}

/** The view document a host would fetch for `toolName`: through its `_meta.ui` link. */
async function viewFor(app: TestApp, toolName: string): Promise<string> {
  await using client = await connectClient(app.handler, { era: "2026" });
  const { tools } = await client.listTools();
  const tool = tools.find((entry: Tool) => entry.name === toolName);
  const uri = tool === undefined ? undefined : getToolUiResourceUri(tool);
  assert.ok(uri, `${toolName} links a view`);
  const { contents } = await client.readResource({ uri });
  const [document] = contents;
  assert.ok(document !== undefined && "text" in document, "the view is one text document");
  assert.equal(document.mimeType, RESOURCE_MIME_TYPE);
  return document.text;
}

/** Copper as gold/silver/copper, zero coins left out; written apart from the view's formatter. */
function coins(copper: number): string {
  const amount = Math.abs(copper);
  const [gold, silver, rest] = [
    Math.floor(amount / 10_000),
    Math.floor(amount / 100) % 100,
    amount % 100,
  ];
  const parts = [
    gold > 0 ? `${gold.toLocaleString("en-US")}g` : "",
    silver > 0 ? `${silver}s` : "",
    rest > 0 || amount === 0 ? `${rest}c` : "",
  ].filter((part) => part !== "");
  return `${copper < 0 ? "−" : ""}${parts.join(" ")}`;
}

/** The text a user reads in the view, in order (its accessibility tree's static text). */
async function visibleText(
  page: Page,
  frameId: string,
): Promise<{ text: string; nodes: AxNode[] }> {
  const nodes = await page.accessibility(frameId);
  const text = nodes.filter((node) => node.role === "StaticText").map((node) => node.name)
    .join("");
  return { text, nodes };
}

/**
 * A table view (the ranking, the crafting profit) hosted in a new page, its tool calls relayed to
 * the server through `client` as a real host does, and drawn from `result` (after the call's
 * `args`, when given, as hosts send them): the host, the view's frame, and the drawn table's size.
 */
async function hostTable(
  browser: Browser,
  html: string,
  client: Awaited<ReturnType<typeof connectClient>>,
  result: unknown,
  appName: string,
  args?: Record<string, unknown>,
) {
  const page = await browser.newPage();
  await page.viewport(900, 700);
  const host = await hostView(page, html, {
    // The host forwards the view's call to the server, as a real host does.
    callTool: async (params) =>
      await client.callTool({
        name: params.name,
        arguments: params.arguments ?? {},
      }) as CallToolResult,
  });
  assert.equal(host.bridge.getAppVersion()?.name, appName);
  const waiting = await host.sizeFrom(0, () => true, "the waiting view's first size");
  const mark = host.sizes.length;
  if (args !== undefined) await host.bridge.sendToolInput({ arguments: args });
  await host.bridge.sendToolResult(result as CallToolResult);
  const table = await host.sizeFrom(
    mark,
    (size) => (size.height ?? 0) > (waiting.height ?? 0) + 200,
    "the drawn table's size",
  );
  return { page, host, frame: await host.frameId(), table };
}

/** The two items the history views are drawn for. */
const HISTORY_IDS = [WELL_KNOWN.mysticCoin, 19721];

/** An app over six hours of the fake's moving market for `ids`, snapshotted as the jobs do. */
async function withHistory(ids: readonly number[]): Promise<TestApp> {
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29), advance: "delays" });
  const app = await startTestApp({ clock });
  try {
    await simulate(historyDeps({ kv: app.kv, clock }), new MovingMarket(), ids, 6 * 60);
    return app;
  } catch (error) {
    await app[Symbol.asyncDispose]();
    throw error;
  }
}

/**
 * A view (announcing `appName`) hosted in a new page and drawn from `result` (after the call's
 * `args`, when given), waited for until it has grown by `grownBy` pixels: its page, host and text.
 */
async function hostDrawn(
  browser: Browser,
  html: string,
  result: unknown,
  drawn: { appName: string; grownBy: number; what: string; args?: Record<string, unknown> },
) {
  const page = await browser.newPage();
  await page.viewport(900, 700);
  const host = await hostView(page, html);
  assert.equal(host.bridge.getAppVersion()?.name, drawn.appName);
  const waiting = await host.sizeFrom(0, () => true, "the waiting view's first size");
  const mark = host.sizes.length;
  if (drawn.args !== undefined) await host.bridge.sendToolInput({ arguments: drawn.args });
  await host.bridge.sendToolResult(result as CallToolResult);
  await host.sizeFrom(
    mark,
    (size) => (size.height ?? 0) > (waiting.height ?? 0) + drawn.grownBy,
    drawn.what,
  );
  return { page, host, ...(await visibleText(page, await host.frameId())) };
}

/** The history view drawn from `result` (after the call's `args`, when given). */
function hostHistory(
  browser: Browser,
  html: string,
  result: unknown,
  args?: Record<string, unknown>,
) {
  return hostDrawn(browser, html, result, {
    appName: "priory-price-history",
    grownBy: 400,
    what: "two drawn charts' size",
    ...(args === undefined ? {} : { args }),
  });
}

Deno.test({
  name: `tree view: renders a real gen-1 legendary tree in Chromium and reports its size${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_recipe_tree");
    await using client = await connectClient(app.handler);
    const args = { itemId: SUNRISE };
    const result = await client.callTool({ name: "priory_recipe_tree", arguments: args });
    assert.equal(result.isError, undefined);
    const structured = result.structuredContent as {
      summary: { totalCraftCost: number; netSell: number | null };
      names: Record<string, string>;
    };

    const page = await browser.newPage();
    await page.viewport(900, 700);
    const host = await hostView(page, html);
    assert.equal(host.bridge.getAppVersion()?.name, "priory-recipe-tree");
    const waiting = await host.sizeFrom(0, () => true, "the waiting view's first size");

    const mark = host.sizes.length;
    await host.bridge.sendToolInput({ arguments: args });
    await host.bridge.sendToolResult(result as CallToolResult);
    const drawn = await host.sizeFrom(
      mark,
      (size) => (size.height ?? 0) > (waiting.height ?? 0) + 300,
      "the drawn tree's size",
    );
    assert.ok((drawn.width ?? 0) > 0);

    const { text } = await visibleText(page, await host.frameId());
    assert.match(text, /Sunrise/);
    assert.ok(text.includes(coins(structured.summary.totalCraftCost)), "the craft cost in coins");
    for (const decision of ["forge", "craft", "buy"]) {
      assert.ok(text.toLowerCase().includes(decision), `a ${decision} badge`);
    }
    assert.deepEqual(host.errors, [], "the view reported no error");
    assert.deepEqual(page.errors, [], "the page logged no error (CSP, exception)");
  },
});

Deno.test({
  name: `tree view: labels follow the call's lang, else the host's locale when GW2 has it${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_recipe_tree");
    await using client = await connectClient(app.handler);
    const draw = async (
      args: Record<string, unknown>,
      locale?: string,
    ): Promise<{ text: string }> => {
      const result = await client.callTool({ name: "priory_recipe_tree", arguments: args });
      assert.equal(result.isError, undefined);
      const page = await browser.newPage();
      await page.viewport(900, 700);
      const host = await hostView(page, html, locale === undefined ? {} : { locale });
      const waiting = await host.sizeFrom(0, () => true, "the waiting view's first size");
      const mark = host.sizes.length;
      await host.bridge.sendToolInput({ arguments: args });
      await host.bridge.sendToolResult(result as CallToolResult);
      await host.sizeFrom(
        mark,
        (size) => (size.height ?? 0) > (waiting.height ?? 0) + 300,
        "the drawn tree's size",
      );
      assert.deepEqual(host.errors, []);
      assert.deepEqual(page.errors, []);
      const frame = await host.frameId();
      return { text: (await visibleText(page, frame)).text };
    };
    const german = await draw({ itemId: SUNRISE, lang: "de" });
    assert.match(german.text, /Sonnenaufgang/, "the tool's names");
    for (const label of ["Herstellungskosten", "Einkaufsliste", "Rezeptbaum", "Gewinn"]) {
      assert.ok(german.text.includes(label), label);
    }
    assert.match(german.text, /\d+k\b/u, "copper as German writes it (Kupfer)");
    assert.doesNotMatch(german.text, /Craft cost|Shopping list/);
    const french = await draw({ itemId: SUNRISE }, "fr-FR");
    assert.ok(french.text.includes("Coût de fabrication"), "the host's locale, one of the five");
    assert.match(french.text, /Sunrise/, "the names stay the call's: English");
    const italian = await draw({ itemId: SUNRISE }, "it-IT");
    assert.ok(italian.text.includes("Craft cost"), "a locale GW2 lacks: English");
  },
});

Deno.test({
  name:
    `ranking view: renders the account's ranking; choosing a row calls priory_recipe_tree through the host${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_legendary_ranking");
    await using client = await connectClient(app.handler, {
      headers: { "X-GW2-Key": TEST_KEYS.veteran },
    });
    const result = await client.callTool({
      name: "priory_legendary_ranking",
      arguments: { limit: 10 },
    });
    assert.equal(result.isError, undefined);
    const ranking = (result.structuredContent as { ranking: { id: number; name: string }[] })
      .ranking;
    const chosen = ranking[0];
    assert.ok(chosen);

    const { page, host, frame, table } = await hostTable(
      browser,
      html,
      client,
      result,
      "priory-legendary-ranking",
    );
    const { text, nodes } = await visibleText(page, frame);
    for (const row of ranking) assert.ok(text.includes(row.name), `${row.name} is listed`);
    const button = nodes.find((node) => node.role === "button" && node.name === chosen.name);
    assert.ok(button?.backendDOMNodeId, `a control opens ${chosen.name}`);

    const calls = host.toolCalls.length;
    const before = host.sizes.length;
    await page.click(button.backendDOMNodeId);
    const call = await host.toolCallFrom(calls);
    assert.deepEqual(call, {
      name: "priory_recipe_tree",
      arguments: { itemId: chosen.id, useAccount: true },
    });
    await host.sizeFrom(
      before,
      (size) => (size.height ?? 0) > (table.height ?? 0) + 300,
      "the ranking with the chosen tree drawn below it",
    );
    const after = await visibleText(page, frame);
    assert.match(after.text, /Recipe tree/);
    assert.match(after.text, /Shopping list/, "the tree with the holdings has a shopping list");
    assert.deepEqual(host.errors, [], "the view reported no error");
    assert.deepEqual(page.errors, [], "the page logged no error (CSP, exception)");
  },
});

Deno.test({
  name:
    `craft view: renders the crafting profit table; sorting reorders it; choosing a row calls priory_recipe_tree for one craft${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp({ craft: true });
    const html = await viewFor(app, "priory_craft_profit");
    await using client = await connectClient(app.handler);
    const result = await client.callTool({ name: "priory_craft_profit", arguments: {} });
    assert.equal(result.isError, undefined);
    const rows = (result.structuredContent as {
      opportunities: { id: number; name: string; count: number; profit: number; roi: number }[];
    }).opportunities;
    const chosen = rows[0];
    assert.ok(chosen);
    // The price history's figures on the first row (a fresh server has none yet).
    const withSales = {
      ...result,
      structuredContent: {
        ...(result.structuredContent as Record<string, unknown>),
        opportunities: rows.map((row, index) =>
          index === 0 ? { ...row, soldPerDay: 4, sellDays: 2.5 } : row
        ),
      },
    };

    const { page, host, frame, table } = await hostTable(
      browser,
      html,
      client,
      withSales,
      "priory-craft-profit",
    );
    const { text, nodes } = await visibleText(page, frame);
    for (const row of rows) assert.ok(text.includes(row.name), `${row.name} is listed`);
    assert.match(text, /~4 sold a day \(2\.5 days for the run\)/);
    assert.ok(text.includes(coins(chosen.profit)), "the best profit in coins");
    // Sorting by ROI puts the highest ROI first.
    const roiHeading = nodes.find((node) => node.role === "button" && node.name === "ROI");
    assert.ok(roiHeading?.backendDOMNodeId, "a sortable ROI column");
    await page.click(roiHeading.backendDOMNodeId);
    const byRoi = [...rows].sort((a, b) => b.roi - a.roi || a.id - b.id);
    const sorted = await visibleText(page, frame);
    const first = byRoi[0]?.name ?? "";
    const second = byRoi[1]?.name ?? "";
    assert.ok(sorted.text.indexOf(first) < sorted.text.indexOf(second), "highest ROI first");

    const button = sorted.nodes.find((node) => node.role === "button" && node.name === chosen.name);
    assert.ok(button?.backendDOMNodeId, `a control opens ${chosen.name}`);
    const calls = host.toolCalls.length;
    const before = host.sizes.length;
    await page.click(button.backendDOMNodeId);
    const call = await host.toolCallFrom(calls);
    assert.deepEqual(call, {
      name: "priory_recipe_tree",
      arguments: { itemId: chosen.id, quantity: chosen.count },
    });
    await host.sizeFrom(
      before,
      (size) => (size.height ?? 0) > (table.height ?? 0) + 200,
      "the table with the chosen craft's tree drawn below it",
    );
    const after = await visibleText(page, frame);
    assert.match(after.text, /Recipe tree/);
    assert.deepEqual(host.errors, [], "the view reported no error");
    assert.deepEqual(page.errors, [], "the page logged no error (CSP, exception)");
  },
});

Deno.test({
  name: `ranking view: in the call's language, and the tree it opens too${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_legendary_ranking");
    await using client = await connectClient(app.handler, {
      headers: { "X-GW2-Key": TEST_KEYS.veteran },
    });
    const args = { limit: 3, lang: "fr" };
    const result = await client.callTool({ name: "priory_legendary_ranking", arguments: args });
    assert.equal(result.isError, undefined);
    const [chosen] = (result.structuredContent as { ranking: { id: number; name: string }[] })
      .ranking;
    assert.ok(chosen);
    const { page, host, frame } = await hostTable(
      browser,
      html,
      client,
      result,
      "priory-legendary-ranking",
      args,
    );
    const { text, nodes } = await visibleText(page, frame);
    assert.ok(text.includes("Classement des légendaires par bénéfice"), text.slice(0, 200));
    assert.ok(text.includes(chosen.name));
    const button = nodes.find((node) => node.role === "button" && node.name === chosen.name);
    assert.ok(button?.backendDOMNodeId);
    const calls = host.toolCalls.length;
    await page.click(button.backendDOMNodeId);
    assert.deepEqual(await host.toolCallFrom(calls), {
      name: "priory_recipe_tree",
      arguments: { itemId: chosen.id, useAccount: true, lang: "fr" },
    });
    assert.deepEqual(host.errors, []);
  },
});

Deno.test({
  name: `craft view: in the call's language, and the tree it opens too${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp({ craft: true });
    const html = await viewFor(app, "priory_craft_profit");
    await using client = await connectClient(app.handler);
    const args = { lang: "de" };
    const result = await client.callTool({ name: "priory_craft_profit", arguments: args });
    assert.equal(result.isError, undefined);
    const rows = (result.structuredContent as {
      opportunities: { id: number; name: string; count: number; discipline?: string }[];
    }).opportunities;
    const [chosen] = rows;
    assert.ok(chosen);
    const { page, host, frame, table } = await hostTable(
      browser,
      html,
      client,
      result,
      "priory-craft-profit",
      args,
    );
    const { text, nodes } = await visibleText(page, frame);
    assert.ok(text.includes("Handwerksgewinn"), text.slice(0, 200));
    assert.match(text, /Rezepte durchsucht/);
    for (const row of rows) assert.ok(text.includes(row.name), `${row.name} is listed`);
    const headings = nodes.filter((node) => node.role === "button").map((node) => node.name);
    for (const heading of ["Herstellung", "Disziplin", "Kosten", "Rendite", "Gesamtgewinn"]) {
      assert.ok(headings.some((name) => name.startsWith(heading)), `${heading} in ${headings}`);
    }
    assert.doesNotMatch(text, /Crafting profit|Total profit|recipes scanned/);
    const german: Record<string, string> = {
      Armorsmith: "Rüstungsschmied",
      Artificer: "Konstrukteur",
      Chef: "Koch",
      Huntsman: "Waidmann",
      Jeweler: "Juwelier",
      Leatherworker: "Lederer",
      Scribe: "Schreiber",
      Tailor: "Schneider",
      Weaponsmith: "Waffenschmied",
    };
    assert.ok(rows.some((row) => row.discipline !== undefined), "rows name their discipline");
    for (const row of rows) {
      if (row.discipline !== undefined) assert.ok(text.includes(german[row.discipline] ?? "?"));
    }
    const button = nodes.find((node) => node.role === "button" && node.name === chosen.name);
    assert.ok(button?.backendDOMNodeId, `a control opens ${chosen.name}`);
    const calls = host.toolCalls.length;
    const before = host.sizes.length;
    await page.click(button.backendDOMNodeId);
    assert.deepEqual(await host.toolCallFrom(calls), {
      name: "priory_recipe_tree",
      arguments: { itemId: chosen.id, quantity: chosen.count, lang: "de" },
    });
    await host.sizeFrom(
      before,
      (size) => (size.height ?? 0) > (table.height ?? 0) + 200,
      "the table with the chosen craft's tree drawn below it",
    );
    const opened = await visibleText(page, frame);
    assert.ok(opened.text.includes(`${chosen.name}: eine Herstellung`), "the panel's title");
    assert.match(opened.text, /Herstellungskosten/, "the tree in German too");
    assert.deepEqual(host.errors, [], "the view reported no error");
    assert.deepEqual(page.errors, [], "the page logged no error (CSP, exception)");
  },
});

Deno.test({
  name: `tree view: draws the order-book depth figures and every shopping-list row kind${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_recipe_tree");
    await using client = await connectClient(app.handler, {
      headers: { "X-GW2-Key": TEST_KEYS.veteran },
    });
    const args = { itemId: SUNRISE, useAccount: true };
    const real = await client.callTool({ name: "priory_recipe_tree", arguments: args });
    const structured = real.structuredContent as {
      summary: Record<string, unknown> & { totalCraftCost: number };
      toBuy: Record<string, unknown>[];
    };
    const bought = structured.toBuy.filter((row) => typeof row.unit === "number");
    assert.ok(bought.length >= 2, "the real plan buys at least two items");
    // The contract's depth fields (CONTRACT.md "Order-book depth"), on a real plan: a short book,
    // a cheaper craft, a book left unread, a coin vendor row and a currency row beside the real
    // ones.
    const depthExtra = 12_345;
    const result = {
      ...real,
      structuredContent: {
        ...structured,
        summary: {
          ...structured.summary,
          buyCost: structured.summary.totalCraftCost + depthExtra,
          depthExtra,
        },
        toBuy: [
          { ...bought[0], short: 7 },
          { ...bought[1], craftCheaper: true, soldPerWeek: 42 },
          ...structured.toBuy.slice(2),
          { id: 19721, count: 3, unit: 2_000, total: 6_000, noDepth: true },
          { id: 19925, count: 2, vendor: "Miyani", total: 20_000 },
          { cur: 2, count: 500 },
        ],
      },
    };

    const page = await browser.newPage();
    await page.viewport(900, 700);
    const host = await hostView(page, html);
    const mark = host.sizes.length;
    await host.bridge.sendToolResult(result as CallToolResult);
    await host.sizeFrom(mark, (size) => (size.height ?? 0) > 500, "the drawn tree's size");
    const { text } = await visibleText(page, await host.frameId());
    assert.match(text, /Buying the list/);
    assert.ok(text.includes(coins(structured.summary.totalCraftCost + depthExtra)), "buyCost");
    assert.ok(text.includes(coins(depthExtra)), "depthExtra");
    assert.match(text, /7 short/);
    assert.match(text, /cheaper to craft/);
    assert.match(text, /the market sells only ~42 a week/, "soldPerWeek");
    assert.match(text, /order book not read: every unit at the lowest listing/, "noDepth");
    assert.match(text, /Miyani/);
    assert.match(text, /Total at order-book depth/);
    assert.deepEqual(host.errors, [], "the view reported no error");
    assert.deepEqual(page.errors, [], "the page logged no error (CSP, exception)");
  },
});

Deno.test({
  name:
    `history view: draws each item's lines and volume bars from a real history, with its figures${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await withHistory(HISTORY_IDS);
    const ids = HISTORY_IDS;
    const html = await viewFor(app, "priory_price_history");
    await using client = await connectClient(app.handler);
    const result = await client.callTool({ name: "priory_price_history", arguments: { ids } });
    assert.equal(result.isError, undefined);
    const history = (result.structuredContent as {
      history: { name: string; points: [number, number | null, number | null][] }[];
    }).history;

    const { page, host, text, nodes } = await hostHistory(browser, html, result);
    for (const row of history) {
      assert.ok(text.includes(row.name), `${row.name} is drawn`);
      const last = row.points.at(-1)?.[2];
      assert.ok(typeof last === "number" && text.includes(coins(last)), "its lowest listing now");
      const chart = nodes.find((node) => node.role === "image" && node.name.startsWith(row.name));
      assert.ok(chart, `${row.name}'s chart is an image named for what it shows`);
      assert.match(
        chart.name,
        new RegExp(`lowest listing .* over 24h, ${row.points.length} points`),
      );
      // Drawn at the width the host gave it, at the chart's height.
      const { model } = await page.send("DOM.getBoxModel", {
        backendNodeId: chart.backendDOMNodeId ?? 0,
      }) as { model: { width: number; height: number } };
      assert.ok(model.width > 700 && Math.round(model.height) === 200, JSON.stringify(model));
    }
    assert.match(text, /Traded a day/);
    assert.match(text, /cancellations count/);
    // The time axis ends at the latest snapshot, point times read in the result's unit: minutes
    // over 24h, hours (to a tenth) over 7d.
    const at = (result.structuredContent as { at: string }).at;
    assert.ok(text.includes(`${at.slice(0, 16).replace("T", " ")} UTC`), `${at} ends the axis`);
    const week = await client.callTool({
      name: "priory_price_history",
      arguments: { ids, window: "7d" },
    });
    assert.equal((week.structuredContent as { unit: string }).unit, "hour");
    const { page: weekPage, host: weekHost, text: weekText } = await hostHistory(
      browser,
      html,
      week,
    );
    assert.match(weekText, /over 7d/);
    const ends = [...weekText.matchAll(/(\d{4}-\d\d-\d\d \d\d:\d\d) UTC/g)].map((m) =>
      Date.parse(`${(m[1] ?? "").replace(" ", "T")}Z`)
    );
    assert.ok(ends.length > 0, "an axis end is drawn");
    for (const end of ends) {
      assert.ok(Math.abs(end - Date.parse(at)) <= 3 * 60_000, `${new Date(end).toISOString()}`);
    }
    assert.deepEqual([...host.errors, ...weekHost.errors], [], "the view reported no error");
    assert.deepEqual([...page.errors, ...weekPage.errors], [], "no page logged an error");
  },
});

Deno.test({
  name: `history view: in the call's language${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await withHistory(HISTORY_IDS);
    const ids = HISTORY_IDS;
    const html = await viewFor(app, "priory_price_history");
    await using client = await connectClient(app.handler);
    const args = { ids, lang: "fr" };
    const result = await client.callTool({ name: "priory_price_history", arguments: args });
    assert.equal(result.isError, undefined);
    const { page, host, text, nodes } = await hostHistory(browser, html, result, args);
    assert.ok(text.includes("Historique du comptoir"), text.slice(0, 200));
    for (
      const label of ["Offre la plus basse", "Meilleur ordre d'achat", "Échangés par jour"]
    ) assert.ok(text.includes(label), label);
    assert.match(text, /estimation ; annulations comprises/);
    assert.doesNotMatch(text, /Trading Post history|Traded a day|Lowest listing/);
    for (const name of ["Pièce mystique", "Boule d'ectoplasme"]) {
      const chart = nodes.find((node) => node.role === "image" && node.name.startsWith(name));
      assert.ok(chart, `${name}'s chart`);
      assert.match(chart.name, /offre la plus basse de .* sur 24h, \d+ points/);
    }
    assert.deepEqual(host.errors, []);
    assert.deepEqual(page.errors, []);
  },
});

Deno.test({
  name: `history view: a fresh server's answer says when the first snapshot comes${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_price_history");
    await using client = await connectClient(app.handler);
    const result = await client.callTool({
      name: "priory_price_history",
      arguments: { ids: [WELL_KNOWN.mysticCoin] },
    });
    const page = await browser.newPage();
    await page.viewport(900, 700);
    const host = await hostView(page, html);
    const mark = host.sizes.length;
    await host.bridge.sendToolResult(result as CallToolResult);
    await host.sizeFrom(mark, () => true, "the drawn answer's size");
    const { text } = await visibleText(page, await host.frameId());
    assert.match(text, /No snapshot yet/);
    assert.match(text, /Mystic Coin/);
    assert.match(text, /not recorded yet/);
    assert.deepEqual(host.errors, []);
    assert.deepEqual(page.errors, []);
  },
});

/** The day's checklist drawn from a real `priory_today` answer of `key`'s account. */
async function hostToday(
  browser: Browser,
  app: TestApp,
  key: string,
  args: Record<string, unknown> = {},
) {
  const html = await viewFor(app, "priory_today");
  await using client = await connectClient(app.handler, { headers: { "X-GW2-Key": key } });
  const result = await client.callTool({ name: "priory_today", arguments: args });
  assert.equal(result.isError, undefined);
  const drawn = await hostDrawn(browser, html, result, {
    appName: "priory-today",
    grownBy: 300,
    what: "the drawn checklist's size",
    args,
  });
  return { ...drawn, result: result.structuredContent as Record<string, unknown> };
}

Deno.test({
  name: `today view: the resets counting down, then what is done and left per part${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    // Monday 08:00 UTC, the account last played before the weekly reset (07:30) and after the
    // daily one: this week's raids and weekly objectives are stale, the dailies stand.
    const clock = new ManualClock({ start: Date.parse("2026-11-30T08:00:00Z"), advance: "delays" });
    await using app = await startTestApp({ clock });
    app.fake.control.setLastModified("2026-11-30T07:00:00Z");
    const { page, host, text, nodes } = await hostToday(browser, app, TEST_KEYS.full);
    assert.match(text, /Today in Guild Wars 2/);
    // The countdown reads the browser's clock: a duration, whatever today is.
    assert.match(text, /Daily reset in (\d+ d \d+ h|\d+ h \d+ min|\d+ min|a moment)/);
    assert.match(text, /Weekly reset in /);
    assert.match(text, /Not played since the weekly reset/);
    assert.doesNotMatch(text, /Not played since the daily reset/);
    for (
      const heading of [
        "Daily crafting",
        "World bosses",
        "Hero's Choice chests",
        "Dungeon paths",
        "Raids this week",
        "Wizard's Vault",
      ]
    ) assert.ok(nodes.some((node) => node.role === "heading" && node.name === heading), heading);
    assert.match(text, /3 of 14 done/, "world bosses");
    assert.match(text, /Megadestroyer/, "a boss left");
    assert.doesNotMatch(text, /Tequatl the Sunless/, "a boss done is counted, not listed");
    assert.match(text, /2 of 33 done/);
    assert.match(text, /and 16 more/);
    assert.match(text, /0 of 26 cleared/, "the raids are stale");
    assert.match(text, /Gather Resources/);
    assert.match(text, /special objectives: 4 of 8 done/);
    assert.match(text, /Astral Acclaim/);
    assert.match(text, /640/);
    const ticks = nodes.filter((node) => node.name === "done").length;
    assert.ok(ticks >= 4, `${ticks} ticked items (crafts and daily objectives done)`);
    assert.deepEqual(host.errors, [], "the view reported no error");
    assert.deepEqual(page.errors, [], "the page logged no error (CSP, exception)");
  },
});

Deno.test({
  name: `today view: in the call's language, unread parts named${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    app.fake.control.setLastModified(new Date(app.clock.now()).toISOString());
    const { page, host, text } = await hostToday(browser, app, TEST_KEYS.progressionOnly, {
      lang: "fr",
    });
    assert.match(text, /Aujourd'hui dans Guild Wars 2/);
    assert.match(text, /Réinitialisation quotidienne dans /);
    assert.match(text, /Boss du monde/);
    assert.match(text, /3 sur 14 faits/);
    assert.match(
      text,
      /Non lu, il manque une permission à la clé : Acclamation astrale \(wallet\)/,
    );
    assert.doesNotMatch(text, /World bosses|Daily crafting/);
    assert.deepEqual(host.errors, []);
    assert.deepEqual(page.errors, []);
  },
});

/** The Trading Post view hosted in a new page, drawn from `result` after the call's `args`. */
function hostTradingPost(
  browser: Browser,
  html: string,
  result: unknown,
  args: Record<string, unknown>,
) {
  return hostDrawn(browser, html, result, {
    appName: "priory-trading-post",
    grownBy: 300,
    what: "the drawn Trading Post's size",
    args,
  });
}

Deno.test({
  name:
    `trading post view: listings and orders with undercut/outbid badges and units ahead, the delivery box, the earnings${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_trading_post");
    await using client = await connectClient(app.handler, {
      headers: { "X-GW2-Key": TEST_KEYS.full },
    });
    const args = { limit: 3 };
    const result = await client.callTool({ name: "priory_trading_post", arguments: args });
    assert.equal(result.isError, undefined);
    const answer = result.structuredContent as {
      selling: { name: string; ahead: number; undercut: boolean }[];
      buying: { name: string; ahead: number; outbid: boolean }[];
      delivery: { coins: number; items: { name: string }[] };
      earnings: { sold: { net: number }; profit: number; top: { name: string }[] };
    };
    const { page, host, text, nodes } = await hostTradingPost(browser, html, result, args);
    assert.match(text, /Trading Post/);
    for (const row of [...answer.selling, ...answer.buying, ...answer.earnings.top]) {
      assert.ok(text.includes(row.name), `${row.name} is drawn`);
    }
    // Badges are drawn in capitals (the stylesheet's), so read case-blind.
    const badges = nodes.filter((node) => node.role === "StaticText")
      .map((node) => node.name.toLowerCase());
    assert.equal(badges.filter((name) => name === "undercut").length, 3, "three listings behind");
    assert.equal(badges.filter((name) => name === "outbid").length, 2, "two orders behind");
    assert.equal(badges.filter((name) => name === "best price").length, 1, "one order on top");
    assert.ok(text.includes((40_978).toLocaleString("en-US")), "the units ahead of the vial");
    assert.ok(text.includes(coins(answer.delivery.coins)), "the box's coins");
    assert.ok(text.includes(coins(answer.earnings.sold.net)), "the net of the sales");
    assert.ok(text.includes(coins(answer.earnings.profit)), "the profit");
    assert.match(text, /2 more not shown: raise limit/, "a list cut by the limit says so");
    assert.deepEqual(host.errors, [], "the view reported no error");
    assert.deepEqual(page.errors, [], "the page logged no error (CSP, exception)");
  },
});

Deno.test({
  name: `trading post view: in the call's language${SUFFIX}`,
  ignore: SKIPPED,
  async fn() {
    await using browser = await launch();
    await using app = await startTestApp();
    const html = await viewFor(app, "priory_trading_post");
    await using client = await connectClient(app.handler, {
      headers: { "X-GW2-Key": TEST_KEYS.full },
    });
    const args = { lang: "de" };
    const result = await client.callTool({ name: "priory_trading_post", arguments: args });
    const { page, host, text } = await hostTradingPost(browser, html, result, args);
    for (
      const label of ["Handelsposten", "Deine Angebote", "unterboten", "überboten", "Zum Abholen"]
    ) {
      assert.ok(text.toLowerCase().includes(label.toLowerCase()), label);
    }
    assert.match(text, /Morgenrot/, "the tool's names: Dawn in German");
    assert.doesNotMatch(text, /Your listings|undercut/i);
    assert.deepEqual(host.errors, []);
    assert.deepEqual(page.errors, []);
  },
});
