import assert from "node:assert/strict";
import { earnings } from "../../src/trading/earnings.ts";

const NOW = Date.UTC(2026, 10, 29, 12);
const at = (hoursAgo: number) =>
  new Date(NOW - hoursAgo * 3_600_000).toISOString().replace(".000Z", "+00:00");

Deno.test("earnings() sums the window's sales (gross, net after the fee per unit) and purchases, and profit = net - spent", () => {
  const sales = [
    { item_id: 19721, price: 2603, quantity: 10, purchased: at(1) },
    { item_id: 19721, price: 3, quantity: 7, purchased: at(30) }, // floor(3 x 0.85) = 2
    { item_id: 24295, price: 100, quantity: 1, purchased: at(23) },
    { item_id: 24295, price: 100, quantity: 1, purchased: at(25) }, // outside 1d
  ];
  const purchases = [
    { item_id: 19685, price: 68, quantity: 100, purchased: at(2) },
    { item_id: 19685, price: 68, quantity: 100, purchased: at(200) }, // outside 7d
  ];
  const day = earnings(sales, purchases, "1d", NOW);
  assert.deepEqual(day.sold, { units: 11, gross: 26_030 + 100, net: 10 * 2212 + 85 });
  assert.deepEqual(day.bought, { units: 100, spent: 6_800 });
  assert.equal(day.profit, 22_120 + 85 - 6_800);
  const week = earnings(sales, purchases, "7d", NOW);
  assert.deepEqual(week.sold, { units: 19, gross: 26_030 + 21 + 200, net: 22_120 + 14 + 170 });
  assert.deepEqual(week.items, [
    { id: 19721, sold: 17, bought: 0, net: 22_134 },
    { id: 24295, sold: 2, bought: 0, net: 170 },
  ]);
  assert.equal(week.profit, 22_304 - 6_800);
});

Deno.test("earnings(): an item only bought is not an earner; a bad date is left out", () => {
  const result = earnings(
    [{ item_id: 1, price: 10, quantity: 1, purchased: "not a date" }],
    [{ item_id: 2, price: 10, quantity: 1, purchased: at(1) }],
    "90d",
    NOW,
  );
  assert.deepEqual(result.items, []);
  assert.equal(result.sold.units, 0);
  assert.equal(result.profit, -10);
});

Deno.test("earnings(): a history read cut at maxRows before the window's start says partial", () => {
  const sales = [
    { item_id: 1, price: 10, quantity: 1, purchased: at(1) },
    { item_id: 1, price: 10, quantity: 1, purchased: at(30) },
  ];
  assert.equal(earnings(sales, [], "7d", NOW, 2).partial, true, "full, and its oldest is within");
  assert.equal(earnings(sales, [], "1d", NOW, 2).partial, undefined, "it reaches past the window");
  assert.equal(earnings(sales, [], "7d", NOW, 3).partial, undefined, "shorter than a cut read");
  assert.equal(earnings([], sales, "7d", NOW, 2).partial, true, "purchases too");
});
