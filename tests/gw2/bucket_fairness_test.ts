/**
 * The shared budget between players: takes that wait in one process are handed tokens fairly by
 * whom they are for (`Deadline.owners`), so one player's flood of reads cannot starve the others.
 */

import assert from "node:assert/strict";
import { TokenBucket } from "../../src/gw2/token_bucket.ts";
import { ManualClock } from "../support/clock.ts";
import { openMemoryKv } from "../support/kv.ts";

/** Lets every reaction of the last clock move run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 30; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("TokenBucket hands waiting players tokens in turn: 20 greedy takes do not go before 5 others", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  // One token every 100 ms, none in hand.
  const bucket = new TokenBucket({
    kv,
    key: ["fair"],
    burst: 1,
    perSec: 10,
    clock,
    random: () => 0,
  });
  assert.equal((await bucket.tryTake()).admitted, true);
  const order: string[] = [];
  const take = (owner: string) =>
    bucket.take(60_000, undefined, undefined, () => [owner]).then((result) => {
      assert.equal(result.admitted, true);
      order.push(owner);
    });
  const greedy = Array.from({ length: 20 }, () => take("greedy"));
  await settle();
  const others = ["p1", "p2", "p3", "p4", "p5"].map(take);
  await settle();
  while (order.length < 25) {
    clock.advance(100);
    await settle();
  }
  await Promise.all([...greedy, ...others]);
  // The greedy player's first take went first (it came first); then every other player got the
  // next token, one each, before the greedy one's second.
  assert.deepEqual(order.slice(0, 7), ["greedy", "p1", "p2", "p3", "p4", "p5", "greedy"]);
  assert.equal(order.filter((owner) => owner === "greedy").length, 20);
});

Deno.test("TokenBucket serves takes for nobody in particular first come, first served", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const bucket = new TokenBucket({
    kv,
    key: ["fifo"],
    burst: 1,
    perSec: 10,
    clock,
    random: () => 0,
  });
  await bucket.tryTake();
  const order: number[] = [];
  const takes = [0, 1, 2, 3].map(async (n) => {
    await new Promise((resolve) => setTimeout(resolve, n));
    const result = await bucket.take(60_000);
    if (result.admitted) order.push(n);
  });
  await settle();
  while (order.length < 4) {
    clock.advance(100);
    await settle();
  }
  await Promise.all(takes);
  assert.deepEqual(order, [0, 1, 2, 3]);
});
