import assert from "node:assert/strict";
import {
  Gw2KeyRejectedError,
  Gw2RateLimitedError,
  Gw2UpstreamError,
} from "../../src/gw2/errors.ts";
import { backoffMs } from "../../src/gw2/response.ts";
import { encodeQueryValue, SCHEMA_VERSION, Transport } from "../../src/gw2/transport.ts";
import { TokenBucket } from "../../src/kv/token_bucket.ts";
import { Counters } from "../../src/metrics.ts";
import { openMemoryKv } from "../support/kv.ts";
import { ManualClock } from "../support/clock.ts";
import { captureLogs, logRecords } from "../support/log.ts";
import { jsonAnswer, type Script, scriptedFetch, withTimeouts } from "./_support.ts";

const KEY = "ABCDEF01-2345-6789-ABCD-EF0123456789ABCDEF01-2345-6789-ABCD-EF0123456789";
const ok: Script = () => jsonAnswer(200, [{ id: 1 }]);

async function setup(script: Script[], rate = { burst: 100, perSec: 5 }) {
  const kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const { log, lines } = captureLogs(clock);
  const counters = new Counters();
  const random = () => 0.5;
  const bucket = new TokenBucket({ kv, key: ["bucket"], ...rate, clock, random });
  const { fetch, calls } = scriptedFetch(...script);
  const transport = new Transport({
    baseUrl: "http://gw2.test",
    fetch,
    clock,
    log,
    bucket,
    counters,
    timeoutMs: 10_000,
    maxRetries: 2,
    maxRateWaitMs: 10_000,
    random,
  });
  return {
    kv,
    clock,
    lines,
    counters,
    calls,
    transport,
    bucket,
    [Symbol.dispose]: () => kv.close(),
  };
}

const items = (count = 3) => ({
  endpoint: "/v2/items",
  path: "/v2/items",
  query: [["ids", Array.from({ length: count }, (_, index) => index + 1).join(",")]] as const,
  idCount: count,
});

Deno.test("Transport.request() sends ids with literal commas, the pinned schema and no key in the URL", async () => {
  using env = await setup([ok]);
  const answer = await env.transport.request({ ...items(3), key: KEY });
  assert.deepEqual(answer, { kind: "ok", status: 200, json: [{ id: 1 }] });
  const [call] = env.calls;
  assert.ok(call);
  assert.equal(call.url.pathname, "/v2/items");
  assert.equal(call.url.search, `?ids=1,2,3&v=${encodeURIComponent(SCHEMA_VERSION)}`);
  assert.equal(call.headers.get("x-schema-version"), SCHEMA_VERSION);
  assert.equal(call.headers.get("authorization"), `Bearer ${KEY}`);
  assert.ok(!call.url.href.includes(KEY));
  assert.equal(env.counters.snapshot().upstreamRequests, 1);
  assert.equal(encodeQueryValue("a b,c"), "a%20b,c");
});

Deno.test("Transport.request() retries a 500 and serves the following 200", async () => {
  using env = await setup([() => jsonAnswer(500, { text: "ErrInternal" }), ok]);
  const answer = await env.transport.request(items());
  assert.equal(answer.kind, "ok");
  assert.equal(env.calls.length, 2);
  assert.deepEqual(env.clock.delays, [backoffMs(1, () => 0.5)]);
  const stats = env.counters.snapshot();
  assert.deepEqual([stats.upstreamRequests, stats.upstreamErrors, stats.upstreamRetries], [
    2,
    1,
    1,
  ]);
  const records = logRecords(env.lines, "gw2 upstream");
  assert.deepEqual(
    records.map((record) => [record.attempt, record.status, record.outcome, record.retry]),
    [
      [1, 500, "server_error", true],
      [2, 200, "ok", false],
    ],
  );
});

Deno.test("Transport.request() retries 502/504 without JSON bodies, then gives up with server_error", async () => {
  using env = await setup([
    () => new Response("Bad Gateway", { status: 502 }),
    () => new Response("", { status: 504 }),
  ]);
  await assert.rejects(env.transport.request(items()), (error) => {
    assert.ok(error instanceof Gw2UpstreamError);
    assert.equal(error.reason, "server_error");
    assert.equal(error.status, 504);
    return true;
  });
  assert.equal(env.calls.length, 3, "first attempt plus two retries");
  assert.deepEqual(env.clock.delays, [backoffMs(1, () => 0.5), backoffMs(2, () => 0.5)]);
});

Deno.test("Transport.request() does not retry API not active, nor an HTML 503", async (t) => {
  await t.step("not_active", async () => {
    using env = await setup([() => jsonAnswer(503, { text: "API not active" })]);
    await assert.rejects(env.transport.request(items()), { reason: "not_active" });
    assert.equal(env.calls.length, 1);
  });
  await t.step("disabled", async () => {
    using env = await setup([() =>
      new Response("<h1>Status Code 503</h1>", {
        status: 503,
        headers: { "content-type": "text/html; charset=utf-8" },
      })]);
    await assert.rejects(env.transport.request(items()), { reason: "disabled" });
    assert.equal(env.calls.length, 1);
  });
});

Deno.test("Transport.request() turns a truncated body into a malformed failure", async () => {
  using env = await setup([
    () =>
      new Response('[{"id":1,"name":"Glob', { headers: { "content-type": "application/json" } }),
  ]);
  await assert.rejects(env.transport.request(items()), { reason: "malformed", status: 200 });
  assert.equal(env.calls.length, 1);
});

Deno.test("Transport.request() retries network errors, then fails with network", async () => {
  using env = await setup([() => "fail"]);
  await assert.rejects(env.transport.request(items()), { reason: "network" });
  assert.equal(env.calls.length, 3);
});

Deno.test("Transport.request() times out a hanging request on the clock and settles the fetch", async () => {
  using env = await setup([() => "hang"]);
  const start = env.clock.now();
  await assert.rejects(withTimeouts(env.transport.request(items()), env.clock, 10_000, 3), {
    reason: "timeout",
  });
  assert.equal(env.calls.length, 3);
  const elapsed = env.clock.now() - start;
  assert.equal(elapsed, 3 * 10_000 + env.clock.delayed, "three timeouts plus the backoff");
  assert.equal(env.clock.pendingSleeps, 0);
});

Deno.test("Transport.request() recovers when a retry after a timeout answers", async () => {
  using env = await setup([() => "hang", ok]);
  const answer = await withTimeouts(env.transport.request(items()), env.clock, 10_000, 1);
  assert.equal(answer.kind, "ok");
  assert.deepEqual(
    logRecords(env.lines, "gw2 upstream").map((record) => record.outcome),
    ["timeout", "ok"],
  );
});

Deno.test("Transport.request() honours a 429's Retry-After and empties the shared bucket", async () => {
  using env = await setup([
    () => jsonAnswer(429, { text: "too many requests" }, { "retry-after": "2" }),
    ok,
  ]);
  const answer = await env.transport.request(items());
  assert.equal(answer.kind, "ok");
  assert.equal(env.clock.delays[0], 2000);
  // Drained to 0 at the 429, refilled 5/s × 2 s during the wait, minus the retry's token.
  assert.equal(await env.bucket.level(), 9);
});

Deno.test("Transport.request() fails rate limited when 429 persists or asks for too long", async (t) => {
  await t.step("persisting 429", async () => {
    using env = await setup([() => jsonAnswer(429, { text: "too many requests" })]);
    await assert.rejects(env.transport.request(items()), Gw2RateLimitedError);
    assert.equal(env.calls.length, 3);
  });
  await t.step("Retry-After beyond the bound", async () => {
    using env = await setup([() => jsonAnswer(429, {}, { "retry-after": "60" })]);
    await assert.rejects(env.transport.request(items()), (error) => {
      assert.ok(error instanceof Gw2RateLimitedError);
      assert.equal(error.retryAfterMs, 60_000);
      return true;
    });
    assert.equal(env.calls.length, 1);
  });
});

Deno.test("Transport.request() spends one token per attempt and refuses when the bucket stays empty", async () => {
  using env = await setup([() => jsonAnswer(500, {}), ok], { burst: 2, perSec: 0.05 });
  await env.transport.request(items());
  assert.ok((await env.bucket.level()) < 1, "the retry spent the second token");
  await assert.rejects(env.transport.request(items()), (error) => {
    assert.ok(error instanceof Gw2RateLimitedError);
    assert.ok(error.retryAfterMs > 10_000);
    return true;
  });
  assert.equal(env.calls.length, 2, "the refused request never left");
  assert.equal(env.counters.snapshot().bucketRefusals, 1);
});

Deno.test("Transport.request() rejects an unusable key before spending a token", async () => {
  using env = await setup([ok]);
  for (const key of ["", "abc\ndef", "key with space"]) {
    await assert.rejects(env.transport.request({ ...items(), key }), Gw2KeyRejectedError);
  }
  assert.equal(env.calls.length, 0);
  assert.equal(env.counters.snapshot().upstreamRequests, 0);
});

Deno.test("Transport.request() maps 401 and 403 without retrying, and logs no key", async () => {
  using env = await setup([
    () => jsonAnswer(401, { text: "Invalid access token" }),
    () => jsonAnswer(403, { text: "requires scope wallet" }),
  ]);
  await assert.rejects(env.transport.request({ ...items(), key: KEY }), { kind: "key_rejected" });
  await assert.rejects(
    env.transport.request({ ...items(), key: KEY, fallbackScope: "inventories" }),
    { kind: "scope_missing", scope: "wallet" },
  );
  assert.equal(env.calls.length, 2);
  assert.equal(env.lines.length, 2);
  for (const line of env.lines) assert.ok(!line.includes(KEY) && !line.includes(KEY.slice(0, 36)));
});
