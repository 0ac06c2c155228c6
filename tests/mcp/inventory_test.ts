/**
 * The advertised surface, held to the project's rules for every registered tool (so a tool added
 * later cannot dodge them), pinned by a snapshot so any change to it is deliberate, and kept
 * within the context budget.
 *
 * Regenerate the snapshot deliberately with `UPDATE_SNAPSHOTS=1 deno task test:files`.
 */
import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/server";
import { TOOLS } from "../../src/tools/mod.ts";
import {
  connectClient,
  createTestHandler,
  LEGACY,
  mcpPost,
  modernPost,
  readRpc,
} from "../support/app.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

const SNAPSHOT = new URL("./testdata/tools_list.json", import.meta.url);
/**
 * The contract's ceiling for the whole `tools/list` answer, in tokens (bytes / 4): 5,000 before
 * "The whole account", 7,000 with its tools.
 */
const TOKEN_BUDGET = 7_000;
/** The gw2_* tools' share, leaving the rest for the priory_* tools (+300: issue 30's gw2_api). */
const GW2_TOOLS_TOKEN_SHARE = 1_300 + 300;
const CREDENTIAL_NAME = /key|token|credential|secret|password|auth/i;

/** `value`'s JSON in tokens as the contract counts them: UTF-8 bytes / 4. */
function tokensOf(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength / 4;
}

async function listTools(): Promise<Tool[]> {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  await using client = await connectClient(handler);
  return (await client.listTools()).tools;
}

/** Every property name in a JSON Schema, at any depth. */
function propertyNames(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap(propertyNames);
  return Object.entries(schema).flatMap(([keyword, value]) => {
    if (keyword === "properties" && typeof value === "object" && value !== null) {
      return Object.entries(value).flatMap(([name, sub]) => [name, ...propertyNames(sub)]);
    }
    return propertyNames(value);
  });
}

/** Whether a tool takes ids: an array argument, or one named or described as an id. */
function takesIds(tool: Tool): boolean {
  const properties = tool.inputSchema.properties ?? {};
  return Object.entries(properties).some(([name, schema]) => {
    const json = JSON.stringify(schema);
    return /ids?$/i.test(name) || /"type":"array"/.test(json) || /\bid\b/i.test(json);
  });
}

/**
 * The contract's tool count: four `gw2_` pass-throughs and ten `priory_` computations, plus "The
 * whole account"'s (issue 27: `priory_find_items`, `priory_trading_post`; issue 29:
 * `priory_today`, `priory_wizards_vault`; issue 30: `gw2_api`, `priory_achievements`).
 */
const TOOL_COUNT = 20;

Deno.test("tools/list: every tool follows the naming, provenance and annotation rules", async (t) => {
  const tools = await listTools();
  assert.deepEqual(tools.map((tool) => tool.name), TOOLS.map((tool) => tool.name));
  assert.equal(tools.length, TOOL_COUNT, `${TOOL_COUNT} tools`);
  assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length, "names are unique");
  for (const tool of tools) {
    await t.step(tool.name, () => {
      const prefix = /^(gw2|priory)_[a-z0-9_]+$/.exec(tool.name)?.[1];
      assert.ok(prefix, "name starts gw2_ or priory_");
      const provenance = prefix === "gw2" ? "Official GW2 API:" : "Priory-computed:";
      assert.ok(tool.description?.startsWith(provenance), `description opens "${provenance}"`);
      if (prefix === "priory") assert.doesNotMatch(tool.description ?? "", /Official GW2 API/);
      assert.ok(tool.title, "has a title");
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.annotations?.destructiveHint, false);
      assert.equal(tool.annotations?.idempotentHint, true);
      if (prefix === "gw2") assert.equal(tool.annotations?.openWorldHint, true);
      assert.equal(tool.inputSchema.type, "object");
      for (const combinator of ["anyOf", "oneOf", "allOf"]) {
        assert.ok(!(combinator in tool.inputSchema), `no top-level ${combinator}`);
      }
      assert.equal(tool.outputSchema?.type, "object", "output schema is object-rooted");
      for (const name of propertyNames(tool.inputSchema)) {
        assert.doesNotMatch(name, CREDENTIAL_NAME, `parameter "${name}" looks like a credential`);
      }
      if (takesIds(tool)) assert.match(tool.description ?? "", /MAX_IDS = 100/);
    });
  }
});

Deno.test("tools/list: the recipe tools carry the Mystic Forge caveat", async () => {
  const tools = await listTools();
  for (const name of ["gw2_recipes", "gw2_recipe_search"]) {
    const description = tools.find((tool) => tool.name === name)?.description ?? "";
    assert.match(description, /Mystic Forge/, name);
  }
  const search = tools.find((tool) => tool.name === "gw2_recipe_search")?.description ?? "";
  assert.match(search, /exactly one of input or output/);
  assert.match(search, /empty list means this API cannot answer/);
  const prices = tools.find((tool) => tool.name === "gw2_prices")?.description ?? "";
  assert.match(prices, /copper/);
});

Deno.test("tools/list: the ranking declares what it covers, its cost and the retry advice", async () => {
  const tools = await listTools();
  const ranking = tools.find((tool) => tool.name === "priory_legendary_ranking");
  const description = ranking?.description ?? "";
  assert.doesNotMatch(description, /gen-1/, "not only the first generation");
  assert.match(description, /armor, trinkets, backs, rune, sigil; filter by type, generation/);
  assert.match(description, /~1 s once the server has warmed its trees/, "latency, warm");
  assert.match(description, /cold, [^.]*~\d+ requests of the shared GW2 budget/, "what it spends");
  assert.match(description, /On a timeout call again: the retry reuses what the first cached\./);
  assert.match(description, /X-GW2-Key/);
  const tree = tools.find((tool) => tool.name === "priory_recipe_tree");
  assert.doesNotMatch(tree?.description ?? "", /gen-1/, "every legendary has a tree");
});

Deno.test("tools/list matches the committed snapshot (UPDATE_SNAPSHOTS=1 regenerates it)", async () => {
  const tools = await listTools();
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(SNAPSHOT, `${JSON.stringify(tools, null, 2)}\n`);
  }
  const pinned = JSON.parse(await Deno.readTextFile(SNAPSHOT));
  assert.deepEqual(
    tools,
    pinned,
    "the advertised surface changed: if deliberate, rerun with UPDATE_SNAPSHOTS=1 and commit",
  );
});

Deno.test("tools/list stays within the context budget on both revisions", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const legacy = await handler(mcpPost({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  const legacyMessage = await readRpc(legacy);
  const modern = await handler(modernPost("tools/list"));
  const modernMessage = await readRpc(modern);
  for (const [era, message] of [[LEGACY, legacyMessage], ["2026-07-28", modernMessage]] as const) {
    const tokens = tokensOf(message);
    assert.ok(tokens < TOKEN_BUDGET, `${era}: tools/list is ${tokens} tokens`);
    const tools = (message.result as { tools: Tool[] }).tools;
    const gw2Tokens = tools.filter((tool) => tool.name.startsWith("gw2_"))
      .reduce((sum, tool) => sum + tokensOf(tool), 0);
    assert.ok(gw2Tokens <= GW2_TOOLS_TOKEN_SHARE, `${era}: gw2_* tools take ${gw2Tokens} tokens`);
  }
});

/**
 * Each priory_ tool's share of the budget: description plus published input and output schema.
 * The tree's grew by 100 with its shopping list at depth (the rows, their flags, buyCost and
 * depthExtra), the ranking's by 10 (its cost is at depth) and by 40 more with its type and
 * generation filters (issue 14). A nullable field's portable spelling (`anyOf` of two types, not
 * a `type` array) costs 19 bytes more: the tree (3 such fields) and the ranking (2) were given 5
 * tokens more for it. Issue 22's `lang` (five languages) costs ~14 tokens an input schema, and
 * the legendaries' `lang` on a row 6 more: 10, 20 and 5 more. On the crafting profit, the price
 * history and the flips it costs {@linkcode LANG_TOKENS} each, added to their shares and to issues
 * 21 and 23's whole-entry budgets below (every `lang` of issue 22 together: ~187 tokens of the
 * whole answer, within its 250).
 */
/** What `lang: LangField` adds to a tool's input schema, measured: 59 bytes. */
const LANG_TOKENS = 14.75;
const PRIORY_TOOL_TOKEN_SHARES: Readonly<Record<string, number>> = {
  // +10 for soldPerWeek (issue 23: the liquidity of what the plan buys), +10 for lang (issue 22).
  priory_recipe_tree: 575,
  // Issue 30: +41 for useAccount and a row's owned and max; +26 for excludeOwned.
  priory_legendaries: 270 + 41,
  priory_legendary_ranking: 480 + 26,
  priory_achievements: 300,
  // Issue 21's budget is 380 for the whole tools/list entry (below): this share leaves the rest.
  priory_craft_profit: 305 + LANG_TOKENS,
  // Issue 23: the two history tools' whole entries (with name, title, annotations and the view
  // link) add at most 480 to tools/list together; these are their descriptions and schemas.
  priory_price_history: 178 + LANG_TOKENS,
  priory_flips: 177 + LANG_TOKENS,
  // Issue 29: the two tools' whole entries add at most 620 to tools/list (below).
  priory_today: 200,
  priory_wizards_vault: 235,
  // Issue 27 (and its whole-entry budget below).
  priory_find_items: 290,
  priory_trading_post: 262,
};

Deno.test("tools/list: priory_today and priory_wizards_vault's whole entries stay within issue 29's 620 tokens", async () => {
  const tools = (await listTools()).filter((entry) =>
    entry.name === "priory_today" || entry.name === "priory_wizards_vault"
  );
  assert.equal(tools.length, 2);
  const tokens = tools.reduce((sum, tool) => sum + tokensOf(tool), 0);
  assert.ok(tokens <= 620, `${tokens} tokens`);
});

Deno.test("tools/list: priory_craft_profit's whole entry stays within issue 21's 380 tokens (+ lang)", async () => {
  const tool = (await listTools()).find((entry) => entry.name === "priory_craft_profit");
  assert.ok(tool);
  assert.ok(tokensOf(tool) <= 380 + LANG_TOKENS, `${tokensOf(tool)} tokens`);
});

Deno.test("tools/list: priory_price_history and priory_flips' whole entries stay within issue 23's 480 tokens (+ lang)", async () => {
  const tools = (await listTools()).filter((entry) =>
    entry.name === "priory_price_history" || entry.name === "priory_flips"
  );
  assert.equal(tools.length, 2);
  const tokens = tools.reduce((sum, tool) => sum + tokensOf(tool), 0);
  assert.ok(tokens <= 480 + 2 * LANG_TOKENS, `${tokens} tokens`);
});

Deno.test("tools/list: issue 30 adds at most 700 tokens: its two tools' whole entries and its inputs", async () => {
  const tools = (await listTools()).filter((entry) =>
    entry.name === "priory_achievements" || entry.name === "gw2_api"
  );
  assert.equal(tools.length, 2);
  const tokens = tools.reduce((sum, tool) => sum + tokensOf(tool), 0);
  // The rest of the 700: the legendary list's and the ranking's share increases (41 + 26).
  assert.ok(tokens <= 700 - 41 - 26, `${tokens} tokens`);
});

/**
 * Issue 27's share of the wave's 7,000: priory_find_items and priory_trading_post's whole entries,
 * plus what the wallet's gem-exchange wording added to its entry (185.5 tokens before).
 */
const ISSUE_27_TOKENS = 720;
const WALLET_BEFORE_ISSUE_27 = 185.5;

Deno.test("tools/list: issue 27's two tools and the wallet's gem exchange add at most 720 tokens", async () => {
  const tools = await listTools();
  const entry = (name: string) => tokensOf(tools.find((tool) => tool.name === name));
  const added = entry("priory_find_items") + entry("priory_trading_post") +
    entry("priory_account_wallet") - WALLET_BEFORE_ISSUE_27;
  assert.ok(added <= ISSUE_27_TOKENS, `${added} tokens`);
});

Deno.test("tools/list: each priory_ tool stays within its token share", async (t) => {
  const tools = await listTools();
  for (const [name, share] of Object.entries(PRIORY_TOOL_TOKEN_SHARES)) {
    const tool = tools.find((entry) => entry.name === name);
    assert.ok(tool, `${name} is registered`);
    const published = [tool.description, tool.inputSchema, tool.outputSchema];
    const tokens = published.reduce((sum: number, part) => sum + tokensOf(part), 0);
    await t.step(`${name}: ${tokens} of ${share} tokens`, () => {
      assert.ok(tokens <= share);
    });
  }
});

/** Keywords whose value is one subschema. */
const SUBSCHEMA = new Set(["items", "additionalProperties", "not", "propertyNames", "contains"]);
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs"]);

/**
 * What a strict client (the MCP Inspector's `--strict` tools/list) would warn about in `schema`,
 * at any depth: a `type` array (a single-`type` dialect cannot read it) and an empty schema `{}`
 * (it constrains nothing: a free-form object is declared `{type: "object"}`), as `path: issue`.
 */
function portabilityProblems(schema: unknown, path: string): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [];
  const entries = Object.entries(schema);
  const problems = entries.length === 0 ? [`${path}: an empty schema {}`] : [];
  for (const [keyword, value] of entries) {
    const at = `${path}.${keyword}`;
    if (keyword === "type" && Array.isArray(value)) problems.push(`${at}: a type array`);
    if (SUBSCHEMA.has(keyword)) problems.push(...portabilityProblems(value, at));
    if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      value.forEach((entry, index) =>
        problems.push(...portabilityProblems(entry, `${at}[${index}]`))
      );
    }
    if (SUBSCHEMA_MAPS.has(keyword) && typeof value === "object" && value !== null) {
      for (const [name, entry] of Object.entries(value)) {
        problems.push(...portabilityProblems(entry, `${at}.${name}`));
      }
    }
  }
  return problems;
}

Deno.test("tools/list: published schemas hold no type arrays and no empty schemas (portable)", async () => {
  const tools = await listTools();
  const problems = tools.flatMap((tool) => [
    ...portabilityProblems(tool.inputSchema, `${tool.name}.inputSchema`),
    ...portabilityProblems(tool.outputSchema, `${tool.name}.outputSchema`),
  ]);
  assert.deepEqual(problems, []);
  // The walker finds what it is meant to find.
  assert.deepEqual(
    portabilityProblems({
      type: "object",
      properties: { n: { type: ["number", "null"] }, rows: { type: "array", items: {} } },
      additionalProperties: {},
    }, "x"),
    [
      "x.properties.n.type: a type array",
      "x.properties.rows.items: an empty schema {}",
      "x.additionalProperties: an empty schema {}",
    ],
  );
});
