import assert from "node:assert/strict";
import { buyingRows, sellingRows } from "../../src/trading/orders.ts";
import type { OrderBook } from "../../src/gw2/schemas.ts";

const ECTO: OrderBook = {
  id: 19721,
  sells: [[2797, 7319], [2854, 4574], [2926, 5630], [2959, 4154]],
  buy: [2603, 9729],
  buys: [[2603, 9729], [2543, 6439], [2501, 9700]],
};

Deno.test("sellingRows(): one row per item and price; undercut when the lowest listing is below it; ahead = units listed below it", () => {
  const rows = sellingRows([
    { item_id: 19721, price: 2926, quantity: 250 },
    { item_id: 19721, price: 2797, quantity: 40 },
    { item_id: 19721, price: 2926, quantity: 100 },
  ], new Map([[19721, ECTO]]));
  assert.deepEqual(rows, [
    { id: 19721, count: 350, price: 2926, lowest: 2797, undercut: true, ahead: 7319 + 4574 },
    { id: 19721, count: 40, price: 2797, lowest: 2797, undercut: false, ahead: 0 },
  ]);
});

Deno.test("buyingRows(): outbid when the best order is above it; ahead = units ordered above it", () => {
  const rows = buyingRows([
    { item_id: 19721, price: 2603, quantity: 500 },
    { item_id: 19721, price: 2501, quantity: 20 },
  ], new Map([[19721, ECTO]]));
  assert.deepEqual(rows, [
    { id: 19721, count: 20, price: 2501, highest: 2603, outbid: true, ahead: 9729 + 6439 },
    { id: 19721, count: 500, price: 2603, highest: 2603, outbid: false, ahead: 0 },
  ]);
});

Deno.test("a book kept in part makes ahead a lower bound (atLeast); an unread book gives no ahead", () => {
  const cut: OrderBook = {
    id: 5,
    sells: [[10, 3], [11, 4]],
    more: true,
    buys: [[9, 2]],
    moreBuys: true,
  };
  const [selling] = sellingRows([{ item_id: 5, price: 50, quantity: 1 }], new Map([[5, cut]]));
  assert.deepEqual(selling, {
    id: 5,
    count: 1,
    price: 50,
    lowest: 10,
    undercut: true,
    ahead: 7,
    atLeast: true,
  });
  const [within] = sellingRows([{ item_id: 5, price: 11, quantity: 1 }], new Map([[5, cut]]));
  assert.equal(within?.atLeast, undefined, "the kept levels reach its price: exact");
  const [buying] = buyingRows([{ item_id: 5, price: 1, quantity: 1 }], new Map([[5, cut]]));
  assert.deepEqual(buying, {
    id: 5,
    count: 1,
    price: 1,
    highest: 9,
    outbid: true,
    ahead: 2,
    atLeast: true,
  });
  // An entry cached before buy levels were kept: its best level alone.
  const old: OrderBook = { id: 6, sells: [], buy: [9, 2] };
  const [below] = buyingRows([{ item_id: 6, price: 5, quantity: 1 }], new Map([[6, old]]));
  assert.deepEqual(below, {
    id: 6,
    count: 1,
    price: 5,
    highest: 9,
    outbid: true,
    ahead: 2,
    atLeast: true,
  });
  const [top] = buyingRows([{ item_id: 6, price: 9, quantity: 1 }], new Map([[6, old]]));
  assert.deepEqual(top, { id: 6, count: 1, price: 9, highest: 9, outbid: false, ahead: 0 });
  const unread: OrderBook = { id: 7, sells: [], unread: true };
  assert.deepEqual(sellingRows([{ item_id: 7, price: 5, quantity: 1 }], new Map([[7, unread]])), [
    { id: 7, count: 1, price: 5, lowest: null, undercut: false, ahead: null },
  ]);
  assert.deepEqual(buyingRows([{ item_id: 8, price: 5, quantity: 1 }], new Map()), [
    { id: 8, count: 1, price: 5, highest: null, outbid: false, ahead: null },
  ]);
});

Deno.test("rows order: undercut (outbid) first, then the coin they hold, then id", () => {
  const books = new Map<number, OrderBook>([
    [1, { id: 1, sells: [[100, 1]] }],
    [2, { id: 2, sells: [[100, 1]] }],
    [3, { id: 3, sells: [[5, 1]] }],
  ]);
  const rows = sellingRows([
    { item_id: 1, price: 100, quantity: 1 },
    { item_id: 2, price: 100, quantity: 3 },
    { item_id: 3, price: 6, quantity: 1 },
  ], books);
  assert.deepEqual(rows.map((row) => row.id), [3, 2, 1]);
});
