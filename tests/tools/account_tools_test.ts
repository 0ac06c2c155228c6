/**
 * The account tools over the real stack — the MCP handler, the real GW2 client (in-memory KV)
 * and the fake GW2 API — driven by a real MCP client that sends the player's key the way a
 * configured client does: in the `X-GW2-Key` header of every request.
 */
import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/server";
import { readHoldings } from "../support/holdings.ts";
import { getWorld, TEST_KEYS, UNKNOWN_KEY, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";

type Structured = Record<string, unknown>;
type CallResult = { content: unknown; structuredContent?: unknown; isError?: unknown };

const ACCOUNT_TOOLS = ["priory_account", "priory_account_materials", "priory_account_wallet"];
/** Each account tool's share of the tools/list budget, in tokens (bytes / 4). */
const TOKEN_BUDGETS: Readonly<Record<string, number>> = {
  priory_account: 200,
  priory_account_materials: 350,
  priory_account_wallet: 200,
};

function connectWithKey(app: TestApp, key?: string) {
  return connectClient(app.handler, key === undefined ? {} : { headers: { "X-GW2-Key": key } });
}

/** Private (key-taking) fake endpoints. */
function isAccountPath(path: string): boolean {
  return /^\/v2\/(account|characters|tokeninfo)/.test(path);
}

Deno.test("account tools are listed for a keyless caller, each within its token budget", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app);
  const tools: Tool[] = (await client.listTools()).tools;
  for (const name of ACCOUNT_TOOLS) {
    const tool = tools.find((entry) => entry.name === name);
    assert.ok(tool, `${name} is listed without a key`);
    assert.match(tool.description ?? "", /^Priory-computed: .*X-GW2-Key/);
    assert.equal(tool.annotations?.openWorldHint, true);
    const published = (tool.description ?? "") + JSON.stringify(tool.inputSchema) +
      JSON.stringify(tool.outputSchema);
    const bytes = new TextEncoder().encode(published).length;
    const budget = TOKEN_BUDGETS[name] ?? 0;
    assert.ok(bytes / 4 <= budget, `${name}: ${bytes / 4} tokens, budget ${budget}`);
    assert.doesNotMatch(JSON.stringify(tool), /icon/);
  }
  const materials = tools.find((tool) => tool.name === "priory_account_materials");
  assert.match(materials?.description ?? "", /MAX_IDS = 100/);
  assert.match(materials?.description ?? "", /0\.85.*15 %/);
});

Deno.test("account tools without X-GW2-Key: a tool error naming the header, no upstream request", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app);
  for (const name of ACCOUNT_TOOLS) {
    for (const args of name === "priory_account_materials" ? [{}, { ids: [19721] }] : [{}]) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, name);
      assert.equal(result.structuredContent, undefined);
      assert.match(textOf(result), /^No GW2 API key: .*"X-GW2-Key: <your GW2 API key>"/);
      assert.match(textOf(result), /client configuration/);
    }
  }
  assert.equal(app.fake.control.requests.length, 0);
});

Deno.test("the X-GW2-Key header reaches every account tool call", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app, TEST_KEYS.full);
  const calls = [
    ["priory_account", {}],
    ["priory_account_materials", {}],
    ["priory_account_materials", { ids: [WELL_KNOWN.globOfEctoplasm] }],
    ["priory_account_wallet", {}],
  ] as const;
  for (const [name, args] of calls) {
    app.fake.control.reset();
    app.clock.advance(5 * 60_000); // past the account cache, so every call reaches upstream
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, undefined, `${name}: ${textOf(result)}`);
    const keyed = app.fake.control.requests.filter((request) => isAccountPath(request.path));
    assert.ok(keyed.length > 0, `${name} read the account`);
    for (const request of keyed) assert.equal(request.keyLabel, "full", request.path);
  }
});

Deno.test("no header, a rejected key and a missing scope give three different texts, none holding the key", async () => {
  await using app = await startTestApp();
  const texts = new Map<string, string>();
  for (
    const [label, key, name] of [
      ["no header", undefined, "priory_account_wallet"],
      ["rejected", UNKNOWN_KEY, "priory_account_wallet"],
      ["missing scope", TEST_KEYS.noWallet, "priory_account_wallet"],
    ] as const
  ) {
    await using client = await connectWithKey(app, key);
    const result = await client.callTool({ name, arguments: {} });
    assert.equal(result.isError, true, label);
    texts.set(label, textOf(result));
  }
  assert.match(texts.get("no header") ?? "", /^No GW2 API key: .*X-GW2-Key/);
  assert.match(texts.get("rejected") ?? "", /^GW2 API key rejected: .*re-?issue|create a new one/);
  assert.match(texts.get("rejected") ?? "", /\$\{VAR\}/);
  assert.match(texts.get("missing scope") ?? "", /^GW2 API key lacks the "wallet" permission/);
  assert.equal(new Set(texts.values()).size, 3);
  for (const text of texts.values()) {
    for (const key of [UNKNOWN_KEY, TEST_KEYS.noWallet]) {
      assert.ok(!text.includes(key.slice(0, 8)), `no key in: ${text}`);
    }
  }
  await using client = await connectWithKey(app, TEST_KEYS.noInventories);
  const materials = await client.callTool({ name: "priory_account_materials", arguments: {} });
  assert.match(textOf(materials), /^GW2 API key lacks the "inventories" permission/);
  await using rejected = await connectWithKey(app, UNKNOWN_KEY);
  const account = await rejected.callTool({ name: "priory_account", arguments: {} });
  assert.equal(textOf(account), texts.get("rejected"));
});

Deno.test("an unexpanded ${VAR} in X-GW2-Key is refused before any upstream request", async () => {
  await using app = await startTestApp();
  for (const value of ["${GW2_API_KEY}", "$GW2_API_KEY", "${env:GW2_KEY}"]) {
    await using client = await connectWithKey(app, value);
    const result = await client.callTool({ name: "priory_account", arguments: {} });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /variable reference, not a key.*substitution did not happen/);
    assert.ok(!textOf(result).includes(value), "the header value is not echoed");
  }
  assert.equal(app.fake.control.requests.length, 0);
});

Deno.test("a key passed as a tool argument is refused: the only way in is the header", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app);
  for (const name of ACCOUNT_TOOLS) {
    const result = await client.callTool({ name, arguments: { key: TEST_KEYS.full } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /unknown argument "key"/);
    assert.ok(!textOf(result).includes(TEST_KEYS.full));
  }
  assert.equal(app.fake.control.requests.length, 0);
});

Deno.test("priory_account returns the account's facts and the key's permissions, never its id", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app, TEST_KEYS.full);
  const result = await client.callTool({ name: "priory_account", arguments: {} });
  const world = app.fake.world;
  assert.deepEqual(result.structuredContent, {
    name: world.account.name,
    world: world.account.world,
    created: world.account.created,
    hours_played: Math.floor(world.account.age / 3600),
    access: world.account.access,
    commander: world.account.commander,
    fractal_level: world.account.fractal_level,
    wvw_rank: world.account.wvw_rank,
    key_permissions: [
      "account",
      "inventories",
      "characters",
      "wallet",
      "progression",
      "unlocks",
      "tradingpost",
      "builds",
    ],
  });
  assert.equal(textOf(result), JSON.stringify(result.structuredContent));
  assert.ok(!textOf(result).includes(world.account.id), "no account GUID");
});

Deno.test("priory_account_materials without ids rolls up per category to the fixture's sums", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app, TEST_KEYS.full);
  const result = await client.callTool({ name: "priory_account_materials", arguments: {} });
  const world = getWorld();
  const expected = [...world.materials.values()].sort((a, b) => a.order - b.order).map(
    (category) => {
      const owned = world.accountMaterials.filter((row) =>
        row.category === category.id && row.count > 0
      );
      const unitValue = (id: number) =>
        Math.floor((world.prices.get(id)?.buys.unit_price ?? 0) * 0.85);
      return {
        category: category.name,
        distinct_owned: owned.length,
        total_count: owned.reduce((sum, row) => sum + row.count, 0),
        total_sell_value: owned.reduce((sum, row) => sum + row.count * unitValue(row.id), 0),
      };
    },
  );
  assert.deepEqual(result.structuredContent, { categories: expected });
  const text = textOf(result);
  assert.ok(text.length / 4 < 400, `${text.length / 4} tokens`);
  assert.doesNotMatch(text, /icon|"id"/);
});

Deno.test("priory_account_materials with ids returns exactly those ids, count 0 included", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app, TEST_KEYS.full);
  const world = app.fake.world;
  const emptySlot = world.accountMaterials.find((row) => row.count === 0);
  assert.ok(emptySlot);
  const ids = [
    WELL_KNOWN.globOfEctoplasm,
    emptySlot.id,
    WELL_KNOWN.sunrise,
    WELL_KNOWN.absentItem,
  ];
  const result = await client.callTool({ name: "priory_account_materials", arguments: { ids } });
  const categoryName = (id: number) => world.materials.get(id)?.name;
  const ecto = world.accountMaterials.find((row) => row.id === WELL_KNOWN.globOfEctoplasm);
  assert.deepEqual((result.structuredContent as Structured).materials, [
    {
      id: WELL_KNOWN.globOfEctoplasm,
      name: "Glob of Ectoplasm",
      category: categoryName(ecto?.category ?? 0),
      count: 1_234,
    },
    {
      id: emptySlot.id,
      name: world.items.get(emptySlot.id)?.name,
      category: categoryName(emptySlot.category),
      count: 0,
    },
    { id: WELL_KNOWN.sunrise, name: "Sunrise", category: null, count: 0 },
    { id: WELL_KNOWN.absentItem, name: null, category: null, count: 0 },
  ]);
});

Deno.test("priory_account_materials refuses 101 ids before any upstream call", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app, TEST_KEYS.full);
  const ids = Array.from({ length: 101 }, (_, index) => 19_600 + index);
  const result = await client.callTool({ name: "priory_account_materials", arguments: { ids } });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /too many ids: at most MAX_IDS = 100 per call, got 101/);
  assert.equal(app.fake.control.requests.length, 0);
  const hundred = await client.callTool({
    name: "priory_account_materials",
    arguments: { ids: ids.slice(0, 100) },
  });
  assert.equal(((hundred.structuredContent as Structured).materials as unknown[]).length, 100);
});

Deno.test("priory_account_wallet names every currency, coin in copper", async () => {
  await using app = await startTestApp();
  await using client = await connectWithKey(app, TEST_KEYS.full);
  const result = await client.callTool({ name: "priory_account_wallet", arguments: {} });
  const world = app.fake.world;
  // The gem exchange's figures (tests/tools/wallet_exchange_test.ts) on the Coin and Gem rows.
  const exchange: Readonly<Record<number, object>> = {
    1: { gems: 10_928 },
    4: { coins: 3_682_192 },
  };
  assert.deepEqual(result.structuredContent, {
    wallet: world.wallet.map((row) => ({
      id: row.id,
      name: world.currencies.get(row.id)?.name,
      value: row.value,
      ...exchange[row.id],
    })),
  });
  assert.doesNotMatch(textOf(result), /icon|description|order/);
});

Deno.test("after account calls, no tool result, log line or KV entry holds the key", async () => {
  await using app = await startTestApp();
  const keys = [TEST_KEYS.full, TEST_KEYS.veteran, TEST_KEYS.noWallet, UNKNOWN_KEY];
  const outputs: string[] = [];
  for (const key of keys) {
    await using client = await connectWithKey(app, key);
    for (const name of ACCOUNT_TOOLS) {
      for (const args of name === "priory_account_materials" ? [{}, { ids: [19721] }] : [{}]) {
        outputs.push(JSON.stringify(await client.callTool({ name, arguments: args })));
      }
    }
  }
  // The holdings-aware tree and the ranking, which read the same account data.
  for (const key of [TEST_KEYS.veteran, TEST_KEYS.noWallet]) {
    await using client = await connectWithKey(app, key);
    for (
      const [name, args] of [
        ["priory_recipe_tree", { itemId: WELL_KNOWN.sunrise, useAccount: true }],
        ["priory_legendary_ranking", {}],
      ] as const
    ) {
      outputs.push(JSON.stringify(await client.callTool({ name, arguments: args })));
    }
  }
  // The holdings reader too: its character, bank and storage reads land in KV.
  await readHoldings(app.gw2, TEST_KEYS.veteran);
  await readHoldings(app.gw2, TEST_KEYS.full);
  const secrets = keys.flatMap((key) => [key, key.slice(0, 36), key.slice(36)]);
  const haystacks: [string, string][] = [
    ...outputs.map((text) => ["tool result", text] as [string, string]),
    ...app.logs.map((line) => ["log line", line] as [string, string]),
  ];
  const decoder = new TextDecoder();
  let entries = 0;
  for await (const entry of app.kv.list({ prefix: [] })) {
    entries++;
    const value = entry.value instanceof Uint8Array ? decoder.decode(entry.value) : entry.value;
    // KV keys and counters (`Deno.KvU64`) hold bigints, which JSON cannot carry as such.
    const text = JSON.stringify(
      [entry.key, value instanceof Deno.KvU64 ? value.value : value],
      (_, part) => typeof part === "bigint" ? part.toString() : part,
    );
    haystacks.push(["KV entry", text]);
  }
  assert.ok(entries > 20, `scanned ${entries} KV entries`);
  assert.ok(app.logs.length > 20, `scanned ${app.logs.length} log lines`);
  assert.ok(outputs.some((text) => text.includes("Priory Veteran.1907")), "calls succeeded");
  assert.ok(outputs.some((text) => /"priced":1\d\d,/.test(text)), "the ranking answered");
  for (const [where, text] of haystacks) {
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `${where} holds a key: ${text.slice(0, 200)}`);
    }
  }
});
