/**
 * The views as MCP sees them, without a browser: the documents' size and self-containment,
 * `resources/list` and `resources/read` on both protocol revisions, the tools' `_meta.ui` links as
 * the extension's own host code reads them, and — the promise to hosts without MCP Apps — tool
 * results byte for byte the same with and without a view declared.
 */
import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/client";
import {
  getToolUiResourceUri,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { TOOLS } from "../../src/tools/mod.ts";
import type { ToolDefinition } from "../../src/tools/types.ts";
import {
  CRAFT_VIEW_URI,
  PRICE_HISTORY_VIEW_URI,
  RANKING_VIEW_URI,
  TODAY_VIEW_URI,
  TRADING_POST_VIEW_URI,
  TREE_VIEW_URI,
  VIEW_MIME_TYPE,
  VIEWS,
} from "../../src/views/mod.ts";
import { TEST_KEYS } from "../fake_gw2/mod.ts";
import {
  connectClient,
  createTestHandler,
  type Era,
  modernPost,
  readRpc,
  startTestApp,
} from "../support/app.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";
import { CRAFT_RENDER_JS } from "../../src/views/craft.ts";
import { HISTORY_RENDER_JS } from "../../src/views/history.ts";
import { TODAY_RENDER_JS } from "../../src/views/today.ts";
import { VIEW_LABELS_JS } from "../../src/views/labels.ts";
import { RANKING_RENDER_JS } from "../../src/views/ranking.ts";
import { TABLE_JS } from "../../src/views/table.ts";
import { TREE_RENDER_JS } from "../../src/views/tree.ts";
import { TRADING_POST_RENDER_JS } from "../../src/views/trading_post.ts";

/** The ceiling for one view document. */
const MAX_VIEW_BYTES = 150 * 1024;

function scriptsOf(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
}

Deno.test("each view is one self-contained HTML document within 150 KB", async (t) => {
  assert.equal(VIEW_MIME_TYPE, RESOURCE_MIME_TYPE, "the extension's media type");
  for (const view of VIEWS) {
    await t.step(`${view.uri}: ${new TextEncoder().encode(view.html).byteLength} bytes`, () => {
      assert.ok(new TextEncoder().encode(view.html).byteLength <= MAX_VIEW_BYTES);
      assert.match(view.html, /^<!doctype html>/);
      assert.doesNotMatch(
        view.html,
        /\b(src|href)\s*=|@import|url\(|https?:\/\//i,
        "nothing fetched",
      );
      const scripts = scriptsOf(view.html);
      assert.ok(scripts.length >= 4, "the client, the helpers, a renderer and the entry");
      for (const script of scripts) {
        // Parses (a syntax error would leave the view blank in every host).
        new Function(script);
      }
    });
  }
});

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`resources/list and resources/read serve every view (${era})`, async () => {
    await using handler = createTestHandler({ gw2: new StubGw2Client() });
    await using client = await connectClient(handler, { era });
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((resource) => resource.uri), [
      TREE_VIEW_URI,
      RANKING_VIEW_URI,
      CRAFT_VIEW_URI,
      PRICE_HISTORY_VIEW_URI,
      TODAY_VIEW_URI,
      TRADING_POST_VIEW_URI,
    ]);
    for (const resource of resources) {
      assert.equal(resource.mimeType, "text/html;profile=mcp-app");
      assert.deepEqual(resource._meta, { ui: { csp: {}, prefersBorder: true } });
      const { contents } = await client.readResource({ uri: resource.uri });
      assert.equal(contents.length, 1);
      const [content] = contents;
      assert.ok(content !== undefined && "text" in content);
      assert.equal(content.uri, resource.uri);
      assert.equal(content.mimeType, "text/html;profile=mcp-app");
      assert.equal(content.text, VIEWS.find((view) => view.uri === resource.uri)?.html);
    }
    await assert.rejects(
      client.readResource({ uri: "ui://priory/nope.html" }),
      /not found/i,
    );
  });
}

Deno.test("resources/read of a view may be cached an hour by 2026 clients", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const message = await readRpc(
    await handler(
      modernPost("resources/read", { uri: TREE_VIEW_URI }, { "mcp-name": TREE_VIEW_URI }),
    ),
  );
  const result = message.result as Record<string, unknown>;
  assert.equal(result.ttlMs, 3_600_000);
  assert.equal(result.cacheScope, "public");
});

Deno.test("tools/list links exactly the tree, the ranking, the crafting profit, the price history, today and the Trading Post to their views, as hosts read it", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  await using client = await connectClient(handler, { era: "2026" });
  const { tools } = await client.listTools();
  const linked = Object.fromEntries(
    tools.flatMap((tool: Tool) => {
      const uri = getToolUiResourceUri(tool);
      return uri === undefined ? [] : [[tool.name, uri]];
    }),
  );
  assert.deepEqual(linked, {
    priory_recipe_tree: TREE_VIEW_URI,
    priory_legendary_ranking: RANKING_VIEW_URI,
    priory_craft_profit: CRAFT_VIEW_URI,
    priory_price_history: PRICE_HISTORY_VIEW_URI,
    priory_today: TODAY_VIEW_URI,
    priory_trading_post: TRADING_POST_VIEW_URI,
  });
  const tree = tools.find((tool: Tool) => tool.name === "priory_recipe_tree");
  assert.deepEqual(tree?._meta, {
    ui: { resourceUri: TREE_VIEW_URI },
    "ui/resourceUri": TREE_VIEW_URI,
  }, "the extension's key and the flat key older hosts read");
});

/** The registry as it was before the views: the same tools, no view declared. */
const WITHOUT_VIEWS: readonly ToolDefinition[] = TOOLS.map((tool) => {
  const { view: _view, ...rest } = tool;
  return rest;
});

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`a host without MCP Apps gets the same tool result, byte for byte (${era})`, async (t) => {
    await using app = await startTestApp();
    // Both handlers read through the same GW2 client (and recipe catalogue), cache and clock.
    await using plain = createTestHandler({
      gw2: app.gw2,
      names: app.names,
      services: { history: app.history },
      clock: app.clock,
      tools: WITHOUT_VIEWS,
    });
    const headers = { "X-GW2-Key": TEST_KEYS.veteran };
    await using withViews = await connectClient(app.handler, { era, headers });
    await using withoutViews = await connectClient(plain, { era, headers });
    const calls = [
      { name: "priory_recipe_tree", arguments: { itemId: 30703 } },
      { name: "priory_recipe_tree", arguments: { itemId: 30703, useAccount: true } },
      { name: "priory_legendary_ranking", arguments: { limit: 5 } },
      { name: "priory_price_history", arguments: { ids: [19721, 24] } },
      { name: "priory_trading_post", arguments: {} },
    ];
    for (const call of calls) {
      await t.step(`${call.name} ${JSON.stringify(call.arguments)}`, async () => {
        const viewed = await withViews.callTool(call);
        const plainResult = await withoutViews.callTool(call);
        assert.equal(viewed.isError, undefined);
        assert.equal(JSON.stringify(viewed), JSON.stringify(plainResult));
        assert.deepEqual(viewed.content, [
          { type: "text", text: JSON.stringify(viewed.structuredContent) },
        ], "nothing added beside the structured result and its text");
      });
    }
  });
}

/** The labels script's table of words: its object literal, read as JSON-like data. */
function labelTable(): Record<string, Record<string, string>> {
  const literal = /var TEXT = (\{[\s\S]*?\n {2}\});/.exec(VIEW_LABELS_JS)?.[1];
  assert.ok(literal, "the labels script holds one TEXT table");
  // The table is plain data (string keys and values), so a function returning it reads it whole.
  return new Function(`return ${literal};`)() as Record<string, Record<string, string>>;
}

Deno.test("every view label exists in all five languages, and every key a view asks for is one", () => {
  const table = labelTable();
  assert.deepEqual(Object.keys(table), ["en", "de", "fr", "es", "zh"]);
  const english = Object.keys(table.en ?? {}).sort();
  for (const [lang, words] of Object.entries(table)) {
    assert.deepEqual(Object.keys(words).sort(), english, `${lang} has exactly English's keys`);
  }
  const scripts = {
    TREE_RENDER_JS,
    TABLE_JS,
    RANKING_RENDER_JS,
    CRAFT_RENDER_JS,
    HISTORY_RENDER_JS,
    TODAY_RENDER_JS,
    TRADING_POST_RENDER_JS,
  };
  for (const [name, script] of Object.entries(scripts)) {
    // Keys in a call, a column's `label`, or a column pair `["tp.colPrice", true]`.
    const asked = [
      ...script.matchAll(
        /\bL\.t\("([^"]+)"[,)]|\blabel: "([^"]+)"|\["([\w.]+)", (?:true|false)\]/g,
      ),
    ].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
    for (const key of asked) assert.ok(english.includes(key), `${name} asks for "${key}"`);
  }
});

Deno.test("the stylesheet writes a character beyond Latin-1 as a CSS escape, never JavaScript's \\u", async () => {
  // The sources stay Latin-1 (tests/architecture_test.ts), so such a character is escaped; in a
  // String.raw stylesheet a JavaScript escape reaches the browser as is, and CSS reads `\u25B8`
  // as the letters "u25B8".
  const { VIEW_CSS } = await import("../../src/views/style.ts");
  assert.ok(VIEW_CSS.includes(String.raw`content: "\25B8"`), "the tree's disclosure marker");
  assert.doesNotMatch(VIEW_CSS, /\\u[0-9A-Fa-f]{4}/);
});
