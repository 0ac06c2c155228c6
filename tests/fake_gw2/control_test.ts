import assert from "node:assert/strict";
import { ManualClock } from "../support/clock.ts";
import { bearer, errorBody, get } from "./_support.ts";
import { FakeGw2Instance } from "./fake.ts";
import { createFakeGw2, type FakeFault, TEST_KEYS } from "./mod.ts";
import { FakeClosedError } from "./waits.ts";

/** Lets the fake's pending microtasks run until `condition` holds (no timers involved). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (condition()) return;
    await Promise.resolve();
  }
  throw new Error("Condition not reached: the fake did not get there");
}

function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  promise.then(() => done = true, () => done = true);
  return { promise, settled: () => done };
}

Deno.test("control.injectFault() answers each fault as upstream fails", async (t) => {
  const fake = createFakeGw2({ rateBurst: Infinity });
  const answer = async (fault: FakeFault) => {
    fake.control.injectFault(fault);
    return await get(fake, "/v2/items?ids=19721,19675");
  };
  await t.step("server_error: JSON 500 ErrInternal", async () => {
    const got = await answer("server_error");
    assert.equal(got.status, 500);
    assert.equal(got.text, errorBody("ErrInternal"));
    assert.equal(got.headers.get("content-type"), "application/json; charset=utf-8");
  });
  await t.step("html_503: the HTML shutdown page", async () => {
    const got = await answer("html_503");
    assert.equal(got.status, 503);
    assert.equal(got.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(got.text, /^<h1>Status Code 503<\/h1><p>.+<\/p>$/u);
    assert.equal(got.body, undefined, "not JSON");
  });
  await t.step("not_active: JSON 503 API not active", async () => {
    const got = await answer("not_active");
    assert.equal(got.status, 503);
    assert.equal(got.text, errorBody("API not active"));
    assert.equal(got.text.length, 30, "the captured Content-Length");
  });
  await t.step("rate_limited: 429 too many requests", async () => {
    const got = await answer("rate_limited");
    assert.equal(got.status, 429);
    assert.equal(got.text, errorBody("too many requests"));
  });
  await t.step("invalid_key: 401 Invalid access token (a key deleted meanwhile)", async () => {
    const got = await answer("invalid_key");
    assert.equal(got.status, 401);
    assert.equal(got.text, errorBody("Invalid access token"));
  });
  await t.step("truncated_json: 200 JSON cut in the middle of the real body", async () => {
    const real = await get(fake, "/v2/items?ids=19721,19675");
    const got = await answer("truncated_json");
    assert.equal(got.status, 200);
    assert.equal(got.headers.get("content-type"), "application/json; charset=utf-8");
    assert.ok(got.text.length > 10 && got.text.length < real.text.length);
    assert.ok(real.text.startsWith(got.text));
    assert.throws(() => JSON.parse(got.text), SyntaxError);
  });
  await t.step("after the fault the real answer returns", async () => {
    assert.equal((await get(fake, "/v2/items?ids=19721,19675")).status, 200);
  });
});

Deno.test("control.injectFault() honours times, endpoint and clearFaults()", async (t) => {
  const fake = createFakeGw2({ rateBurst: Infinity });
  await t.step("times counts matching requests only", async () => {
    fake.control.injectFault("server_error", { endpoint: "/v2/items", times: 2 });
    assert.equal((await get(fake, "/v2/recipes/21")).status, 200);
    assert.equal((await get(fake, "/v2/items/19721")).status, 500, "canonical match");
    assert.equal((await get(fake, "/v2/items?ids=19721")).status, 500);
    assert.equal((await get(fake, "/v2/items/19721")).status, 200);
  });
  await t.step("an exact path or a templated endpoint matches", async () => {
    fake.control.injectFault("not_active", { endpoint: "/v2/items/19721/" });
    assert.equal((await get(fake, "/v2/items/19675")).status, 200);
    assert.equal((await get(fake, "/v2/items/19721")).status, 503);
    fake.control.injectFault("not_active", { endpoint: "/v2/characters/:name/inventory" });
    const got = await get(
      fake,
      "/v2/characters/Nyx%20Shadowstep/inventory",
      bearer(TEST_KEYS.full),
    );
    assert.equal(got.status, 503);
  });
  await t.step("Infinity lasts until clearFaults(); faults queue in order", async () => {
    fake.control.injectFault("rate_limited", { times: Infinity });
    fake.control.injectFault("server_error");
    for (let index = 0; index < 5; index++) {
      assert.equal((await get(fake, "/v2/materials")).status, 429);
    }
    fake.control.clearFaults();
    assert.equal((await get(fake, "/v2/materials")).status, 200);
  });
  await t.step("invalid faults, counts and endpoints are refused", () => {
    // A cast on purpose: callers outside TypeScript (the control route) can send any string.
    assert.throws(() => fake.control.injectFault("nope" as FakeFault), TypeError);
    assert.throws(() => fake.control.injectFault("hang", { times: 0 }), RangeError);
    assert.throws(() => fake.control.injectFault("hang", { times: 1.5 }), RangeError);
    assert.throws(() => fake.control.injectFault("hang", { endpoint: "v2/items" }), TypeError);
    assert.throws(() => fake.control.setLatency(-1), RangeError);
    assert.throws(() => fake.control.setLatency(Infinity), RangeError);
  });
});

Deno.test("control.injectFault('hang') settles only when the request's signal aborts", async () => {
  const fake = createFakeGw2();
  fake.control.injectFault("hang");
  const controller = new AbortController();
  const pending = tracked(
    fake.fetch(new Request("http://gw2.test/v2/items/19721", { signal: controller.signal })),
  );
  await until(() => fake.control.requests.length === 1);
  for (let turn = 0; turn < 100; turn++) await Promise.resolve();
  assert.equal(pending.settled(), false);
  assert.equal(fake.control.requests[0]?.status, 0, "a hang logs status 0");
  controller.abort();
  await assert.rejects(pending.promise, (error: unknown) => {
    assert.ok(error instanceof DOMException);
    assert.equal(error.name, "AbortError");
    return true;
  });
  assert.equal((await get(fake, "/v2/items/19721")).status, 200, "only one request hung");
});

Deno.test("FakeGw2Instance.close() settles hangs and latency with FakeClosedError", async () => {
  const clock = new ManualClock();
  const fake = new FakeGw2Instance({ sleep: (ms, signal) => clock.sleep(ms, signal) });
  fake.control.injectFault("hang");
  const hanging = fake.fetch("/v2/items/19721");
  fake.control.setLatency(1_000);
  const slow = fake.fetch("/v2/items/19721");
  await until(() => clock.pendingSleeps === 1);
  fake.close();
  await assert.rejects(hanging, FakeClosedError);
  await assert.rejects(slow, FakeClosedError);
  assert.equal(clock.pendingSleeps, 0);
  await assert.rejects(fake.fetch("/v2/items/19721"), FakeClosedError, "waits fail after close");
});

Deno.test("control.setLatency() delays answers, globally or per endpoint", async (t) => {
  const clock = new ManualClock();
  const fake = createFakeGw2({
    rateBurst: Infinity,
    sleep: (ms, signal) => clock.sleep(ms, signal),
  });
  await t.step("the answer waits for the latency", async () => {
    fake.control.setLatency(250);
    const pending = tracked(fake.fetch("/v2/items/19721"));
    await until(() => clock.pendingSleeps === 1);
    clock.advance(249);
    for (let turn = 0; turn < 100; turn++) await Promise.resolve();
    assert.equal(pending.settled(), false);
    clock.advance(1);
    assert.equal((await pending.promise).status, 200);
    assert.deepEqual(clock.sleeps, [250]);
  });
  await t.step("an endpoint's latency overrides the global one", async () => {
    fake.control.setLatency(100);
    fake.control.setLatency(500, "/v2/items");
    fake.control.setLatency(0, "/v2/materials");
    const items = fake.fetch("/v2/items/19721");
    await until(() => clock.pendingSleeps === 1);
    clock.advance(500);
    await (await items).body?.cancel();
    const recipes = fake.fetch("/v2/recipes/21");
    await until(() => clock.pendingSleeps === 1);
    clock.advance(100);
    await (await recipes).body?.cancel();
    await (await fake.fetch("/v2/materials")).body?.cancel();
    assert.deepEqual(clock.sleeps, [250, 500, 100]);
  });
  await t.step("an aborted request stops waiting", async () => {
    const controller = new AbortController();
    const pending = fake.fetch(
      new Request("http://gw2.test/v2/items/1", { signal: controller.signal }),
    );
    await until(() => clock.pendingSleeps === 1);
    controller.abort();
    await assert.rejects(pending, (error: unknown) => error instanceof DOMException);
    assert.equal(clock.pendingSleeps, 0);
  });
});

Deno.test("control.setLatency() with real timers answers and leaves no timer on abort", async () => {
  const fake = createFakeGw2();
  fake.control.setLatency(1);
  assert.equal((await get(fake, "/v2/items/19721")).status, 200);
  fake.control.setLatency(60_000);
  const controller = new AbortController();
  const pending = fake.fetch(
    new Request("http://gw2.test/v2/items/19721", { signal: controller.signal }),
  );
  await until(() => fake.control.requests.length === 2);
  controller.abort();
  await assert.rejects(pending, (error: unknown) => error instanceof DOMException);
  // The op sanitizer fails this test if the 60 s timer survived.
});

Deno.test("control.requests logs each request without the key", async () => {
  const fake = createFakeGw2();
  await get(fake, "/v2/items?ids=1,2,19721&lang=en");
  await get(fake, `/v2/account/bank?v=latest&access_token=${TEST_KEYS.noWallet}`);
  await get(fake, "/v2/account/wallet", bearer(TEST_KEYS.noWallet));
  await get(fake, "/v2/materials?ids=all", bearer(TEST_KEYS.full));
  assert.ok(fake.control.requests.every((request) => typeof request.at === "number"));
  assert.deepEqual(fake.control.requests.map(({ at: _at, ...request }) => request), [
    {
      method: "GET",
      path: "/v2/items",
      query: "ids=1,2,19721&lang=en",
      idCount: 3,
      status: 206,
      keyLabel: undefined,
    },
    {
      method: "GET",
      path: "/v2/account/bank",
      query: "v=latest",
      idCount: 0,
      status: 200,
      keyLabel: "noWallet",
    },
    {
      method: "GET",
      path: "/v2/account/wallet",
      query: "",
      idCount: 0,
      status: 403,
      keyLabel: "noWallet",
    },
    {
      method: "GET",
      path: "/v2/materials",
      query: "ids=all",
      idCount: 0,
      status: 200,
      keyLabel: "full",
    },
  ]);
  const serialized = JSON.stringify(fake.control.requests);
  for (const key of Object.values(TEST_KEYS)) assert.ok(!serialized.includes(key));
  assert.ok(Object.isFrozen(fake.control.requests));
});

Deno.test("control.reset() clears log, faults and latency and refills the bucket", async () => {
  const clock = new ManualClock();
  const fake = createFakeGw2({
    rateBurst: 2,
    ratePerSec: 0,
    sleep: (ms, signal) => clock.sleep(ms, signal),
  });
  fake.control.injectFault("server_error", { times: Infinity });
  fake.control.setLatency(10);
  fake.control.setLatency(10, "/v2/items");
  const first = fake.fetch("/v2/items/19721");
  await until(() => clock.pendingSleeps === 1);
  clock.advance(10);
  const faulted = await first;
  await faulted.body?.cancel();
  assert.equal(faulted.status, 500);
  fake.control.reset();
  assert.deepEqual(fake.control.requests, []);
  const got = await get(fake, "/v2/items/19721");
  assert.equal(got.status, 200, "no fault, no latency");
  assert.equal((await get(fake, "/v2/items/19721")).status, 200, "bucket refilled to 2");
  assert.equal((await get(fake, "/v2/items/19721")).status, 429);
  assert.equal(clock.sleeps.length, 1);
});
