/**
 * The Trading Post's shared figures (`src/market/trading_post.ts`): the fee rule per unit, and
 * the lowest sell listing and best buy order every tool reads off the prices.
 */
import assert from "node:assert/strict";
import { bestBuys, lowestSells, netSellUnit } from "../../src/market/trading_post.ts";
import type { Price } from "../../src/gw2/schemas.ts";

const price = (id: number, buy: number, sell: number): Price => ({
  id,
  whitelisted: false,
  buys: { quantity: buy === 0 ? 0 : 10, unit_price: buy },
  sells: { quantity: sell === 0 ? 0 : 10, unit_price: sell },
});

Deno.test("netSellUnit(): floor(buy x 0.85) per unit, in integers", () => {
  assert.deepEqual([netSellUnit(2603), netSellUnit(1), netSellUnit(20), netSellUnit(0)], [
    2212,
    0,
    17,
    0,
  ]);
});

Deno.test("lowestSells(): an item nobody lists has no unit; bestBuys(): no buy order is 0", () => {
  const prices = [price(1, 2603, 2797), price(2, 150, 0), price(3, 0, 40)];
  assert.deepEqual([...lowestSells(prices)], [[1, 2797], [3, 40]]);
  assert.deepEqual([...bestBuys(prices)], [[1, 2603], [2, 150], [3, 0]]);
});
