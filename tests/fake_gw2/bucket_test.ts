import assert from "node:assert/strict";
import { ManualClock } from "../support/clock.ts";
import { errorBody, get } from "./_support.ts";
import { TokenBucket } from "./bucket.ts";
import { createFakeGw2 } from "./mod.ts";

Deno.test("TokenBucket takes tokens up to the burst and refills continuously", async (t) => {
  const clock = new ManualClock();
  const bucket = new TokenBucket(3, 2, () => clock.now());
  await t.step("the burst is available at once", () => {
    assert.deepEqual([bucket.take(), bucket.take(), bucket.take(), bucket.take()], [
      true,
      true,
      true,
      false,
    ]);
  });
  await t.step("half a second refills one token at 2/s", () => {
    clock.advance(499);
    assert.equal(bucket.take(), false);
    clock.advance(1);
    assert.equal(bucket.take(), true);
    assert.equal(bucket.take(), false);
  });
  await t.step("refill stops at the burst", () => {
    clock.advance(60_000);
    assert.equal(bucket.tokens, 3);
  });
  await t.step("fill() restores the burst", () => {
    bucket.take();
    bucket.take();
    bucket.fill();
    assert.equal(bucket.tokens, 3);
  });
  await t.step("invalid settings are refused", () => {
    assert.throws(() => new TokenBucket(0, 5, () => 0), RangeError);
    assert.throws(() => new TokenBucket(10, -1, () => 0), RangeError);
    assert.throws(() => new TokenBucket(Number.NaN, 5, () => 0), RangeError);
  });
});

Deno.test("fake.fetch() answers 429 after the default burst of 300 and refills at 5/s", async () => {
  const clock = new ManualClock();
  const fake = createFakeGw2({ now: () => clock.now() });
  for (let index = 0; index < 300; index++) {
    const got = await get(fake, "/v2/items/19721");
    assert.equal(got.status, 200, `request ${index}`);
  }
  const limited = await get(fake, "/v2/items/19721");
  assert.equal(limited.status, 429);
  assert.equal(limited.text, errorBody("too many requests"));
  assert.equal(limited.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(limited.headers.get("x-rate-limit-limit"), "600");
  clock.advance(200);
  assert.equal((await get(fake, "/v2/items/19721")).status, 200, "one token after 200 ms");
  assert.equal((await get(fake, "/v2/items/19721")).status, 429);
  clock.advance(60_000);
  for (let index = 0; index < 300; index++) await get(fake, "/v2/materials");
  assert.equal((await get(fake, "/v2/materials")).status, 429, "refilled to 300, not more");
  assert.equal(fake.control.requests.filter((entry) => entry.status === 429).length, 3);
});

Deno.test("fake.fetch() spends one token per request, whatever the answer", async () => {
  const clock = new ManualClock();
  const fake = createFakeGw2({ rateBurst: 3, ratePerSec: 1, now: () => clock.now() });
  assert.equal((await get(fake, "/v2/nothing")).status, 404);
  assert.equal((await get(fake, "/v2/account")).status, 401);
  fake.control.injectFault("server_error");
  assert.equal((await get(fake, "/v2/items")).status, 500);
  assert.equal((await get(fake, "/v2/items")).status, 429);
  clock.advance(1_000);
  assert.equal((await get(fake, "/v2/items/19721")).status, 200);
});

Deno.test("createFakeGw2() gives every instance its own bucket", async () => {
  const first = createFakeGw2({ rateBurst: 1, ratePerSec: 0 });
  const second = createFakeGw2({ rateBurst: 1, ratePerSec: 0 });
  assert.equal((await get(first, "/v2/items/19721")).status, 200);
  assert.equal((await get(first, "/v2/items/19721")).status, 429);
  assert.equal((await get(second, "/v2/items/19721")).status, 200);
  assert.throws(() => createFakeGw2({ rateBurst: 0 }), RangeError);
});
