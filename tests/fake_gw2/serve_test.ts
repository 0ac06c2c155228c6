import assert from "node:assert/strict";
import { ManualClock } from "../support/clock.ts";
import { asArray, asRecord, consume, errorBody } from "./_support.ts";
import { startFakeGw2, TEST_KEYS } from "./mod.ts";

async function control(url: string, method: string, path: string, body?: unknown) {
  const init: RequestInit = body === undefined
    ? { method }
    : { method, body: typeof body === "string" ? body : JSON.stringify(body) };
  return await consume(await fetch(`${url}/__control${path}`, init));
}

Deno.test("startFakeGw2() listens on 127.0.0.1, port 0 by default, and serves the API", async () => {
  await using fake = await startFakeGw2();
  assert.match(fake.url, /^http:\/\/127\.0\.0\.1:\d+$/u);
  const got = await consume(await fetch(`${fake.url}/v2/items?ids=19721,1`));
  assert.equal(got.status, 206);
  assert.equal(got.headers.get("x-result-count"), "1");
  assert.equal(got.headers.get("content-type"), "application/json; charset=utf-8");
  const inProcess = await consume(await fake.fetch("/v2/items?ids=19721,1"));
  assert.equal(got.text, inProcess.text);
  const account = await consume(
    await fetch(`${fake.url}/v2/account`, {
      headers: { Authorization: `Bearer ${TEST_KEYS.full}` },
    }),
  );
  assert.equal(account.status, 200);
  assert.equal(fake.control.requests.length, 3);
  assert.equal(fake.control.requests[2]?.keyLabel, "full");
});

Deno.test("startFakeGw2() serves the /__control route as JSON", async (t) => {
  await using fake = await startFakeGw2();
  await t.step("a fault queued over HTTP applies", async () => {
    const queued = await control(fake.url, "POST", "/fault", {
      fault: "not_active",
      endpoint: "/v2/items",
      times: "infinite",
    });
    assert.equal(queued.status, 200);
    assert.deepEqual(asRecord(queued.body).faults, [
      { fault: "not_active", endpoint: "/v2/items", remaining: "infinite" },
    ]);
    const got = await consume(await fetch(`${fake.url}/v2/items/19721`));
    assert.equal(got.status, 503);
    assert.equal(got.text, errorBody("API not active"));
    assert.equal((await consume(await fetch(`${fake.url}/v2/materials`))).status, 200);
  });
  await t.step("DELETE /faults clears them", async () => {
    const cleared = await control(fake.url, "DELETE", "/faults");
    assert.deepEqual(asRecord(cleared.body).faults, []);
    assert.equal((await consume(await fetch(`${fake.url}/v2/items/19721`))).status, 200);
  });
  await t.step("latency is set and reported", async () => {
    const set = await control(fake.url, "POST", "/latency", { ms: 0, endpoint: "/v2/recipes" });
    assert.deepEqual(asRecord(set.body).latency, { global: 0, endpoints: { "/v2/recipes": 0 } });
  });
  await t.step("GET /requests lists the log; control calls are not logged", async () => {
    const log = await control(fake.url, "GET", "/requests");
    assert.deepEqual(asArray(log.body).map((entry) => asRecord(entry).status), [503, 200, 200]);
    assert.equal(asRecord(asArray(log.body)[0]).keyLabel, null);
  });
  await t.step(
    "POST /book makes a book huge: a listings request naming it answers 502",
    async () => {
      const set = await control(fake.url, "POST", "/book", { id: 19721, state: "huge" });
      assert.deepEqual(asRecord(set.body).books, { 19721: "huge" });
      const huge = await consume(await fetch(`${fake.url}/v2/commerce/listings?ids=19721,19976`));
      assert.equal(huge.status, 502);
      assert.match(huge.text, /^<html>/u);
      const other = await consume(await fetch(`${fake.url}/v2/commerce/listings?id=19976&top=1`));
      assert.equal(other.status, 200);
      assert.equal((JSON.parse(other.text) as { sells: unknown[] }).sells.length, 1);
      assert.equal(
        (await control(fake.url, "POST", "/book", { id: 19721, state: "big" })).status,
        400,
      );
    },
  );
  await t.step("POST /modified moves the account's last play", async () => {
    const at = "2026-12-01T07:00:00Z";
    const set = await control(fake.url, "POST", "/modified", { at });
    assert.equal(asRecord(set.body).lastModified, at);
    assert.equal(fake.control.lastModified, at);
    assert.equal((await control(fake.url, "POST", "/modified", { at: "soon" })).status, 400);
  });
  await t.step("POST /reset clears the log and refills the bucket", async () => {
    const reset = await control(fake.url, "POST", "/reset");
    assert.deepEqual(asRecord(reset.body), {
      latency: { global: 0, endpoints: {} },
      faults: [],
      books: {},
      lastModified: null,
      requests: 0,
      bucketTokens: 300,
    });
    assert.deepEqual(fake.control.requests, []);
  });
  await t.step("bad bodies are 400 and unknown routes 404", async () => {
    const badFault = await control(fake.url, "POST", "/fault", { fault: "explode" });
    assert.equal(badFault.status, 400);
    assert.match(String(asRecord(badFault.body).text), /expected one of server_error/u);
    assert.equal((await control(fake.url, "POST", "/latency", "{nope")).status, 400);
    assert.equal((await control(fake.url, "POST", "/latency", { ms: -5 })).status, 400);
    assert.equal(
      (await control(fake.url, "POST", "/fault", { fault: "hang", times: 0 })).status,
      400,
    );
    assert.equal((await control(fake.url, "GET", "/nope")).status, 404);
    assert.equal((await control(fake.url, "GET", "")).status, 200);
  });
});

Deno.test("startFakeGw2() lets a hang settle when the client aborts", async () => {
  await using fake = await startFakeGw2();
  fake.control.injectFault("hang");
  const controller = new AbortController();
  const pending = fetch(`${fake.url}/v2/items/19721`, { signal: controller.signal });
  await fake.control.waitForRequests(1);
  controller.abort();
  await assert.rejects(pending, (error: unknown) => {
    assert.ok(error instanceof DOMException);
    assert.equal(error.name, "AbortError");
    return true;
  });
  assert.equal(fake.control.requests[0]?.status, 0);
});

Deno.test("RunningFakeGw2.close() drops hanging connections and stops listening", async () => {
  const fake = await startFakeGw2();
  fake.control.injectFault("hang", { times: 2 });
  // Handlers attached up front: both settle during close(), before the asserts are reached.
  const served = assert.rejects(
    fetch(`${fake.url}/v2/items/19721`).then((response) => response.text()),
    TypeError,
  );
  const inProcess = assert.rejects(fake.fetch("/v2/items/19721"), TypeError);
  await fake.control.waitForRequests(2);
  await fake.close();
  await served;
  await inProcess;
  await fake.close();
  await assert.rejects(fetch(`${fake.url}/v2/items/19721`), TypeError);
});

Deno.test("startFakeGw2() applies latency on the injected sleep", async () => {
  const clock = new ManualClock();
  await using fake = await startFakeGw2({ sleep: (ms, signal) => clock.sleep(ms, signal) });
  fake.control.setLatency(100, "/v2/items");
  const pending = fetch(`${fake.url}/v2/items/19721`);
  await fake.control.waitForRequests(1);
  for (let turn = 0; turn < 1_000 && clock.pendingSleeps === 0; turn++) await Promise.resolve();
  assert.equal(clock.pendingSleeps, 1);
  clock.advance(100);
  const got = await consume(await pending);
  assert.equal(got.status, 200);
  assert.deepEqual(clock.sleeps, [100]);
});
