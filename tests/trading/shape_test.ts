import assert from "node:assert/strict";
import { boundTradingPost, rowItemIds, shapeTradingPost } from "../../src/trading/shape.ts";
import { earnings } from "../../src/trading/earnings.ts";

const NOW = Date.UTC(2026, 10, 29, 12);
const RECENT = new Date(NOW - 3_600_000).toISOString();

Deno.test("boundTradingPost(): the delivery box valued at count x floor(buy x 0.85), every list cut at limit with more", () => {
  const rows = boundTradingPost({
    selling: [1, 2, 3].map((id) => ({
      id,
      count: 1,
      price: 10,
      lowest: 10,
      undercut: false,
      ahead: 0,
    })),
    buying: [],
    delivery: {
      coins: 1_234_567,
      items: [{ id: 19709, count: 500 }, { id: 19721, count: 250 }, { id: 19976, count: 30 }],
    },
    buyPrices: new Map([[19721, 2603], [19976, 14_563]]),
    earnings: earnings(
      [4, 5, 6].map((id) => ({ item_id: id, price: 100 * id, quantity: 1, purchased: RECENT })),
      [],
      "7d",
      NOW,
    ),
  }, 2);
  assert.deepEqual(rows.delivery, {
    coins: 1_234_567,
    items: [
      { id: 19721, count: 250, value: 250 * 2212 },
      { id: 19976, count: 30, value: 30 * 12_378 },
    ],
  });
  assert.deepEqual(rows.more, { selling: 1, delivery: 1, top: 1 });
  assert.deepEqual(rows.earnings.top.map((row) => row.id), [6, 5]);
  assert.deepEqual(rowItemIds(rows), [1, 2, 19721, 19976, 6, 5]);
  const shaped = shapeTradingPost(rows, new Map([[1, "One"], [19721, "Glob of Ectoplasm"]]));
  assert.deepEqual(Object.keys(shaped.selling[0] ?? {}).slice(0, 3), ["id", "name", "count"]);
  assert.equal(shaped.selling[0]?.name, "One");
  assert.equal(shaped.selling[1]?.name, null);
  assert.equal(shaped.delivery.items[0]?.name, "Glob of Ectoplasm");
  assert.deepEqual(shaped.more, { selling: 1, delivery: 1, top: 1 });
  assert.equal(shaped.earnings.window, "7d");
  assert.equal(shaped.earnings.profit, 1275);
});

Deno.test("boundTradingPost(): nothing cut, no more", () => {
  const rows = boundTradingPost({
    selling: [],
    buying: [],
    delivery: { coins: 0, items: [] },
    buyPrices: new Map(),
    earnings: earnings([], [], "7d", NOW),
  }, 10);
  assert.equal(rows.more, undefined);
  assert.deepEqual(shapeTradingPost(rows, new Map()), {
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
});
