/**
 * The client's background options and paged reads: the bucket's reserve, reading ahead of
 * expiry, and `itemsPage` / `recipesPage` / `pricesPage` (`X-Page-Total`, `X-Result-Total`, odd
 * records skipped, past the end).
 */

import assert from "node:assert/strict";
import { createGw2Client } from "../../src/gw2/client.ts";
import { Gw2UpstreamError } from "../../src/gw2/errors.ts";
import { classifyAnswer } from "../../src/gw2/response.ts";
import { BucketPriority, TokenBucket } from "../../src/gw2/token_bucket.ts";
import { createFakeGw2 } from "../fake_gw2/mod.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";
import { silentLogger } from "../../src/log.ts";
import { jsonAnswer, scriptedFetch } from "./_support.ts";

const HOUR = 3_600_000;

Deno.test("TokenBucket with a reserve stops above it; a holder without one takes the rest", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const key = ["bucket"];
  const background = new TokenBucket({ kv, key, burst: 10, perSec: 5, clock, reserve: 4 });
  const interactive = new TokenBucket({ kv, key, burst: 10, perSec: 5, clock });
  const admitted = async (bucket: TokenBucket) => {
    let count = 0;
    while ((await bucket.tryTake()).admitted) count++;
    return count;
  };
  assert.equal(await admitted(background), 6);
  assert.deepEqual(await background.tryTake(), { admitted: false, retryAfterMs: 200 });
  assert.equal(await admitted(interactive), 4, "the reserve is the interactive holders'");
  clock.advance(1000);
  assert.equal(await admitted(background), 1, "5 tokens back: one above the reserve");
  assert.equal(await admitted(interactive), 4);
});

/** Yields to the event loop until `done()` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; !done(); turn++) {
    assert.ok(turn < 1000, `never ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

Deno.test("a yielding bucket gives way: an interactive take issued while a background burst waits gets the token first", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const key = ["bucket"];
  // No reserve, so only the priority decides; both see the same empty bucket.
  const priority = new BucketPriority();
  const options = { kv, key, burst: 2, perSec: 5, clock, random: () => 0, priority };
  const background = new TokenBucket({ ...options, yields: true });
  const interactive = new TokenBucket(options);
  assert.equal((await background.tryTake()).admitted, true);
  assert.equal((await background.tryTake()).admitted, true);
  // The interactive holder has seen the bucket before (refill counts from its own looks).
  assert.equal(await interactive.level(), 0);
  const order: string[] = [];
  const takes = [1, 2, 3].map(async (n) => {
    if ((await background.take(60_000)).admitted) order.push(`background ${n}`);
  });
  await until(() => clock.pendingSleeps === 3, "three background waits");
  // Half a refill later an interactive read needs the budget too: it waits for the same token.
  clock.advance(100);
  takes.push((async () => {
    if ((await interactive.take(60_000)).admitted) order.push("interactive");
  })());
  await until(() => clock.pendingSleeps === 4, "the interactive wait");
  assert.equal(priority.contended, true);
  // One token at 200 ms: the background burst, woken first, gives way.
  clock.advance(100);
  await until(() => order.length === 1, "the first admission");
  assert.deepEqual(order, ["interactive"]);
  assert.equal(priority.contended, false, "served: the background may go on");
  for (let admitted = 2; admitted <= 4; admitted++) {
    await until(() => clock.pendingSleeps === 5 - admitted, "the background waits");
    clock.advance(200);
    await until(() => order.length === admitted, `admission ${admitted}`);
  }
  await Promise.all(takes);
  assert.deepEqual(order, ["interactive", "background 1", "background 2", "background 3"]);
});

Deno.test("a background client leaves its reserve of the shared bucket to the interactive one", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const background = clientOverFake(kv, clock, fake, {
    rate: { burst: 22, perSec: 5 },
    maxRateWaitMs: 0,
    background: { reserveTokens: 10, refreshAheadMs: 0 },
  });
  const interactive = clientOverFake(kv, clock, fake, { rate: { burst: 22, perSec: 5 } });
  const ids = Array.from({ length: 30 }, (_, index) => 900_001 + index);
  // The capacity is 20 (two spare tokens at 5/s); the background takes 10 and is refused the 11th.
  const reads = await Promise.allSettled(ids.map((id) => background.searchRecipes({ output: id })));
  assert.equal(reads.filter((read) => read.status === "fulfilled").length, 10);
  const more = await Promise.all(
    ids.slice(0, 10).map((id) => interactive.searchRecipes({ input: id })),
  );
  assert.equal(more.length, 10);
  assert.equal(interactive.stats().bucketWaits, 0);
});

Deno.test("a background client re-reads records and searches that would expire within its horizon", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const interactive = clientOverFake(kv, clock, fake);
  const background = clientOverFake(kv, clock, fake, {
    background: { reserveTokens: 0, refreshAheadMs: 2 * HOUR },
  });
  await interactive.items([19721]);
  await interactive.searchRecipes({ output: 19684 });
  const requests = () => fake.control.requests.length;
  assert.equal(requests(), 2);
  clock.advance(21 * HOUR);
  await background.items([19721]);
  await background.searchRecipes({ output: 19684 });
  assert.equal(requests(), 2, "fresh beyond the horizon: nothing read");
  clock.advance(2 * HOUR);
  await background.items([19721]);
  await background.searchRecipes({ output: 19684 });
  assert.equal(requests(), 4, "23 h old: read again ahead of expiry");
  // The interactive client reads those entries as fresh, a full day later.
  clock.advance(23 * HOUR);
  await interactive.items([19721]);
  await interactive.searchRecipes({ output: 19684 });
  assert.equal(requests(), 4);
  // An "unknown id" marker (fresh for an hour) is asked again once expired, not ahead.
  await interactive.items([999_999_001]);
  clock.advance(HOUR / 2);
  await background.items([999_999_001]);
  assert.equal(requests(), 5);
});

Deno.test("a background read ahead that fails serves the still-fresh record", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const background = clientOverFake(kv, clock, fake, {
    maxRetries: 0,
    background: { reserveTokens: 0, refreshAheadMs: 2 * HOUR },
  });
  await background.items([19721]);
  clock.advance(23 * HOUR);
  fake.control.injectFault("server_error");
  const read = await background.items([19721]);
  assert.equal(read.found[0]?.id, 19721);
});

Deno.test("itemsPage() and recipesPage() read a page of the collection with its page count", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const client = clientOverFake(kv, clock, fake);
  const first = await client.itemsPage(0, 200);
  assert.equal(first.records.length, 200);
  assert.equal(first.pageTotal, Math.ceil(fake.world.items.size / 200));
  assert.equal(first.skipped, 0);
  assert.deepEqual(Object.keys(first.records[0] ?? {}).sort(), ["id", "name", "rarity", "type"]);
  const lastPage = Math.ceil(fake.world.recipes.size / 200) - 1;
  const last = await client.recipesPage(lastPage, 200);
  assert.equal(last.pageTotal, lastPage + 1);
  assert.equal(last.records.length, fake.world.recipes.size - lastPage * 200);
  assert.deepEqual(Object.keys(last.records[0] ?? {}).sort(), [
    "disciplines",
    "flags",
    "id",
    "ingredients",
    "min_rating",
    "output_item_count",
    "output_item_id",
  ]);
  assert.deepEqual(fake.control.requests.map((request) => request.query.replace(/&v=.*/, "")), [
    "page=0&page_size=200&lang=en",
    `page=${lastPage}&page_size=200`,
  ]);
  await assert.rejects(() => client.recipesPage(lastPage + 1, 200), (error) => {
    assert.ok(error instanceof Gw2UpstreamError);
    assert.equal(error.status, 400, "page out of range");
    return true;
  });
  const german = await client.itemsPage(0, 200, undefined, "de");
  assert.notDeepEqual(german.records.map((r) => r.name), first.records.map((r) => r.name));
  assert.deepEqual(german.records.map((r) => r.id), first.records.map((r) => r.id));
  assert.match(fake.control.requests.at(-1)?.query ?? "", /&lang=de/u, "a page in German");
  await assert.rejects(() => client.itemsPage(0, 201), RangeError);
  await assert.rejects(() => client.itemsPage(-1, 200), RangeError);
  assert.equal(fake.control.requests.length, 4, "a bad page or size is refused before sending");
  // Nothing is cached: a paged read is the crawl's, kept in its own layout.
  assert.equal((await client.items([first.records[0]?.id ?? 0])).found.length, 1);
  assert.equal(fake.control.requests.length, 5);
});

Deno.test("pricesPage() reads the Trading Post page by page, with X-Page-Total and X-Result-Total", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const client = clientOverFake(kv, clock, fake);
  const total = fake.world.prices.size;
  const first = await client.pricesPage(0, 200);
  assert.equal(first.pageTotal, Math.ceil(total / 200));
  assert.equal(first.resultTotal, total, "X-Result-Total: every tradeable id");
  assert.equal(first.records.length, 200);
  assert.deepEqual(first.records[0], fake.world.prices.get(first.records[0]?.id ?? 0));
  const last = await client.pricesPage(first.pageTotal - 1, 200);
  assert.equal(last.records.length, total - (first.pageTotal - 1) * 200);
  assert.deepEqual(fake.control.requests.map((request) => request.path), [
    "/v2/commerce/prices",
    "/v2/commerce/prices",
  ]);
  await assert.rejects(() => client.pricesPage(first.pageTotal, 200), (error) => {
    assert.ok(error instanceof Gw2UpstreamError);
    return error.status === 400;
  });
});

Deno.test("a page skips records that fail the schema, and a page without X-Page-Total is malformed", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const answers = scriptedFetch(
    () =>
      jsonAnswer(200, [{ id: 1, name: "One", rarity: "Fine", type: "Trophy" }, { id: "x" }], {
        "x-page-total": "7",
      }),
    () => jsonAnswer(200, []),
  );
  const client = createGw2Client({
    baseUrl: "http://gw2.fake",
    kv,
    clock,
    log: silentLogger,
    rate: { burst: 300, perSec: 5 },
    fetch: answers.fetch,
  });
  const page = await client.itemsPage(3, 2);
  assert.deepEqual(page, {
    records: [{ id: 1, name: "One", rarity: "Fine", type: "Trophy" }],
    skipped: 1,
    pageTotal: 7,
  });
  await assert.rejects(() => client.itemsPage(4, 2), (error) => {
    assert.ok(error instanceof Gw2UpstreamError);
    assert.equal(error.reason, "malformed");
    return true;
  });
});

Deno.test("classifyAnswer() reads X-Page-Total only when it is a count", () => {
  const answer = { status: 200, contentType: "application/json", body: "[]", retryAfter: null };
  assert.deepEqual(classifyAnswer({ ...answer, pageTotal: "42" }, "account", 0), {
    kind: "ok",
    status: 200,
    json: [],
    pageTotal: 42,
  });
  for (const pageTotal of [null, "", "many", "-1"]) {
    assert.deepEqual(classifyAnswer({ ...answer, pageTotal }, "account", 0), {
      kind: "ok",
      status: 200,
      json: [],
    });
  }
});
