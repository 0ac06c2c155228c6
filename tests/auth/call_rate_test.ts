/** Each player's rate of tool calls: a burst, then the sustained rate; players never share one. */

import assert from "node:assert/strict";
import { CallRate } from "../../src/auth/call_rate.ts";
import { ManualClock } from "../support/clock.ts";

Deno.test("CallRate admits a burst per player, then says how long to wait", () => {
  const clock = new ManualClock();
  const rate = new CallRate({ burst: 3, perMinute: 60, clock });
  assert.deepEqual([1, 2, 3].map(() => rate.take("a", 1)), [0, 0, 0]);
  assert.equal(rate.take("a", 1), 1_000, "one call a second: the next in 1 s");
  assert.equal(rate.take("b", 1), 0, "another player has a bucket of their own");
  clock.advance(1_000);
  assert.equal(rate.take("a", 1), 0);
  assert.equal(rate.take("a", 2), 2_000, "a refused take takes nothing");
});

Deno.test("CallRate charges a batch for every call in it: a batch larger than the burst is no way past the rate", () => {
  const clock = new ManualClock();
  const rate = new CallRate({ burst: 3, perMinute: 60, clock });
  assert.equal(rate.take("a", 10), 0, "a full bucket admits a batch larger than the burst");
  assert.equal(rate.take("a", 1), 8_000, "which costs all ten calls: 7 owed, then this one");
  clock.advance(8_000);
  assert.equal(rate.take("a", 1), 0);
  assert.equal(rate.take("a", 10), 3_000, "a batch waits for a full bucket, no longer");
});

Deno.test("CallRate forgets refilled players past its bound and keeps the busy ones", () => {
  const clock = new ManualClock();
  const rate = new CallRate({ burst: 2, perMinute: 60, clock, maxTracked: 2 });
  rate.take("old", 2);
  clock.advance(10_000);
  rate.take("busy", 2);
  rate.take("new", 1);
  assert.equal(rate.take("busy", 1), 1_000, "the busy player was not forgotten");
});
