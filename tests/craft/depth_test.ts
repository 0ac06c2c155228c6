/**
 * Runs of crafts at order-book depth (`src/craft/depth.ts`): stopped by the output's bids, by an
 * input's asks (running out, or rising), at the cap, at one for a daily craft, and priced at
 * unit prices when a book could not be read.
 */

import assert from "node:assert/strict";
import { MAX_CRAFTS, walkCrafts } from "../../src/craft/depth.ts";

const plenty = { levels: [[100, 1_000_000]] as [number, number][] };

Deno.test("the output's bids stop a run: each craft sells into lower buy orders", () => {
  // Cost 400 a craft. Bids: 2 at 600 (510 net), 1 at 500 (425), then 470 (399): a loss.
  const run = walkCrafts({
    count: 1,
    bids: { levels: [[600, 2], [500, 1], [470, 10]] },
    bestBid: 600,
    purchases: [],
    fixedCost: 400,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(run, { crafts: 3, totalProfit: 110 + 110 + 25, stop: "bids" });
});

Deno.test("bids that run out stop a run, and a recipe making 5 sells five units a craft", () => {
  // 12 units wanted in all: two crafts of 5, the third sells only 2.
  const run = walkCrafts({
    count: 5,
    bids: { levels: [[50, 12]] },
    bestBid: 50,
    purchases: [{ id: 1, count: 1, unit: 100, asks: plenty }],
    fixedCost: 50,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(run, { crafts: 2, totalProfit: 2 * (5 * 42 - 150), stop: "bids" });
});

Deno.test("an input's asks stop a run: listings that run out, or that rise past the profit", () => {
  const bids = { levels: [[500, 1_000]] as [number, number][] };
  // 5 threads a craft, 12 listed: the third craft cannot be bought.
  const short = walkCrafts({
    count: 1,
    bids,
    bestBid: 500,
    purchases: [{ id: 3, count: 5, unit: 30, asks: { levels: [[30, 12]] } }],
    fixedCost: 0,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(short, { crafts: 2, totalProfit: 2 * (425 - 150), stop: "asks" });
  // Listings climbing: 2 at 100, then 400 each; a craft takes 1 and sells for 425 − 10 fixed.
  const rising = walkCrafts({
    count: 1,
    bids,
    bestBid: 500,
    purchases: [{ id: 3, count: 1, unit: 100, asks: { levels: [[100, 2], [420, 50]] } }],
    fixedCost: 10,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(rising, { crafts: 2, totalProfit: 2 * 315, stop: "asks" });
  // A book kept in part goes on at its last price or above: no shortage, a lower bound.
  const kept = walkCrafts({
    count: 1,
    bids,
    bestBid: 500,
    purchases: [{ id: 3, count: 5, unit: 30, asks: { levels: [[30, 12]], more: true } }],
    fixedCost: 0,
    cap: 4,
  });
  assert.deepEqual(kept, { crafts: 4, totalProfit: 4 * 275, stop: "cap" });
});

Deno.test("a run stops at the cap; a daily craft at one", () => {
  const deep = { levels: [[600, 1_000_000]] as [number, number][] };
  const capped = walkCrafts({
    count: 1,
    bids: deep,
    bestBid: 600,
    purchases: [{ id: 1, count: 3, unit: 100, asks: plenty }],
    fixedCost: 0,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(capped, { crafts: 250, totalProfit: 250 * 210, stop: "cap" });
  const daily = walkCrafts({
    count: 1,
    bids: deep,
    bestBid: 600,
    purchases: [],
    fixedCost: 100,
    cap: 1,
    daily: true,
  });
  assert.deepEqual(daily, { crafts: 1, totalProfit: 410, stop: "daily" });
});

Deno.test("a book that could not be read: one craft at unit prices, flagged", () => {
  const run = walkCrafts({
    count: 1,
    bids: undefined,
    bestBid: 600,
    purchases: [{ id: 1, count: 3, unit: 100, asks: plenty }],
    fixedCost: 0,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(run, { crafts: 1, totalProfit: 210, stop: "cap", noDepth: true });
  const noAsks = walkCrafts({
    count: 1,
    bids: { levels: [[600, 9]] },
    bestBid: 600,
    purchases: [{ id: 1, count: 3, unit: 100, asks: undefined }],
    fixedCost: 0,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(noAsks, { crafts: 1, totalProfit: 210, stop: "cap", noDepth: true });
});

Deno.test("a first craft that loses at depth makes no run", () => {
  // 5 units a craft, 3 wanted at 50: the first craft sells only 3.
  const run = walkCrafts({
    count: 5,
    bids: { levels: [[50, 3]] },
    bestBid: 50,
    purchases: [],
    fixedCost: 150,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(run, { crafts: 0, totalProfit: 0, stop: "bids" });
});

Deno.test("a first craft that loses at depth names the side that moved from the unit prices", () => {
  // Plenty of bids at 600 (510 net); 5 units a craft, listed 1 at 80 then 200 each: 880 at depth
  // against 400 at the unit price. The asks rose, the bids did not move.
  const asks = walkCrafts({
    count: 1,
    bids: { levels: [[600, 1_000]] },
    bestBid: 600,
    purchases: [{ id: 1, count: 5, unit: 80, asks: { levels: [[80, 1], [200, 100]] } }],
    fixedCost: 0,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(asks, { crafts: 0, totalProfit: 0, stop: "asks" });
  // The other way round: the inputs as listed (600), the bids falling from 600 to 20 within one
  // craft of 5: 510 + 4 × 17 = 578.
  const bids = walkCrafts({
    count: 5,
    bids: { levels: [[600, 1], [20, 100]] },
    bestBid: 600,
    purchases: [{ id: 1, count: 5, unit: 120, asks: { levels: [[120, 1_000]] } }],
    fixedCost: 0,
    cap: MAX_CRAFTS,
  });
  assert.deepEqual(bids, { crafts: 0, totalProfit: 0, stop: "bids" });
});
