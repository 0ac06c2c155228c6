/**
 * The fake's moving Trading Post: opt-in, deterministic, driven by the fake's clock, with trends,
 * trades and cancellations a snapshot series can see.
 */
import assert from "node:assert/strict";
import { createFakeGw2, MARKET_TICK_MS, MovingMarket, WELL_KNOWN } from "./mod.ts";
import type { PriceRecord } from "./world/types.ts";

const START = Date.UTC(2026, 10, 29);
const MIN = 60_000;

async function prices(
  fake: ReturnType<typeof createFakeGw2>,
  ids: number[],
): Promise<PriceRecord[]> {
  const response = await fake.fetch(`/v2/commerce/prices?ids=${ids.join(",")}`);
  return await response.json();
}

Deno.test("without the option the fake's prices never move", async () => {
  let now = START;
  const fake = createFakeGw2({ now: () => now });
  const before = await prices(fake, [WELL_KNOWN.mysticCoin]);
  now += 7 * 24 * 60 * MIN;
  assert.deepEqual(await prices(fake, [WELL_KNOWN.mysticCoin]), before);
});

Deno.test("the moving market follows the clock, the same for every fake and every order of asking", async () => {
  let now = START;
  const one = createFakeGw2({ now: () => now, market: new MovingMarket() });
  const two = createFakeGw2({ now: () => now, market: new MovingMarket() });
  const ids = [WELL_KNOWN.mysticCoin, 19721, 19684];
  const first = await prices(one, ids);
  now += 3 * 60 * MIN;
  const later = await prices(two, ids);
  now = START;
  assert.deepEqual(await prices(two, ids), first, "a function of the time asked at");
  assert.notDeepEqual(later, first, "three hours on, the market has moved");
  for (const record of [...first, ...later]) {
    assert.ok(
      record.buys.unit_price < record.sells.unit_price,
      "the best order stays under the listing",
    );
    assert.ok(record.buys.quantity >= 0 && record.sells.quantity >= 0);
  }
});

Deno.test("prices trend: over a month each item's listing ranges widely around its own price", () => {
  const market = new MovingMarket();
  const base: PriceRecord = {
    id: 19721,
    whitelisted: false,
    buys: { quantity: 200_000, unit_price: 2_600 },
    sells: { quantity: 90_000, unit_price: 2_800 },
  };
  const sells = Array.from(
    { length: 30 * 24 },
    (_, h) => market.price(base, START + h * 60 * MIN).sells.unit_price,
  );
  const low = Math.min(...sells);
  const high = Math.max(...sells);
  assert.ok(high / low > 1.1, `a month spans more than 10 % (${low}–${high})`);
  assert.ok(low > 2_800 * 0.5 && high < 2_800 * 1.5, "around the world's own price");
});

Deno.test("quantities: listings lose units minute by minute (trades), are restocked hourly, and some hours a withdrawal", () => {
  const market = new MovingMarket();
  const base: PriceRecord = {
    id: 46_731,
    whitelisted: false,
    buys: { quantity: 50_000, unit_price: 900 },
    sells: { quantity: 40_000, unit_price: 1_000 },
  };
  const params = market.params(base);
  assert.ok(params.sellRate > 0 && params.buyRate > 0, "this item trades");
  const hour = Math.ceil(START / (60 * MIN)) * 60 * MIN;
  let withdrawals = 0;
  for (let cycle = 0; cycle < 24; cycle++) {
    const quantities = Array.from(
      { length: 60 },
      (_, minute) =>
        market.price(base, hour + (cycle * 60 + minute) * MARKET_TICK_MS).sells.quantity,
    );
    const drops = quantities.slice(1).map((q, i) => (quantities[i] ?? 0) - q);
    assert.ok(drops.every((drop) => drop >= 0), "within an hour the listings only lose units");
    const sold = drops.reduce((a, b) => a + b, 0);
    if (
      drops.some((drop) =>
        drop >= params.cancelUnits && params.cancelUnits > Math.ceil(params.sellRate)
      )
    ) withdrawals++;
    assert.ok(sold >= Math.floor(params.sellRate * 59), `trades every hour (${sold})`);
    const next = market.price(base, hour + (cycle + 1) * 60 * MIN).sells.quantity;
    assert.ok(next > (quantities.at(-1) ?? 0), "restocked at the hour");
  }
  assert.ok(
    withdrawals > 3 && withdrawals < 21,
    `cancellations in some hours (${withdrawals} of 24)`,
  );
});

Deno.test("the moving market's order books top out at its prices", async () => {
  const fake = createFakeGw2({ now: () => START + 5 * 60 * MIN, market: new MovingMarket() });
  const id = WELL_KNOWN.mysticCoin;
  const [price] = await prices(fake, [id]);
  const [book] = await (await fake.fetch(`/v2/commerce/listings?ids=${id}`)).json();
  assert.equal(book.sells[0].unit_price, price?.sells.unit_price);
  assert.equal(book.buys[0].unit_price, price?.buys.unit_price);
});
