import assert from "node:assert/strict";
import { walkSells } from "../../src/market/order_book.ts";

// Figures worked by hand: units × price per level, lowest level first.

Deno.test("walkSells() within the first level is lowest listing × count", () => {
  assert.deepEqual(walkSells([[2_797, 500], [2_800, 1_000]], 250), { total: 699_250 });
  assert.deepEqual(walkSells([[2_797, 250]], 250), { total: 699_250 }, "exactly the level");
  assert.deepEqual(walkSells([[2_797, 250]], 0), { total: 0 });
});

Deno.test("walkSells() climbs the levels from the lowest price up", () => {
  // 100 × 10 + 50 × 12 + 30 × 15 = 1,000 + 600 + 450.
  assert.deepEqual(walkSells([[10, 100], [12, 50], [15, 80], [40, 1_000]], 180), {
    total: 2_050,
  });
});

Deno.test("walkSells() of a short book prices the missing units at the highest listed price", () => {
  // 3 × 1,000,000 + 2 × 1,300,000, then 4 missing × 1,300,000.
  assert.deepEqual(walkSells([[1_000_000, 3], [1_300_000, 2]], 9), {
    total: 3_000_000 + 2_600_000 + 5_200_000,
    short: 4,
  });
});

Deno.test("walkSells() of a book kept in part prices units past it at its last level, not short", () => {
  assert.deepEqual(walkSells([[10, 100], [12, 50]], 200, true), { total: 1_000 + 600 + 50 * 12 });
  assert.deepEqual(walkSells([[10, 100], [12, 50]], 120, true), { total: 1_000 + 240 });
});

Deno.test("walkSells() of an empty sell side is undefined: nothing can be bought, never 0", () => {
  assert.equal(walkSells([], 5), undefined);
  assert.equal(walkSells([], 5, true), undefined);
});
