/**
 * The order-book read (`Gw2Client.listings`) over the fake: batching, the cache's minute, the
 * bounded book it keeps, and the 502 a huge book answers for every request naming it.
 */
import assert from "node:assert/strict";
import { serialize } from "node:v8";
import { KV_VALUE_MAX_BYTES, kvValueSizeBound } from "../../src/kv/limits.ts";
import { LISTINGS, parseWith } from "../../src/gw2/endpoints.ts";
import { BOOK_MAX_LEVELS, BOOK_MAX_UNITS, keptBook } from "../../src/gw2/order_book.ts";
import type { OrderBook } from "../../src/gw2/schemas.ts";
import { createFakeGw2, type ListingRecord, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";
import { ManualClock } from "../support/clock.ts";
import { retainedBy } from "../support/heap.ts";

async function setup() {
  const clock = new ManualClock({ advance: "delays" });
  const kv = await openMemoryKv();
  const fake = createFakeGw2({ now: () => clock.now() });
  const client = clientOverFake(kv, clock, fake);
  const listings = () =>
    fake.control.requests.filter((request) => request.path === "/v2/commerce/listings");
  return { clock, kv, fake, client, listings, [Symbol.dispose]: () => kv.close() };
}

/** The fake's book as the client should keep it: every sell level, the best buy level, every buy level. */
function expectedBook(book: ListingRecord): OrderBook {
  const best = book.buys[0];
  return {
    id: book.id,
    sells: book.sells.map((level) => [level.unit_price, level.quantity]),
    ...(best === undefined ? {} : { buy: [best.unit_price, best.quantity] }),
    ...(book.buys.length === 0
      ? {}
      : { buys: book.buys.map((level) => [level.unit_price, level.quantity]) }),
  };
}

Deno.test("listings() reads 450 books in 3 requests of at most 200 (top=1001), none again within the minute", async () => {
  using env = await setup();
  const ids = [...env.fake.world.prices.keys()].slice(0, 450);
  const read = await env.client.listings(ids);
  assert.deepEqual(read.found.map((book) => book.id), ids);
  assert.deepEqual(env.listings().map((request) => request.idCount), [200, 200, 50]);
  assert.ok(env.listings().every((request) => /(^|&)top=1001(&|$)/.test(request.query)));
  const ecto = env.fake.world.listings.get(WELL_KNOWN.globOfEctoplasm);
  assert.ok(ecto);
  const [kept] = (await env.client.listings([WELL_KNOWN.globOfEctoplasm])).found;
  assert.deepEqual(kept, expectedBook(ecto));
  assert.equal(kept?.sells[0]?.[0], 2_797, "top of book: the price record's lowest listing");
  env.clock.advance(59_999);
  await env.client.listings(ids);
  assert.equal(env.listings().length, 3, "fresh for a minute: nothing asked");
  env.clock.advance(1);
  await env.client.listings(ids.slice(0, 10));
  assert.equal(env.listings().length, 4, "a minute old: asked again");
});

Deno.test("listings(): a huge book's 502 is split until it stands alone; the read succeeds, the book comes back unread", async () => {
  using env = await setup();
  const ids = [...env.fake.world.prices.keys()].slice(0, 8);
  const huge = ids[5];
  assert.ok(huge !== undefined);
  env.fake.control.setBook(huge, "huge");
  const read = await env.client.listings(ids);
  assert.deepEqual(read.found.map((book) => book.id), ids);
  assert.deepEqual(read.found.find((book) => book.id === huge), {
    id: huge,
    sells: [],
    unread: true,
  });
  assert.ok(read.found.filter((book) => book.id !== huge).every((book) => book.sells.length > 0));
  // Ids 0–7 → 502; 0–3 ok, 4–7 → 502; 4–5 → 502, 6–7 ok; 4 ok, 5 → 502: 7 requests, none
  // retried (the split is the retry).
  const byCount = (status: number) =>
    env.listings().filter((request) => request.status === status).map((request) => request.idCount)
      .sort((a, b) => b - a);
  assert.deepEqual(byCount(502), [8, 4, 2, 1]);
  assert.deepEqual(byCount(200), [4, 2, 1]);
  const again = await env.client.listings(ids);
  assert.deepEqual(again.found, read.found);
  assert.equal(env.listings().length, 7, "the unread book is remembered for the minute too");
});

Deno.test("listings(): when every request answers 502 the split stops at 32 more requests per 200 ids, and the read still succeeds", async () => {
  using env = await setup();
  const ids = [...env.fake.world.prices.keys()].slice(0, 200);
  for (const id of ids) env.fake.control.setBook(id, "huge");
  const read = await env.client.listings(ids);
  assert.equal(read.found.length, 200);
  assert.ok(read.found.every((book) => book.unread === true && book.sells.length === 0));
  assert.equal(env.listings().length, 1 + 32);
});

Deno.test("listings(): a book deeper than the levels kept comes back with `more`, though upstream sends only `top` levels a side", async () => {
  using env = await setup();
  // 1,500 sell levels of one unit each; upstream cuts each side to `top` levels (as the real API
  // and the fake do).
  const id = WELL_KNOWN.globOfEctoplasm;
  const sells = Array.from({ length: 1_500 }, (_, index) => ({
    listings: 1,
    unit_price: 2_797 + index,
    quantity: 1,
  }));
  const asked: string[] = [];
  const client = clientOverFake(env.kv, env.clock, env.fake, {
    fetch: (input) => {
      const url = new URL(input);
      asked.push(url.searchParams.get("top") ?? "");
      const top = Number(url.searchParams.get("top") ?? sells.length);
      return Promise.resolve(
        Response.json([{ id, buys: [], sells: sells.slice(0, top) }]),
      );
    },
  });
  const [book] = (await client.listings([id])).found;
  assert.equal(book?.sells.length, BOOK_MAX_LEVELS);
  assert.equal(book?.more, true, "the book goes on past the levels kept");
  assert.deepEqual(asked, [String(BOOK_MAX_LEVELS + 1)], "one level more than are kept");
});

Deno.test("listings() of a sold-out book keeps an empty sell side", async () => {
  using env = await setup();
  env.fake.control.setBook(WELL_KNOWN.dawn, "sold_out");
  const [book] = (await env.client.listings([WELL_KNOWN.dawn])).found;
  assert.deepEqual(book?.sells, []);
  assert.equal(book?.unread, undefined);
});

Deno.test("keptBook() keeps the cheapest sell levels up to its caps, the best buy level, and fits a KV value", () => {
  const level = (unit_price: number, quantity: number) => ({ listings: 3, unit_price, quantity });
  // 5,000 levels of one unit each at the most expensive prices: the level cap binds.
  const wide = keptBook({
    id: 1,
    buys: [level(5, 9), level(7, 2), level(6, 4)],
    sells: Array.from({ length: 5_000 }, (_, index) => level(2_000_000_000 - index, 1)),
  });
  assert.equal(wide.sells.length, BOOK_MAX_LEVELS);
  assert.deepEqual(wide.sells[0], [2_000_000_000 - 4_999, 1], "lowest price first");
  assert.deepEqual(wide.buy, [7, 2]);
  assert.deepEqual(wide.buys, [[7, 2], [6, 4], [5, 9]], "buy levels, highest price first");
  assert.equal(wide.moreBuys, undefined);
  assert.equal(wide.more, true);
  const entry = { fetchedAt: Date.now(), found: true, value: wide };
  const stored = serialize(entry).byteLength;
  assert.ok(stored < KV_VALUE_MAX_BYTES / 2, `${stored} bytes`);
  // The size the cache decides by: a book at the level cap is stored, not skipped as oversized.
  assert.ok(kvValueSizeBound(entry) <= KV_VALUE_MAX_BYTES, `bound ${kvValueSizeBound(entry)}`);
  // Deep levels: the unit cap binds once the levels kept hold the most a tree can buy.
  // The largest purchase a tree can make: 250 Pharus crafted throughout, 25,350 logs each.
  assert.ok(BOOK_MAX_UNITS >= 250 * 25_350);
  const deep = keptBook({
    id: 2,
    buys: [],
    sells: [
      level(10, 4_000_000),
      level(11, 0),
      level(12, 4_000_000),
      level(13, 4_000_000),
      level(14, 1),
    ],
  });
  assert.deepEqual(deep.sells, [[10, 4_000_000], [12, 4_000_000], [13, 4_000_000]]);
  assert.ok(BOOK_MAX_UNITS <= 12_000_000);
  assert.equal(deep.more, true);
  assert.equal(deep.buy, undefined, "no buy orders");
  const whole = keptBook({ id: 3, buys: [], sells: [level(10, 5)] });
  assert.deepEqual(whole, { id: 3, sells: [[10, 5]] }, "a whole book: no `more`");
  // Both sides at the level cap, at the largest prices: still one KV value.
  const full = keptBook({
    id: 4,
    buys: Array.from({ length: 5_000 }, (_, index) => level(1_999_999_999 - index, 1)),
    sells: Array.from({ length: 5_000 }, (_, index) => level(2_000_000_000 + index, 1)),
  });
  assert.equal(full.buys?.length, BOOK_MAX_LEVELS);
  assert.deepEqual(full.buys?.[0], [1_999_999_999, 1]);
  assert.equal(full.moreBuys, true);
  const both = { fetchedAt: Date.now(), found: true, value: full };
  assert.ok(kvValueSizeBound(both) <= KV_VALUE_MAX_BYTES, `bound ${kvValueSizeBound(both)}`);
});

Deno.test("a book read back from the cache holds no more heap than the same book built from upstream", () => {
  // The client holds up to 1,000 books in memory, most of them read back from KV.
  const level = (index: number) => ({ listings: 2, unit_price: 900 + 7 * index, quantity: 40 });
  const upstream = (id: number) => ({
    id,
    buys: [level(0)],
    sells: Array.from({ length: BOOK_MAX_LEVELS }, (_, index) => level(index)),
  });
  const count = 50;
  const ids = Array.from({ length: count }, (_, index) => index + 1);
  // KV hands a value back as a structured clone of what was stored.
  const stored = ids.map((id) => structuredClone(keptBook(upstream(id))));
  const read = parseWith(LISTINGS.stored ?? LISTINGS.schema);
  assert.deepEqual(read(stored[0]), keptBook(upstream(1)));
  const built = retainedBy(() => ids.map((id) => keptBook(upstream(id))));
  const readBack = retainedBy(() => stored.map(read));
  if (built === undefined || readBack === undefined) return; // no forced collection (Deno 2.5)
  assert.ok(
    readBack <= 1.25 * built,
    `${Math.round(readBack / count / BOOK_MAX_LEVELS)} bytes a level read back, ${
      Math.round(built / count / BOOK_MAX_LEVELS)
    } built`,
  );
});
