/**
 * `priory_legendary_ranking` over the real stack (a real MCP client → handler → real GW2 client
 * on KV → the fake GW2 API) with the 19-character veteran account: the rows against the
 * holdings-aware tree, the reads it makes cold and warm, progress on both protocol eras, the
 * retry served by another instance, its errors and its size.
 */
import assert from "node:assert/strict";
import type { Progress } from "@modelcontextprotocol/client";
import { findLegendaries, LEGENDARIES } from "../../src/data/legendaries.ts";
import { rankableIds } from "../../src/ranking/rank.ts";
import { RANKING_DEADLINE_MS } from "../../src/tools/priory_legendary_ranking.ts";
import { resolveRecipes } from "../../src/tree/resolve.ts";
import { GEN1_LEGENDARY_IDS, TEST_KEYS } from "../fake_gw2/mod.ts";
import type { FakeAccount } from "../fake_gw2/world/account.ts";
import {
  connectClient,
  type Era,
  modernPost,
  startTestApp,
  type TestApp,
  textOf,
} from "../support/app.ts";
import { settleOnClock } from "../support/clock.ts";
import { tempKvFile } from "../support/kv.ts";

type Row = {
  id: number;
  name: string;
  cost: number;
  sell: number | null;
  profit: number | null;
  saved: number;
  partial?: true;
  na?: number[];
  cur?: Record<string, number>;
};
type Ranking = {
  ranking: Row[];
  priced: number;
  unpriced: number;
  characters: number;
  names?: Record<string, string>;
};
type CallResult = { content: unknown; structuredContent?: unknown; isError?: unknown };

const NAME = "priory_legendary_ranking";

function connect(app: TestApp, options: { key?: string; era?: Era } = {}) {
  return connectClient(app.handler, {
    ...(options.era === undefined ? {} : { era: options.era }),
    ...(options.key === undefined ? {} : { headers: { "X-GW2-Key": options.key } }),
  });
}

/** How many of `id` an account holds: material storage, bank, shared slots and every bag. */
function heldBy(account: FakeAccount, id: number): number {
  const slots = [
    ...account.bank,
    ...account.sharedInventory,
    ...[...account.characters.values()].flatMap((character) =>
      character.inventory.bags.flatMap((bag) => bag?.inventory ?? [])
    ),
  ];
  return account.accountMaterials.filter((row) => row.id === id)
    .reduce((sum, row) => sum + row.count, 0) +
    slots.filter((slot) => slot?.id === id).reduce((sum, slot) => sum + (slot?.count ?? 0), 0);
}

function tokens(value: unknown): number {
  return JSON.stringify(value).length / 4;
}

Deno.test("priory_legendary_ranking ranks every legendary with a tree by profit, each row as the holdings-aware tree prices it", async (t) => {
  await using app = await startTestApp();
  await using client = await connect(app, { key: TEST_KEYS.veteran });
  const result = await client.callTool({ name: NAME, arguments: { limit: 25 } });
  assert.equal(result.isError, undefined, textOf(result));
  const ranked = result.structuredContent as Ranking;
  // Every legendary the curated data makes and the fake knows; the rest are counted.
  const rankable = rankableIds(LEGENDARIES);
  const known = rankable.filter((id) => app.fake.world.items.has(id));
  assert.ok(known.length > 150, `${known.length} legendaries with a tree`);
  assert.equal(ranked.priced, known.length);
  assert.equal(ranked.unpriced, LEGENDARIES.length - known.length);
  assert.equal(ranked.characters, 19);
  assert.equal(ranked.ranking.length, 25);
  for (const row of ranked.ranking) assert.ok(known.includes(row.id), `${row.id} is rankable`);
  const profits = ranked.ranking.map((row) => row.profit ?? -Infinity);
  assert.deepEqual(profits, [...profits].sort((a, b) => b - a), "best profit first");
  assert.ok(ranked.ranking.some((row) => row.saved > 0), "the holdings contribute");
  // Eternity, a top row: the veteran holds Dusk but not Dawn, whose official recipe takes
  // account-bound collection items. Dawn is bought, so the row costs at least Dawn's sell price
  // (the oracle) and needs nothing to earn.
  const eternity = ranked.ranking.find((row) => row.id === 30689);
  const dawnSell = app.fake.world.prices.get(29169)?.sells.unit_price ?? Infinity;
  assert.ok(eternity, "among the best rows");
  assert.ok((eternity?.cost ?? 0) >= dawnSell, `${eternity?.cost} ≥ Dawn's ${dawnSell}`);
  assert.equal(eternity?.na, undefined);
  // One order-book read (in requests of at most 200 ids) for what every row buys.
  const listings = () =>
    app.fake.control.requests.filter((request) => request.path === "/v2/commerce/listings");
  const booksRead = listings();
  const booked = new Set(
    booksRead.flatMap((request) =>
      (new URLSearchParams(request.query).get("ids") ?? "").split(",").map(Number)
    ),
  );
  assert.ok(booksRead.length > 0 && booksRead.length === Math.ceil(booked.size / 200));
  const bought = new Set<number>();
  for (const row of ranked.ranking) {
    await t.step(`${row.name} (${row.id})`, async () => {
      const tree = await client.callTool({
        name: "priory_recipe_tree",
        arguments: { itemId: row.id, useAccount: true },
      });
      const { summary } = tree.structuredContent as {
        summary: Record<string, unknown> & { buyCost: number; netSell: number };
      };
      // The money columns are what the tree's shopping list costs at depth.
      assert.equal(row.cost, summary.buyCost);
      assert.equal(row.sell, summary.netSell);
      assert.equal(row.profit, summary.netSell - summary.buyCost);
      assert.equal(row.saved, summary.saved);
      const { toBuy } = tree.structuredContent as { toBuy: { id?: number; unit?: number }[] };
      for (const line of toBuy) {
        if (line.unit !== undefined && line.id !== undefined) bought.add(line.id);
      }
      assert.equal(row.partial, summary.partial);
      assert.deepEqual(row.na, summary.unavailable);
      for (const id of row.na ?? []) assert.ok(ranked.names?.[id], `${id} is named`);
    });
  }
  for (const id of bought) assert.ok(booked.has(id), `${id}: its book was read with the ranking's`);
  assert.equal(listings().length, booksRead.length, "each row's tree found its books cached");
  // Every gen-1 row (21 ≤ 25), so The Bifrost is among them wherever it ranks.
  const gen1 = (await client.callTool({ name: NAME, arguments: { generation: 1, limit: 25 } }))
    .structuredContent as Ranking;
  assert.equal(gen1.ranking.length, GEN1_LEGENDARY_IDS.length);
  await t.step("The Bifrost (30698), worked out by hand from the fake's data", () => {
    // The Bifrost = The Legend + Gift of The Bifrost + Gift of Mastery + Gift of Fortune (Mystic
    // Forge); Gift of The Bifrost = Gift of Energy + Gift of Color + 100 Icy Runestones + a
    // Superior Sigil of Nullification. The veteran holds The Legend, both gifts, the runestones
    // and the sigil's ingredients. Gift of Energy takes 250 of each of four dusts, Gift of Color 100
    // Unidentified Dye, 100 Opal Orbs, 250 Crystalline Dust and Gift of Zhaitan (500 dungeon
    // tokens, not coin). So the cash still to spend is the dusts and dyes the veteran lacks, at the
    // lowest sell listing (each book holds them there), and nothing unavailable is involved.
    const world = app.fake.world;
    const held = (id: number) => heldBy(world.veteran, id);
    const fullyHeld: [number, number][] = [
      [29180, 1], // The Legend
      [19674, 1], // Gift of Mastery
      [19626, 1], // Gift of Fortune
      [19676, 100], // Icy Runestone
      [24522, 100], // Opal Orb
      [24277, 500], // Pile of Crystalline Dust (250 for each gift)
      [89140, 100], // Lucent Mote (10 Piles of Lucent Crystal, for the sigil)
      [24300, 10], // Elaborate Totem
      [89098, 2], // Symbol of Control
      [19721, 10], // Glob of Ectoplasm
    ];
    for (const [id, count] of fullyHeld) {
      assert.ok(held(id) >= count, `the veteran holds ${count} of ${id}`);
    }
    const bought: [number, number][] = [
      [24276, 250], // Pile of Incandescent Dust
      [24275, 250], // Pile of Luminous Dust (a vendor sells it for Guild Commendations: not coin)
      [24274, 250], // Pile of Radiant Dust
      [20323, 100], // Unidentified Dye
    ];
    let cost = 0;
    for (const [id, need] of bought) {
      const missing = need - held(id);
      assert.ok(missing > 0, `the veteran lacks some of ${id}`);
      const unit = world.prices.get(id)?.sells.unit_price ?? 0;
      const top = world.listings.get(id)?.sells[0];
      assert.equal(top?.unit_price, unit);
      assert.ok((top?.quantity ?? 0) >= missing, `${id}'s lowest listing holds ${missing}`);
      cost += missing * unit;
    }
    assert.equal(cost, 53_412, "120 × 179 + 250 × 97 + 34 × 123 + 100 × 35");
    assert.equal(world.prices.get(30698)?.buys.unit_price, 23_020_289);
    const bifrost = gen1.ranking.find((row) => row.id === 30698);
    assert.ok(bifrost);
    assert.equal(bifrost.cost, cost);
    assert.equal(bifrost.sell, 19_567_245, "floor(23,020,289 × 0.85)");
    assert.equal(bifrost.profit, 19_567_245 - cost);
    assert.equal(bifrost.partial, undefined);
    assert.deepEqual(bifrost.cur, { "Tales of Dungeon Delving": 500 });
  });
});

Deno.test("priory_legendary_ranking: scopes first, one shared price read for every tree; warm, no upstream request", async () => {
  await using app = await startTestApp();
  await using client = await connect(app, { key: TEST_KEYS.veteran });
  const cold = await client.callTool({ name: NAME, arguments: {} });
  const requests = [...app.fake.control.requests];
  const paths = requests.map((request) => request.path);
  assert.equal(paths[0], "/v2/tokeninfo", "the scope check comes first");
  // The trees' recipes: the catalogue's pages, once; no search per node, no recipe by id.
  assert.deepEqual(paths.filter((path) => path === "/v2/recipes/search"), []);
  const recipeReads = requests.filter((request) => request.path === "/v2/recipes");
  assert.equal(recipeReads.length, Math.ceil(app.fake.world.recipes.size / 200));
  assert.ok(recipeReads.every((request) => request.query.includes("page=")));
  const served = app.fake.control.requests.length;
  assert.ok(served < 40, `a cold ranking of every legendary in ${served} requests`);
  const warm = await client.callTool({ name: NAME, arguments: {} });
  assert.equal(app.fake.control.requests.length, served, "warm: nothing asked upstream");
  assert.deepEqual(warm.structuredContent, cold.structuredContent);
  const resolved = await resolveRecipes(app.gw2, rankableIds(LEGENDARIES));
  assert.equal(
    paths.filter((path) => path === "/v2/commerce/prices").length,
    Math.ceil(resolved.itemIds.length / 200),
    `one batched read of ${resolved.itemIds.length} prices`,
  );
});

Deno.test("priory_legendary_ranking: the default result stays within 4,000 tokens", async (t) => {
  await using app = await startTestApp();
  await using client = await connect(app, { key: TEST_KEYS.veteran });
  const byDefault = await client.callTool({ name: NAME, arguments: {} });
  const rows = (byDefault.structuredContent as Ranking).ranking;
  assert.equal(rows.length, 10);
  const size = tokens(byDefault.structuredContent);
  await t.step(`default (10 rows): ${size} tokens`, () => assert.ok(size <= 4_000));
  const all = await client.callTool({ name: NAME, arguments: { limit: 25 } });
  const largest = tokens(all.structuredContent);
  await t.step(`limit 25 (every row): ${largest} tokens`, () => assert.ok(largest <= 4_000));
});

for (const era of ["2025", "2026"] as const) {
  Deno.test(`priory_legendary_ranking sends progress when the client asks (${era})`, async () => {
    await using app = await startTestApp();
    await using client = await connect(app, { key: TEST_KEYS.veteran, era });
    const updates: Progress[] = [];
    const result = await client.callTool({ name: NAME, arguments: { limit: 1 } }, {
      onprogress: (update) => updates.push(update),
    });
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal((result.structuredContent as Ranking).ranking.length, 1);
    assert.ok(updates.length >= 5, `${updates.length} notifications`);
    assert.deepEqual(updates.map((update) => update.progress), updates.map((_, i) => i + 1));
    const trees = rankableIds(LEGENDARIES).length;
    assert.match(
      updates[0]?.message ?? "",
      new RegExp(`holdings and ${trees} legendary recipe trees`),
    );
    assert.ok(
      updates.some((update) => /^Recipe trees: level 3 resolved/.test(update.message ?? "")),
    );
    assert.match(updates.at(-1)?.message ?? "", /^Ranked 1\d\d legendaries/);
  });
}

/** A raw 2026-07-28 `tools/call` of the ranking, with or without a progress token. */
function rankingCall(progressToken?: string): Request {
  const meta = progressToken === undefined ? {} : { _meta: { progressToken } };
  return modernPost("tools/call", { name: NAME, arguments: { limit: 1 }, ...meta }, {
    "x-gw2-key": TEST_KEYS.veteran,
  });
}

Deno.test("priory_legendary_ranking answers JSON without a progress token and SSE with one", async () => {
  await using app = await startTestApp();
  const plain = await app.handler(rankingCall());
  assert.match(plain.headers.get("content-type") ?? "", /application\/json/);
  await plain.body?.cancel();
  const streamed = await app.handler(rankingCall("rank-1"));
  assert.match(streamed.headers.get("content-type") ?? "", /text\/event-stream/);
  const events = (await streamed.text()).split("\n").filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)));
  assert.ok(events.length > 2);
  for (const event of events.slice(0, -1)) {
    assert.equal(event.method, "notifications/progress");
    assert.equal(event.params.progressToken, "rank-1");
  }
  assert.equal(events.at(-1).id, 1, "the result comes last");
});

Deno.test("priory_legendary_ranking: a retry on another instance within 5 minutes is served from KV", async () => {
  await using file = await tempKvFile();
  using kvA = await Deno.openKv(file.path);
  using kvB = await Deno.openKv(file.path);
  await using first = await startTestApp({ kv: kvA });
  // One clock, as two instances on real time share one (see `TestAppOptions.clock`).
  await using second = await startTestApp({ kv: kvB, clock: first.clock });
  await using clientA = await connect(first, { key: TEST_KEYS.veteran });
  await using clientB = await connect(second, { key: TEST_KEYS.veteran, era: "2026" });
  const original = await clientA.callTool({ name: NAME, arguments: {} });
  assert.ok(first.fake.control.requests.length > 20, "the first call was cold");
  const retried = await clientB.callTool({ name: NAME, arguments: {} });
  assert.equal(second.fake.control.requests.length, 0, "the other instance asked upstream nothing");
  assert.deepEqual(retried.structuredContent, original.structuredContent);
});

Deno.test("priory_legendary_ranking: a call that times out keeps what it read; the retry within 5 minutes pays only the rest", async () => {
  const coldRequests = async () => {
    await using app = await startTestApp();
    await app.handler(rankingCall()).then((response) => response.text());
    return app.fake.control.requests.map((request) => request.path);
  };
  const cold = await coldRequests();
  await using app = await startTestApp({ latencyOnClock: true });
  // 3 s per answer, and prices that never come in time (every attempt times out after 10 s):
  // the scopes, holdings, recipe pages and items are read, then the deadline passes.
  app.fake.control.setLatency(3_000);
  app.fake.control.setLatency(60_000, "/v2/commerce/prices");
  const first = await settleOnClock(
    app.handler(rankingCall()).then((response) => response.text()),
    app.clock,
  );
  assert.ok(first.ok);
  // The reads stop 1 s before the deadline and their cause is the answer (on a loaded machine
  // the 0.5 s answer margin may come first: a timeout all the same).
  assert.match(first.value, /the GW2 API did not answer in time\. Retry|"Timed out: /);
  assert.ok(
    first.elapsedMs >= RANKING_DEADLINE_MS - 1_000 && first.elapsedMs <= RANKING_DEADLINE_MS - 500,
    `answered at ${first.elapsedMs} ms`,
  );
  const before = app.fake.control.requests.map((request) => request.path);
  const holdings = ["/v2/tokeninfo", "/v2/account/bank", "/v2/characters"];
  for (const path of holdings) assert.ok(before.includes(path), `the first call read ${path}`);
  assert.equal(app.clock.pendingSleeps, 0, "the reads in flight at the deadline were abandoned");

  app.fake.control.setLatency(0);
  app.fake.control.setLatency(0, "/v2/commerce/prices");
  app.clock.advance(60_000);
  const retry = await settleOnClock(
    app.handler(rankingCall()).then((response) => response.text()),
    app.clock,
  );
  assert.ok(retry.ok);
  assert.match(retry.value, /"priced":1\d\d,/);
  const again = app.fake.control.requests.slice(before.length).map((request) => request.path);
  for (const path of holdings) assert.ok(!again.includes(path), `${path} came from KV`);
  // What the first call completed is not asked again: the retry makes exactly the requests a cold
  // ranking makes for what the deadline cut short — the prices, then the books they lead to.
  const unfinished = ["/v2/commerce/prices", "/v2/commerce/listings"];
  assert.deepEqual(again, cold.filter((path) => unfinished.includes(path)));
  assert.ok(again.length < cold.length, `retry ${again.length} requests; cold ${cold.length}`);
});

Deno.test("priory_legendary_ranking: no key, or a key lacking scopes, is refused before the trees are read", async () => {
  await using app = await startTestApp();
  {
    await using client = await connect(app);
    const result = await client.callTool({ name: NAME, arguments: {} });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^No GW2 API key: .*X-GW2-Key/);
    assert.equal(app.fake.control.requests.length, 0);
  }
  await using client = await connect(app, { key: TEST_KEYS.accountOnly });
  const result = await client.callTool({ name: NAME, arguments: {} });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /lacks the "inventories", "characters" permissions/);
  assert.deepEqual(app.fake.control.requests.map((request) => request.path), ["/v2/tokeninfo"]);
});

Deno.test("priory_legendary_ranking: limit is a whole number from 1 to 25", async () => {
  await using app = await startTestApp();
  await using client = await connect(app, { key: TEST_KEYS.veteran });
  for (const limit of [0, 26, 2.5, "3"]) {
    const refused = await client.callTool({ name: NAME, arguments: { limit } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /limit must be a whole number from 1 to 25/);
  }
  assert.equal(app.fake.control.requests.length, 0);
  const three = await client.callTool({ name: NAME, arguments: { limit: 3 } });
  const ranked = three.structuredContent as Ranking;
  assert.equal(ranked.ranking.length, 3);
  assert.ok(ranked.priced > 150);
});

Deno.test("priory_legendary_ranking: type and generation filter the legendaries ranked, as priory_legendaries does", async (t) => {
  await using app = await startTestApp();
  await using client = await connect(app, { key: TEST_KEYS.veteran });
  const rank = async (filter: Record<string, unknown>) => {
    const result = await client.callTool({ name: NAME, arguments: { limit: 25, ...filter } });
    assert.equal(result.isError, undefined, textOf(result));
    return result.structuredContent as Ranking;
  };
  const rankable = new Set(rankableIds(LEGENDARIES));
  for (
    const filter of [
      { generation: 1 },
      { generation: 2 },
      { type: "weapon", generation: 1 },
      { generation: 3 },
      { type: "armor" },
      { type: "trinket" },
      { type: "back" },
      { type: "upgrade" },
    ] as const
  ) {
    await t.step(JSON.stringify(filter), async () => {
      const selected = findLegendaries(filter);
      const ranked = await rank(filter);
      const expected = selected.filter((legendary) =>
        rankable.has(legendary.id) && app.fake.world.items.has(legendary.id)
      ).map(({ id }) => id);
      assert.ok(expected.length > 0, "the filter selects some");
      assert.equal(ranked.priced, expected.length);
      assert.equal(ranked.ranking.length, Math.min(25, expected.length));
      for (const row of ranked.ranking) assert.ok(expected.includes(row.id), `${row.id}`);
      assert.equal(ranked.priced + ranked.unpriced, selected.length, "counts within the filter");
    });
  }
  for (const refused of [{ generation: 4 }, { type: "ring" }]) {
    const result = await client.callTool({ name: NAME, arguments: refused });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /generation must be 1, 2 or 3|type must be one of weapon/);
  }
});
