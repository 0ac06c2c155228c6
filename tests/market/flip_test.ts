import assert from "node:assert/strict";
import { flipMargin } from "../../src/market/flip.ts";

// The contract's figure: floor((sell − 1) × 0.85) − (buy + 1), worked by hand.

Deno.test("flipMargin() outbids by 1c, undercuts by 1c and pays the 15 % fee", () => {
  // floor(199 × 0.85) = floor(169.15) = 169; 169 − 101 = 68.
  assert.equal(flipMargin(100, 200), 68);
  // Mystic Coin-like: floor(20_999 × 0.85) = floor(17_849.15) = 17_849; − 17_001 = 848.
  assert.equal(flipMargin(17_000, 21_000), 848);
  // floor(99 × 0.85) = floor(84.15) = 84; never rounded up by float error.
  assert.equal(flipMargin(10, 100), 84 - 11);
});

Deno.test("flipMargin() is negative when the spread does not pay the fee", () => {
  // floor(104 × 0.85) = 88; 88 − 101 = −13.
  assert.equal(flipMargin(100, 105), -13);
});

Deno.test("flipMargin() is null when a side of the book is empty", () => {
  assert.equal(flipMargin(0, 500), null, "no buy order to outbid");
  assert.equal(flipMargin(100, 0), null, "no listing to undercut");
  assert.equal(flipMargin(100, 1), null, "a 1c listing cannot be undercut");
});
