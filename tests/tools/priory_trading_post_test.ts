/**
 * `priory_trading_post` over the real stack against the fake's planted Trading Post: undercut and
 * outbid computed against the order books with the units ahead, the delivery box valued, the
 * window's earnings from a history of 450 sales read page by page (three requests, not one a row),
 * the fee rule and the profit, the five-minute account cache under the key's HMAC, a key without
 * `tradingpost`, and the key never in a result or a log line.
 */
import assert from "node:assert/strict";
import { TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { PLANTED_DELIVERY, PLANTED_ORDERS } from "../fake_gw2/world/trading_post.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";

type Selling = {
  id: number;
  name: string | null;
  count: number;
  price: number;
  lowest: number | null;
  undercut: boolean;
  ahead: number | null;
  atLeast?: true;
};
type Buying = Omit<Selling, "lowest" | "undercut"> & { highest: number | null; outbid: boolean };
type Answer = {
  selling: Selling[];
  buying: Buying[];
  delivery: {
    coins: number;
    items: { id: number; name: string | null; count: number; value: number }[];
  };
  earnings: {
    window: string;
    sold: { units: number; gross: number; net: number };
    bought: { units: number; spent: number };
    profit: number;
    top: { id: number; name: string | null; sold: number; bought: number; net: number }[];
    partial?: true;
  };
  more?: Record<string, number>;
};

async function tradingPost(
  app: TestApp,
  args: Record<string, unknown> = {},
  key: string = TEST_KEYS.full,
): Promise<Answer> {
  await using client = await connectClient(app.handler, { headers: { "X-GW2-Key": key } });
  const result = await client.callTool({ name: "priory_trading_post", arguments: args });
  assert.equal(result.isError, undefined, textOf(result));
  return result.structuredContent as Answer;
}

Deno.test("priory_trading_post: undercut and outbid against the books, with the units ahead", async () => {
  await using app = await startTestApp();
  const { selling, buying } = await tradingPost(app, { limit: 50 });
  const books = app.fake.world.listings;
  // The oracle: the fake's own books, summed here level by level.
  const expectedSelling = PLANTED_ORDERS.sells.map(({ item, level, quantities }) => {
    const sells = books.get(item)?.sells ?? [];
    const price = sells[level]?.unit_price ?? 0;
    return {
      id: item,
      count: quantities.reduce((a, b) => a + b, 0),
      price,
      lowest: sells[0]?.unit_price,
      undercut: level > 0,
      ahead: sells.filter((at) => at.unit_price < price).reduce((a, b) => a + b.quantity, 0),
    };
  });
  const without = <T extends { name: unknown }>(rows: T[]) =>
    rows.map(({ name: _name, ...row }) => row);
  const order = (a: { id: number; price: number }, b: { id: number; price: number }) =>
    a.id - b.id || a.price - b.price;
  assert.deepEqual(without(selling).sort(order), expectedSelling.sort(order));
  const expectedBuying = PLANTED_ORDERS.buys.map(({ item, level, quantities }) => {
    const buys = books.get(item)?.buys ?? [];
    const price = buys[level]?.unit_price ?? 0;
    return {
      id: item,
      count: quantities.reduce((a, b) => a + b, 0),
      price,
      highest: buys[0]?.unit_price,
      outbid: level > 0,
      ahead: buys.filter((at) => at.unit_price > price).reduce((a, b) => a + b.quantity, 0),
    };
  });
  assert.deepEqual(without(buying).sort(order), expectedBuying.sort(order));
  // Figures pinned (docs/fake-gw2.md), and the order: behind first.
  const vial = selling.find((row) => row.id === WELL_KNOWN.vialOfPowerfulBlood);
  assert.deepEqual([vial?.undercut, vial?.ahead], [true, 40_978]);
  const ectoRows = selling.filter((row) => row.id === WELL_KNOWN.globOfEctoplasm);
  assert.deepEqual(ectoRows.map((row) => [row.count, row.undercut]), [[350, true], [40, false]]);
  assert.deepEqual(selling.map((row) => row.undercut), [true, true, true, false, false]);
  assert.deepEqual(buying.map((row) => row.outbid), [true, true, false, false]);
  assert.equal(selling[0]?.name, "Dawn");
});

Deno.test("priory_trading_post: earnings over windows that span the history's pages, after the fee, and profit", async () => {
  await using app = await startTestApp();
  const week = (await tradingPost(app)).earnings;
  assert.equal(week.window, "7d");
  assert.deepEqual(week.sold, { units: 27_536, gross: 206_806_384, net: 175_772_783 });
  assert.deepEqual(week.bought, { units: 1_446, spent: 15_086_249 });
  assert.equal(week.profit, 175_772_783 - 15_086_249);
  assert.equal(week.partial, undefined);
  // 250 sales in the week: on pages 0 and 1. Every page was read once, 200 at a time.
  const pages = app.fake.control.requests.filter((request) =>
    request.path === "/v2/commerce/transactions/history/sells"
  );
  assert.deepEqual(
    pages.map((request) => /page=\d+&page_size=\d+/.exec(request.query)?.[0]),
    ["page=0&page_size=200", "page=1&page_size=200", "page=2&page_size=200"],
  );
  const all = (await tradingPost(app, { window: "90d" })).earnings;
  assert.deepEqual(all.sold, { units: 50_655, gross: 379_711_774, net: 322_730_888 });
  assert.deepEqual(all.bought, { units: 17_170, spent: 91_377_091 });
  assert.equal(all.profit, 322_730_888 - 91_377_091);
  const day = (await tradingPost(app, { window: "1d" })).earnings;
  assert.deepEqual(day.sold, { units: 4_696, gross: 20_855_030, net: 17_724_569 });
});

Deno.test("priory_trading_post: the fee rule is floor(price x 0.85) per unit, summed over sales", async () => {
  await using app = await startTestApp();
  const { earnings } = await tradingPost(app, { window: "30d", limit: 50 });
  // The oracle: the fake's planted sales within 30 days, each priced with the rule.
  const rows = app.fake.world.tradingPost.main.historySells.filter((row) =>
    (row.purchasedAge ?? Infinity) <= 30 * 86_400
  );
  const perItem = new Map<number, number>();
  for (const row of rows) {
    const net = row.quantity * Math.floor(row.price * 0.85);
    perItem.set(row.item_id, (perItem.get(row.item_id) ?? 0) + net);
  }
  assert.equal(earnings.sold.net, [...perItem.values()].reduce((a, b) => a + b, 0));
  assert.ok(earnings.sold.net < Math.floor(earnings.sold.gross * 0.85) + rows.length);
  assert.deepEqual(
    earnings.top.map((row) => [row.id, row.net]),
    [...perItem].sort((a, b) => b[1] - a[1] || a[0] - b[0]),
  );
});

Deno.test("priory_trading_post: the delivery box valued at the best buy order after the fee", async () => {
  await using app = await startTestApp();
  const { delivery } = await tradingPost(app);
  const value = (id: number, count: number) =>
    count * Math.floor((app.fake.world.prices.get(id)?.buys.unit_price ?? 0) * 0.85);
  assert.equal(delivery.coins, PLANTED_DELIVERY.coins);
  assert.deepEqual(
    delivery.items.map(({ id, count, value }) => ({ id, count, value })),
    PLANTED_DELIVERY.items.map(({ id, count }) => ({ id, count, value: value(id, count) }))
      .sort((a, b) => b.value - a.value),
  );
  assert.equal(
    delivery.items.at(-1)?.value,
    0,
    "Elder Wood Plank: no buy order, worth nothing now",
  );
});

Deno.test("priory_trading_post: lists cut at limit say how many rows were left off; names follow lang", async () => {
  await using app = await startTestApp();
  const answer = await tradingPost(app, { limit: 2, lang: "de" });
  assert.equal(answer.selling.length, 2);
  assert.equal(answer.buying.length, 2);
  // Nine items sold within the week: two kept, seven left off.
  assert.deepEqual(answer.more, { selling: 3, buying: 2, delivery: 1, top: 7 });
  assert.equal(answer.selling[0]?.name, "Morgenrot", "Dawn, in German");
  const full = await tradingPost(app, { limit: 50 });
  assert.equal(full.more, undefined);
});

Deno.test("priory_trading_post: account reads cached five minutes under the key's HMAC; books from the shared cache", async () => {
  await using app = await startTestApp();
  await tradingPost(app);
  const first = app.fake.control.requests.length;
  assert.ok(first <= 12, `a cold call: ${first} requests (pages, not a request a row)`);
  await tradingPost(app, { window: "30d" });
  const account = (from: number) =>
    app.fake.control.requests.slice(from).filter((request) =>
      request.path.startsWith("/v2/commerce/transactions") ||
      request.path === "/v2/commerce/delivery"
    );
  assert.deepEqual(account(first), [], "within five minutes: no account read upstream");
  app.clock.advance(5 * 60_000 + 1_000);
  const before = app.fake.control.requests.length;
  await tradingPost(app);
  assert.equal(account(before).length, 7, "past five minutes: read again (3 + 1 + 1 + 1 + 1)");
  const stored: string[] = [];
  for await (const entry of app.kv.list({ prefix: [] })) stored.push(JSON.stringify(entry.key));
  for (const key of [TEST_KEYS.full]) {
    assert.ok(stored.every((text) => !text.includes(key.slice(0, 13))), "no key in a KV key");
  }
});

Deno.test("priory_trading_post: a key without tradingpost gets an error naming it; another account answers its own", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.noWallet },
  });
  const refused = await client.callTool({ name: "priory_trading_post", arguments: {} });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /lacks the "tradingpost" permission/);
  const trader = await tradingPost(app, {}, TEST_KEYS.trader);
  assert.equal(trader.selling.length, 5, "tradingpost alone suffices");
  const veteran = await tradingPost(app, {}, TEST_KEYS.veteran);
  assert.deepEqual(veteran.selling.map((row) => [row.id, row.count]), [[
    WELL_KNOWN.mysticCoin,
    15,
  ]]);
  assert.deepEqual(veteran.earnings.sold, { units: 0, gross: 0, net: 0 });
});

Deno.test("priory_trading_post: the key is never in a result or a log line; the default answer within 2,500 tokens", async () => {
  await using app = await startTestApp();
  for (const key of [TEST_KEYS.full, TEST_KEYS.trader, TEST_KEYS.noWallet]) {
    await using client = await connectClient(app.handler, { headers: { "X-GW2-Key": key } });
    const result = await client.callTool({ name: "priory_trading_post", arguments: {} });
    assert.ok(!JSON.stringify(result).includes(key.slice(0, 13)), "no key in the result");
    if (result.isError !== true) {
      const tokens = new TextEncoder().encode(JSON.stringify(result.structuredContent)).length / 4;
      assert.ok(tokens <= 2_500, `${tokens} tokens`);
    }
  }
  const logs = app.logs.join("\n");
  for (const key of [TEST_KEYS.full, TEST_KEYS.trader, TEST_KEYS.noWallet]) {
    assert.ok(!logs.includes(key.slice(0, 13)) && !logs.includes(key.slice(-13)), "no key logged");
  }
});

Deno.test("priory_trading_post: a window or limit out of range is refused before any request", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.full },
  });
  const window = await client.callTool({
    name: "priory_trading_post",
    arguments: { window: "2d" },
  });
  assert.equal(window.isError, true);
  assert.match(textOf(window), /window must be one of 1d, 7d, 30d, 90d, not the string "2d"/);
  const limit = await client.callTool({ name: "priory_trading_post", arguments: { limit: 51 } });
  assert.match(textOf(limit), /limit must be a whole number from 1 to 50/);
  assert.equal(app.fake.control.requests.length, 0);
});
