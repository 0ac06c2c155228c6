/**
 * The account tools at the contract's edges, over the real stack: an empty account (no
 * characters, nothing stored, no orders, no history) answers with zeros, never a failure; a key
 * GW2 rejects (401) fails every account tool with the key-rejected text, while a key that lacks a
 * scope (403) leaves that part `unread` in a tool that reads several sources.
 */
import assert from "node:assert/strict";
import { createFakeGw2, TEST_KEYS, UNKNOWN_KEY } from "../fake_gw2/mod.ts";
import { connectClient, createTestHandler, startTestApp, textOf } from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";

/** The fake's answers for an account that was just made: nothing anywhere. */
const EMPTY: Readonly<Record<string, unknown>> = {
  "/v2/characters": [],
  "/v2/account/bank": [],
  "/v2/account/inventory": [],
  "/v2/account/materials": [],
  "/v2/account/legendaryarmory": [],
  "/v2/account/wallet": [],
  "/v2/account/achievements": [],
  "/v2/commerce/transactions/current/buys": [],
  "/v2/commerce/transactions/current/sells": [],
  "/v2/commerce/transactions/history/buys": [],
  "/v2/commerce/transactions/history/sells": [],
  "/v2/commerce/delivery": { coins: 0, items: [] },
};

const ACCOUNT_CALLS: readonly [string, Record<string, unknown>][] = [
  ["priory_find_items", { ids: [19976] }],
  ["priory_trading_post", {}],
  ["priory_today", {}],
  ["priory_wizards_vault", {}],
  ["priory_achievements", { ids: [2268] }],
  ["priory_legendaries", { useAccount: true, type: "back" }],
];

Deno.test("an empty account answers every account tool with zeros, not a failure", async () => {
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  using kv = await Deno.openKv(":memory:");
  const gw2 = clientOverFake(kv, clock, fake, {
    fetch: (input, init) => {
      const request = new Request(input, init);
      const empty = EMPTY[new URL(request.url).pathname];
      if (empty === undefined) return fake.fetch(request);
      // One page of nothing, as upstream pages its lists.
      return Promise.resolve(Response.json(empty, { headers: { "x-page-total": "1" } }));
    },
  });
  await using handler = createTestHandler({ gw2, clock });
  await using client = await connectClient(handler, { headers: { "X-GW2-Key": TEST_KEYS.full } });
  const answers = new Map<string, Record<string, unknown>>();
  for (const [name, args] of ACCOUNT_CALLS) {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, undefined, `${name}: ${textOf(result)}`);
    answers.set(name, result.structuredContent as Record<string, unknown>);
  }
  const [coin] = answers.get("priory_find_items")?.items as { total: number; places: [] }[];
  assert.deepEqual([coin?.total, coin?.places], [0, []]);
  assert.deepEqual(answers.get("priory_trading_post"), {
    selling: [],
    buying: [],
    delivery: { coins: 0, items: [] },
    earnings: {
      window: "7d",
      sold: { units: 0, gross: 0, net: 0 },
      bought: { units: 0, spent: 0 },
      profit: 0,
      top: [],
    },
  });
  assert.equal(answers.get("priory_today")?.unread, undefined);
  const vault = answers.get("priory_wizards_vault") as {
    acclaim: number;
    listings: { affordable: boolean }[];
  };
  assert.equal(vault.acclaim, 0);
  assert.ok(vault.listings.every((row) => row.affordable === false), "no Acclaim affords nothing");
  const [cosmos] = answers.get("priory_achievements")?.achievements as {
    done: boolean;
    progress: number;
    of: number;
  }[];
  assert.deepEqual([cosmos?.done, cosmos?.progress, cosmos?.of], [false, 0, 54]);
  const backs = answers.get("priory_legendaries")?.legendaries as { owned: number }[];
  assert.ok(backs.length > 0 && backs.every((row) => row.owned === 0));
});

Deno.test("a rejected key (401) fails each account tool; a missing scope (403) is a part unread", async () => {
  await using app = await startTestApp();
  await using rejected = await connectClient(app.handler, {
    headers: { "X-GW2-Key": UNKNOWN_KEY },
  });
  for (const [name, args] of ACCOUNT_CALLS) {
    const result = await rejected.callTool({ name, arguments: args });
    assert.equal(result.isError, true, name);
    assert.match(textOf(result), /^GW2 API key rejected: /, name);
    assert.equal(result.structuredContent, undefined, name);
  }
  // `account` alone: every part of these needs more; each answers, naming what it lacks.
  await using narrow = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.accountOnly },
  });
  const lacking = new Map<string, string[]>();
  for (const [name, args] of ACCOUNT_CALLS) {
    if (name === "priory_trading_post") continue; // one scope for every part: an error naming it
    const result = await narrow.callTool({ name, arguments: args });
    assert.equal(result.isError, undefined, `${name}: ${textOf(result)}`);
    const { unread } = result.structuredContent as { unread?: { scope: string }[] };
    lacking.set(name, [...new Set(unread?.map((part) => part.scope))]);
  }
  assert.deepEqual(Object.fromEntries(lacking), {
    priory_find_items: ["inventories", "characters", "tradingpost"],
    priory_today: ["progression", "wallet"],
    priory_wizards_vault: ["progression", "wallet"],
    priory_achievements: ["progression"],
    priory_legendaries: ["inventories"],
  });
  const trading = await narrow.callTool({ name: "priory_trading_post", arguments: {} });
  assert.equal(trading.isError, true);
  assert.match(textOf(trading), /lacks the "tradingpost" permission/);
});
