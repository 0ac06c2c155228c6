/**
 * The fake's Trading Post for accounts: transactions paged as upstream pages its lists (200 a
 * page at most, a page past the end 400, 90 days of history, newest first), the planted orders
 * against the world's books, the delivery box, the gem exchange, and the `tradingpost` scope.
 */
import assert from "node:assert/strict";
import { asArray, asRecord, bearer, errorBody, get } from "./_support.ts";
import { createFakeGw2, TEST_KEYS, WELL_KNOWN } from "./mod.ts";
import { EXCHANGE_TEXT } from "./commerce.ts";
import {
  PLANTED_DELIVERY,
  PLANTED_ORDERS,
  VETERAN_DELIVERY,
  VETERAN_LISTING,
} from "./world/trading_post.ts";

const NOW = Date.UTC(2026, 10, 29, 12);
const DAY_MS = 86_400_000;
const HISTORY = "/v2/commerce/transactions/history";
const CURRENT = "/v2/commerce/transactions/current";

function fake() {
  return createFakeGw2({ now: () => NOW });
}

interface Row {
  readonly id: number;
  readonly item_id: number;
  readonly price: number;
  readonly quantity: number;
  readonly created: string;
  readonly purchased?: string;
}

function rows(body: unknown): Row[] {
  return asArray(body).map((value) => {
    const row = asRecord(value);
    const number = (field: string) => {
      const got = row[field];
      assert.equal(typeof got, "number", `${field} is a number`);
      return Number(got);
    };
    return {
      id: number("id"),
      item_id: number("item_id"),
      price: number("price"),
      quantity: number("quantity"),
      created: String(row.created),
      ...(row.purchased === undefined ? {} : { purchased: String(row.purchased) }),
    };
  });
}

/** Every page of a list at `page_size=200`, as a client must read it. */
async function allPages(path: string, key: string = TEST_KEYS.full): Promise<Row[]> {
  const instance = fake();
  const out: Row[] = [];
  for (let page = 0;; page++) {
    const got = await get(instance, `${path}?page=${page}&page_size=200`, bearer(key));
    if (got.status === 400) break;
    assert.equal(got.status, 200);
    out.push(...rows(got.body));
  }
  return out;
}

Deno.test("history/sells pages 450 sales at 200 a page, with upstream's headers; page 3 is 400", async () => {
  const instance = fake();
  const sizes: number[] = [];
  for (const page of [0, 1, 2]) {
    const got = await get(
      instance,
      `${HISTORY}/sells?page=${page}&page_size=200`,
      bearer(TEST_KEYS.full),
    );
    assert.equal(got.status, 200);
    assert.equal(got.headers.get("x-page-total"), "3");
    assert.equal(got.headers.get("x-page-size"), "200");
    assert.equal(got.headers.get("x-result-total"), "450");
    assert.equal(got.headers.get("x-result-count"), String(asArray(got.body).length));
    assert.match(got.headers.get("link") ?? "", /rel=next|rel=last/);
    sizes.push(asArray(got.body).length);
  }
  assert.deepEqual(sizes, [200, 200, 50]);
  const past = await get(instance, `${HISTORY}/sells?page=3&page_size=200`, bearer(TEST_KEYS.full));
  assert.equal(past.status, 400);
  assert.equal(past.text, errorBody("page out of range. Use page values 0 - 2."));
  const tooBig = await get(
    instance,
    `${HISTORY}/sells?page=0&page_size=201`,
    bearer(TEST_KEYS.full),
  );
  assert.equal(tooBig.status, 400);
});

Deno.test("a list without page is its first page of 50, newest first", async () => {
  const got = await get(fake(), `${HISTORY}/sells`, bearer(TEST_KEYS.full));
  assert.equal(got.status, 200);
  assert.equal(got.headers.get("x-page-size"), "50");
  assert.equal(got.headers.get("x-page-total"), "9");
  const first = rows(got.body);
  assert.equal(first.length, 50);
  const times = first.map((row) => Date.parse(row.purchased ?? ""));
  assert.deepEqual(times, [...times].sort((a, b) => b - a), "newest first");
});

Deno.test("the history holds 90 days: every row within them, dated from the fake's clock, newest first", async () => {
  const sells = await allPages(`${HISTORY}/sells`);
  const buys = await allPages(`${HISTORY}/buys`);
  assert.equal(sells.length, 450);
  assert.equal(buys.length, 130);
  for (const row of [...sells, ...buys]) {
    const purchased = Date.parse(row.purchased ?? "");
    assert.ok(purchased <= NOW && purchased > NOW - 90 * DAY_MS, `${row.purchased} within 90 days`);
    assert.ok(Date.parse(row.created) <= purchased, "created before it was fulfilled");
    assert.match(row.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  }
  const times = sells.map((row) => Date.parse(row.purchased ?? ""));
  assert.deepEqual(times, [...times].sort((a, b) => b - a));
  assert.equal(new Set(sells.map((row) => row.id)).size, 450, "distinct ids");
});

Deno.test("the history's sums per window are the ones docs/fake-gw2.md states", async () => {
  const sells = await allPages(`${HISTORY}/sells`);
  const buys = await allPages(`${HISTORY}/buys`);
  const sums = (days: number) => {
    const from = NOW - days * DAY_MS;
    const sold = sells.filter((row) => Date.parse(row.purchased ?? "") >= from);
    const bought = buys.filter((row) => Date.parse(row.purchased ?? "") >= from);
    return {
      sales: sold.length,
      units: sold.reduce((sum, row) => sum + row.quantity, 0),
      gross: sold.reduce((sum, row) => sum + row.quantity * row.price, 0),
      net: sold.reduce((sum, row) => sum + row.quantity * Math.floor(row.price * 0.85), 0),
      purchases: bought.length,
      spent: bought.reduce((sum, row) => sum + row.quantity * row.price, 0),
    };
  };
  assert.deepEqual(sums(1), {
    sales: 36,
    units: 4_696,
    gross: 20_855_030,
    net: 17_724_569,
    purchases: 2,
    spent: 803_184,
  });
  assert.deepEqual(sums(7), {
    sales: 250,
    units: 27_536,
    gross: 206_806_384,
    net: 175_772_783,
    purchases: 11,
    spent: 15_086_249,
  });
  assert.deepEqual(sums(30), {
    sales: 400,
    units: 45_244,
    gross: 329_715_994,
    net: 280_237_247,
    purchases: 44,
    spent: 41_100_525,
  });
  assert.deepEqual(sums(90), {
    sales: 450,
    units: 50_655,
    gross: 379_711_774,
    net: 322_730_888,
    purchases: 130,
    spent: 91_377_091,
  });
});

Deno.test("the current orders sit at their planted levels of the world's books", async () => {
  const instance = fake();
  const sells = rows((await get(instance, `${CURRENT}/sells`, bearer(TEST_KEYS.full))).body);
  const buys = rows((await get(instance, `${CURRENT}/buys`, bearer(TEST_KEYS.full))).body);
  const expect = (
    planted: readonly { item: number; level: number; quantities: readonly number[] }[],
    side: "sells" | "buys",
  ) =>
    planted.flatMap(({ item, level, quantities }) =>
      quantities.map((quantity) => ({
        item_id: item,
        price: instance.world.listings.get(item)?.[side][level]?.unit_price,
        quantity,
      }))
    ).sort((a, b) =>
      a.item_id - b.item_id || (a.price ?? 0) - (b.price ?? 0) || a.quantity - b.quantity
    );
  const got = (list: Row[]) =>
    list.map(({ item_id, price, quantity }) => ({ item_id, price, quantity })).sort((a, b) =>
      a.item_id - b.item_id || a.price - b.price || a.quantity - b.quantity
    );
  assert.deepEqual(got(sells), expect(PLANTED_ORDERS.sells, "sells"));
  assert.deepEqual(got(buys), expect(PLANTED_ORDERS.buys, "buys"));
  const created = sells.map((row) => Date.parse(row.created));
  assert.deepEqual(created, [...created].sort((a, b) => b - a), "newest first");
  const ecto = instance.world.listings.get(WELL_KNOWN.globOfEctoplasm);
  assert.ok(sells.some((row) => row.price > (ecto?.sells[0]?.unit_price ?? 0)), "one undercut");
  assert.ok(
    buys.some((row) =>
      row.price <
        (instance.world.listings.get(WELL_KNOWN.pileOfCrystallineDust)?.buys[0]?.unit_price ?? 0)
    ),
    "one outbid",
  );
});

Deno.test("the delivery box, and the veteran's small Trading Post", async () => {
  const instance = fake();
  const box = await get(instance, "/v2/commerce/delivery", bearer(TEST_KEYS.full));
  assert.equal(box.status, 200);
  assert.deepEqual(box.body, PLANTED_DELIVERY);
  const veteran = await get(instance, "/v2/commerce/delivery", bearer(TEST_KEYS.veteran));
  assert.deepEqual(veteran.body, VETERAN_DELIVERY);
  const listed = rows((await get(instance, `${CURRENT}/sells`, bearer(TEST_KEYS.veteran))).body);
  assert.deepEqual(listed.map(({ item_id, price, quantity }) => ({ item_id, price, quantity })), [{
    item_id: VETERAN_LISTING.item,
    price: instance.world.listings.get(VETERAN_LISTING.item)?.sells[0]?.unit_price,
    quantity: VETERAN_LISTING.quantity,
  }]);
  const history = await get(
    instance,
    `${HISTORY}/sells?page=0&page_size=200`,
    bearer(TEST_KEYS.veteran),
  );
  assert.equal(history.status, 200);
  assert.deepEqual(history.body, []);
  assert.equal(history.headers.get("x-result-total"), "0");
});

Deno.test("the Trading Post's account endpoints need tradingpost; the exchange needs no key", async (t) => {
  const instance = fake();
  for (
    const path of [
      `${HISTORY}/sells`,
      `${HISTORY}/buys`,
      `${CURRENT}/sells`,
      `${CURRENT}/buys`,
      "/v2/commerce/delivery",
    ]
  ) {
    await t.step(path, async () => {
      const denied = await get(instance, path, bearer(TEST_KEYS.noWallet));
      assert.equal(denied.status, 403);
      assert.equal(denied.text, errorBody("requires scope tradingpost"));
      assert.equal((await get(instance, path)).status, 401);
      assert.equal((await get(instance, path, bearer(TEST_KEYS.trader))).status, 200);
    });
  }
  assert.equal((await get(instance, "/v2/commerce/exchange/gems?quantity=1")).status, 200);
});

Deno.test("the gem exchange answers {coins_per_gem, quantity} both ways, as upstream's examples", async () => {
  const instance = fake();
  const gems = await get(instance, "/v2/commerce/exchange/gems?quantity=100");
  assert.deepEqual(gems.body, { coins_per_gem: 2_301, quantity: 230_137 });
  const coins = await get(instance, "/v2/commerce/exchange/coins?quantity=100000");
  assert.deepEqual(coins.body, { coins_per_gem: 2_941, quantity: 34 });
  for (const bad of ["", "?quantity=0", "?quantity=-5", "?quantity=ten"]) {
    const got = await get(instance, `/v2/commerce/exchange/gems${bad}`);
    assert.equal(got.status, 400, bad);
    assert.equal(got.text, errorBody(EXCHANGE_TEXT.badQuantity));
  }
  const few = await get(instance, "/v2/commerce/exchange/coins?quantity=100");
  assert.equal(few.status, 400);
  assert.equal(few.text, errorBody(EXCHANGE_TEXT.tooFewCoins));
});
