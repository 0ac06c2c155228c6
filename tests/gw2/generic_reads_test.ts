/**
 * The client's generic reads: `doc(name, args)` over the `DOCS` table (the player's documents
 * under the key's HMAC, path parameters) and `bulk(name, ids)` over the `BULK` table, proved on
 * the first endpoints added through them (the legendary armory); and a paged document read whole
 * (`DocReader` with `maxPages`): every page at once after the first, ending at a short page, a
 * page past the end, or the cap.
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { Counters } from "../../src/metrics.ts";
import { DocCache } from "../../src/gw2/cache/doc_cache.ts";
import { Gw2Keys } from "../../src/gw2/cache/keys.ts";
import { DocReader } from "../../src/gw2/doc_reader.ts";
import { FRESHNESS } from "../../src/gw2/endpoints.ts";
import { Gw2NotFoundError, Gw2ScopeMissingError } from "../../src/gw2/errors.ts";
import { TokenBucket } from "../../src/gw2/token_bucket.ts";
import { Transport } from "../../src/gw2/transport.ts";
import { silentLogger } from "../../src/log.ts";
import { createFakeGw2, TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { VETERAN_ARMORY } from "../fake_gw2/world/armory.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";
import { jsonAnswer, scriptedFetch } from "./_support.ts";

async function setup() {
  const kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const gw2 = clientOverFake(kv, clock, fake);
  const requests = (path: string) =>
    fake.control.requests.filter((request) => request.path === path).length;
  return { kv, clock, fake, gw2, requests, [Symbol.dispose]: () => kv.close() };
}

Deno.test("doc(): the account's legendary armory, cached under the key's HMAC; a key without the scope is told which", async () => {
  using env = await setup();
  const { value } = await env.gw2.doc("accountLegendaryArmory", { key: TEST_KEYS.veteran });
  assert.deepEqual(value, VETERAN_ARMORY);
  await env.gw2.doc("accountLegendaryArmory", { key: TEST_KEYS.veteran });
  assert.equal(env.requests("/v2/account/legendaryarmory"), 1, "the second read is the cache's");
  assert.deepEqual(
    (await env.gw2.doc("accountLegendaryArmory", { key: TEST_KEYS.full })).value,
    [],
    "another key, another account, another entry",
  );
  const keys = [];
  for await (const entry of env.kv.list({ prefix: [] })) keys.push(JSON.stringify(entry.key));
  assert.ok(!keys.some((key) => key.includes(TEST_KEYS.veteran)), "never keyed by the key");
  await assert.rejects(
    () => env.gw2.doc("accountLegendaryArmory", { key: TEST_KEYS.noInventories }),
    Gw2ScopeMissingError,
  );
});

Deno.test("doc(): a row's parameters make its path and its cache entry; a blank name asks nothing", async () => {
  using env = await setup();
  const zoe = await env.gw2.doc("characterInventory", {
    key: TEST_KEYS.full,
    name: "Zo\u00EB Ironfist",
  });
  assert.ok(zoe.value.bags.length > 0);
  const other = await env.gw2.doc("characterInventory", {
    key: TEST_KEYS.full,
    name: "Aurora Brightwind",
  });
  assert.notDeepEqual(other.value, zoe.value, "each name its own entry");
  const inventories = env.fake.control.requests.filter((request) =>
    request.path.endsWith("/inventory")
  );
  assert.deepEqual(inventories.map((request) => decodeURIComponent(request.path)), [
    "/v2/characters/Zo\u00EB Ironfist/inventory",
    "/v2/characters/Aurora Brightwind/inventory",
  ]);
  await assert.rejects(
    () => env.gw2.doc("characterInventory", { key: TEST_KEYS.full, name: " " }),
    Gw2NotFoundError,
  );
  assert.equal(env.fake.control.requests.length, 2, "no request for a blank name");
});

Deno.test("bulk(): the armory's limits by id, batched and cached per record, unknown ids missing", async () => {
  using env = await setup();
  const read = await env.gw2.bulk("legendaryArmory", [WELL_KNOWN.sunrise, 91505, 19721]);
  assert.deepEqual(read.found, [
    { id: WELL_KNOWN.sunrise, max_count: 2 },
    { id: 91505, max_count: 8 },
  ]);
  assert.deepEqual(read.missingIds, [19721]);
  const again = await env.gw2.bulk("legendaryArmory", [91505, WELL_KNOWN.sunrise]);
  assert.deepEqual(again.found.map((limit) => limit.id), [91505, WELL_KNOWN.sunrise]);
  assert.equal(env.requests("/v2/legendaryarmory"), 1, "the second read is the cache's");
});

/**
 * A paged collection of `count` records as upstream answers it; `pageTotal` lies about its page
 * count, and `repeatLast` answers a page past the end with the last page again (not a 400).
 */
function pagedCollection(
  count: number,
  options: { readonly pageTotal?: number; readonly repeatLast?: boolean } = {},
) {
  return scriptedFetch((url) => {
    const page = Number(url.searchParams.get("page"));
    const size = Number(url.searchParams.get("page_size"));
    const pageTotal = options.pageTotal ?? Math.ceil(count / size);
    const all = Array.from({ length: count }, (_, id) => ({ id }));
    const last = Math.max(0, Math.ceil(count / size) - 1);
    const shown = options.repeatLast === true ? Math.min(page, last) : page;
    const records = all.slice(shown * size, shown * size + size);
    if (records.length === 0 && page > 0) {
      return jsonAnswer(400, { text: "page out of range. Use page values 0 - 1." });
    }
    return jsonAnswer(200, records, {
      "x-page-total": String(pageTotal),
      "x-page-size": String(size),
      "x-result-total": String(count),
    });
  });
}

async function pagedReader(fetch: ReturnType<typeof scriptedFetch>["fetch"]) {
  const kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const counters = new Counters();
  const random = () => 0.5;
  const transport = new Transport({
    baseUrl: "http://gw2.test",
    fetch,
    clock,
    log: silentLogger,
    bucket: new TokenBucket({ kv, key: ["bucket"], burst: 100, perSec: 5, clock, random }),
    counters,
    timeoutMs: 10_000,
    maxRetries: 2,
    maxRateWaitMs: 10_000,
    random,
  });
  const keys = new Gw2Keys("http://gw2.test");
  const reader = new DocReader({
    endpoint: "/v2/collection",
    schema: z.array(z.object({ id: z.number() })),
    freshness: FRESHNESS.account,
    scope: "account",
  }, {
    transport,
    clock,
    log: silentLogger,
    counters,
    refreshAheadMs: 0,
    docs: new DocCache(kv, keys, silentLogger),
  });
  const read = (maxPages: number) =>
    reader.read({
      cacheKey: keys.doc("collection", [maxPages]),
      path: "/v2/collection",
      what: "record",
      maxPages,
    });
  return { read, [Symbol.dispose]: () => kv.close() };
}

Deno.test("a paged document: every page read, 200 a request, the rest at once after the first", async (t) => {
  await t.step("450 records: three pages, in order", async () => {
    const upstream = pagedCollection(450);
    using reader = await pagedReader(upstream.fetch);
    const { value } = await reader.read(50);
    assert.equal(value.length, 450);
    assert.deepEqual(value.slice(198, 202).map((record) => record.id), [198, 199, 200, 201]);
    assert.deepEqual(
      upstream.calls.map((
        call,
      ) => [call.url.searchParams.get("page"), call.url.searchParams.get("page_size")]),
      [["0", "200"], ["1", "200"], ["2", "200"]],
    );
  });
  await t.step("at most maxPages", async () => {
    const upstream = pagedCollection(1_000);
    using reader = await pagedReader(upstream.fetch);
    assert.equal((await reader.read(2)).value.length, 400);
    assert.equal(upstream.calls.length, 2);
  });
  await t.step(
    "a page count that lies high: the short page and the page past the end end it",
    async () => {
      const upstream = pagedCollection(250, { pageTotal: 4 });
      using reader = await pagedReader(upstream.fetch);
      assert.equal((await reader.read(50)).value.length, 250);
      const repeating = pagedCollection(250, { pageTotal: 4, repeatLast: true });
      using again = await pagedReader(repeating.fetch);
      assert.equal((await again.read(50)).value.length, 250, "nothing after the short page");
    },
  );
  await t.step("an empty collection", async () => {
    using reader = await pagedReader(pagedCollection(0).fetch);
    assert.deepEqual((await reader.read(50)).value, []);
    // Some list endpoints answer an empty collection's first page 400 "page out of range".
    const refusing = scriptedFetch(() =>
      jsonAnswer(400, { text: "page out of range. Use page values 0 - -1." })
    );
    using empty = await pagedReader(refusing.fetch);
    assert.deepEqual((await empty.read(50)).value, []);
    assert.equal(refusing.calls.length, 1, "one request, no retry");
  });
});
