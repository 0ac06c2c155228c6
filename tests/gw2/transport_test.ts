import assert from "node:assert/strict";
import { startDeadline } from "../../src/async/deadline.ts";
import {
  Gw2KeyRejectedError,
  Gw2RateLimitedError,
  Gw2UpstreamError,
} from "../../src/gw2/errors.ts";
import { backoffMs } from "../../src/gw2/response.ts";
import { encodeQueryValue, SCHEMA_VERSION, Transport } from "../../src/gw2/transport.ts";
import { TokenBucket } from "../../src/gw2/token_bucket.ts";
import { Counters } from "../../src/metrics.ts";
import { openMemoryKv } from "../support/kv.ts";
import {
  afterReactions,
  ManualClock,
  settleOnClock,
  track,
  until,
  within,
} from "../support/clock.ts";
import { captureLogs, logRecords } from "../support/log.ts";
import { jsonAnswer, type Script, scriptedFetch, streamedJson, withTimeouts } from "./_support.ts";

const KEY = "ABCDEF01-2345-6789-ABCD-EF0123456789ABCDEF01-2345-6789-ABCD-EF0123456789";
const ok: Script = () => jsonAnswer(200, [{ id: 1 }]);
/** The work deadline of a default tool call: 15 s less the answer margin of `server.ts`. */
const CALL_WORK_MS = 14_000;

async function setup(
  script: Script[],
  rate = { burst: 100, perSec: 5 },
  clock = new ManualClock({ advance: "delays" }),
  giveWay?: () => Promise<void>,
) {
  const kv = await openMemoryKv();
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
    ...(giveWay === undefined ? {} : { giveWay }),
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

Deno.test("Transport.request() of a background client starts only once giveWay lets it (no call in flight); a joinable page at once", async () => {
  const clear = Promise.withResolvers<void>();
  let asked = 0;
  using env = await setup([ok, ok], undefined, undefined, () => {
    asked++;
    return clear.promise;
  });
  const answer = env.transport.request(items(3));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual([asked, env.calls.length], [1, 0], "asked, then waits: nothing sent");
  // A page a call may have joined (the recipe fill, the sheet) is never held back.
  const page = await env.transport.request({ ...items(1), joinable: true });
  assert.equal(page.kind, "ok");
  assert.deepEqual([asked, env.calls.length], [1, 1], "sent at once, giveWay not asked");
  clear.resolve();
  assert.equal((await answer).kind, "ok");
  assert.equal(env.calls.length, 2);
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

// The deadline tests below move the clock only themselves. `settleOnClock` would also move it
// while the bucket's KV answers — on a loaded machine by seconds, enough to leave no room for a
// retry. So work that needs no timer is awaited as it is (`within`: guarded against a hang), and
// a timer the outcome needs is fired by the test once the attempt it bounds has been sent.

/** Rejects nothing: the request's outcome as a value, so it can be awaited without a catch. */
function outcome<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return promise.then((value) => ({ value }), (error: unknown) => ({ error }));
}

Deno.test("Transport.request() under a call's deadline: a hang answers a timeout at the deadline", async () => {
  using env = await setup([() => "hang"]);
  using deadline = startDeadline(env.clock, CALL_WORK_MS);
  const started = env.clock.now();
  const request = track(outcome(env.transport.request(items(), deadline)));
  await until(() => env.calls.length === 1 || request.settled, "the first attempt");
  env.clock.advance(10_000); // its timeout
  await until(() => env.calls.length === 2 || request.settled, "the retry");
  assert.equal(request.settled, false, "a retry fits: 4 s are left");
  env.clock.advance(started + CALL_WORK_MS - env.clock.now()); // the deadline cuts it
  const settled = await within(request.promise, "the answer at the deadline");
  assert.ok("error" in settled && settled.error instanceof Gw2UpstreamError);
  assert.equal(settled.error.reason, "timeout");
  assert.equal(env.calls.length, 2);
  assert.equal(env.clock.now() - started, CALL_WORK_MS);
  assert.equal(env.clock.pendingSleeps, 0, "no timer left behind");
});

Deno.test("Transport.request() under a call's deadline: a 429 storm answers rate limited in time", async (t) => {
  await t.step("429 without Retry-After: three attempts, then rate limited", async () => {
    using env = await setup([() => jsonAnswer(429, { text: "too many requests" })]);
    using deadline = startDeadline(env.clock, CALL_WORK_MS);
    const started = env.clock.now();
    const settled = await within(outcome(env.transport.request(items(), deadline)), "the storm");
    assert.ok("error" in settled && settled.error instanceof Gw2RateLimitedError);
    assert.equal(env.calls.length, 3);
    // Two backoffs, and the refills the drained bucket needed: under 2 s, all of it pauses.
    const backoffs = [backoffMs(1, () => 0.5), backoffMs(2, () => 0.5)];
    assert.ok(backoffs.every((ms) => env.clock.delays.includes(ms)), `${env.clock.delays}`);
    assert.equal(env.clock.now() - started, env.clock.delayed);
    assert.ok(env.clock.delayed < 2_000, `${env.clock.delayed} ms`);
  });
  await t.step("a Retry-After the deadline cannot wait for is answered at once", async () => {
    using env = await setup([() => jsonAnswer(429, {}, { "retry-after": "14" })]);
    using deadline = startDeadline(env.clock, CALL_WORK_MS);
    const started = env.clock.now();
    const settled = await within(outcome(env.transport.request(items(), deadline)), "the answer");
    assert.ok("error" in settled && settled.error instanceof Gw2RateLimitedError);
    assert.equal(settled.error.retryAfterMs, 14_000);
    assert.equal(env.clock.now() - started, 0, "at once: the clock never moved");
    assert.equal(env.calls.length, 1);
  });
  await t.step("a Retry-After that fits is waited for once, then answered", async () => {
    using env = await setup([() => jsonAnswer(429, {}, { "retry-after": "8" })]);
    using deadline = startDeadline(env.clock, CALL_WORK_MS);
    const started = env.clock.now();
    const settled = await within(outcome(env.transport.request(items(), deadline)), "the answer");
    assert.ok("error" in settled && settled.error instanceof Gw2RateLimitedError);
    assert.equal(settled.error.retryAfterMs, 8_000);
    assert.equal(env.calls.length, 2, "retried once after 8 s; a second 8 s would not fit");
    assert.equal(env.clock.now() - started, 8_000, "one 8 s wait, not two");
  });
});

Deno.test("Transport.request() under a call's deadline: an empty shared bucket", async (t) => {
  await t.step("a refill the deadline cannot wait for is refused at once", async () => {
    using env = await setup([ok], { burst: 1, perSec: 0.05 });
    await env.transport.request(items());
    using deadline = startDeadline(env.clock, CALL_WORK_MS);
    const started = env.clock.now();
    const settled = await within(outcome(env.transport.request(items(), deadline)), "the answer");
    assert.ok("error" in settled && settled.error instanceof Gw2RateLimitedError);
    assert.ok(settled.error.retryAfterMs > 19_000);
    assert.equal(env.clock.now() - started, 0, "at once: the clock never moved");
    assert.equal(env.calls.length, 1, "the refused request never left");
  });
  await t.step("a refill that fits is waited for", async () => {
    using env = await setup([ok], { burst: 1, perSec: 0.2 });
    await env.transport.request(items());
    using deadline = startDeadline(env.clock, CALL_WORK_MS);
    const started = env.clock.now();
    const settled = await within(outcome(env.transport.request(items(), deadline)), "the answer");
    assert.ok("value" in settled);
    // One wait for the refill: 5 s at 0.2/s (plus the bucket's jitter), then the request.
    assert.equal(env.clock.delays.length, 1, `${env.clock.delays}`);
    assert.ok(env.clock.now() - started >= 5_000, `${env.clock.now() - started} ms`);
    assert.equal(env.clock.now() - started, env.clock.delayed);
    assert.equal(env.calls.length, 2);
  });
});

Deno.test("Transport.request() under a call's deadline: a slow upstream answers or times out in time", async (t) => {
  const slow = (ms: number, clock: ManualClock): Script => async (_url, init) => {
    await clock.timer(ms, init.signal ?? new AbortController().signal);
    return jsonAnswer(200, [{ id: 1 }]);
  };
  await t.step("3 s: the answer", async () => {
    const clock = new ManualClock({ advance: "delays" });
    using env = await setup([slow(3_000, clock)], undefined, clock);
    using deadline = startDeadline(clock, CALL_WORK_MS);
    const request = track(outcome(env.transport.request(items(), deadline)));
    await until(() => env.calls.length === 1 || request.settled, "the attempt");
    clock.advance(2_999);
    await afterReactions();
    assert.equal(request.settled, false, "1 ms before upstream answers");
    clock.advance(1);
    const settled = await within(request.promise, "the answer");
    assert.ok("value" in settled, "the answer after 3 s, within the first attempt");
    assert.equal(env.calls.length, 1);
  });
  await t.step("12 s: a timeout at the deadline, after one retry", async () => {
    const clock = new ManualClock({ advance: "delays" });
    using env = await setup([slow(12_000, clock)], undefined, clock);
    using deadline = startDeadline(clock, CALL_WORK_MS);
    const started = clock.now();
    const request = track(outcome(env.transport.request(items(), deadline)));
    await until(() => env.calls.length === 1 || request.settled, "the first attempt");
    clock.advance(10_000); // its timeout, before upstream's 12 s
    await until(() => env.calls.length === 2 || request.settled, "the retry");
    clock.advance(started + CALL_WORK_MS - clock.now()); // the deadline cuts it
    const settled = await within(request.promise, "the answer at the deadline");
    assert.ok("error" in settled && settled.error instanceof Gw2UpstreamError);
    assert.equal(settled.error.reason, "timeout");
    assert.equal(clock.now() - started, CALL_WORK_MS);
    assert.equal(env.calls.length, 2);
  });
});

Deno.test("Transport.request() does not start a retry the deadline leaves no time for", async () => {
  using env = await setup([() => jsonAnswer(500, { text: "ErrInternal" })]);
  using deadline = startDeadline(env.clock, 1_100);
  const settled = await settleOnClock(env.transport.request(items(), deadline), env.clock);
  assert.ok(!settled.ok && settled.error instanceof Gw2UpstreamError);
  assert.equal(settled.error.reason, "server_error");
  assert.equal(env.calls.length, 1, "1.1 s left minus a 125–250 ms backoff is under 1 s");
});

Deno.test("Transport.request() logs why a connection was lost, without the URL", async () => {
  using env = await setup([() => {
    throw new TypeError("error sending request for url (http://gw2.test/v2/items?ids=1,2,3)", {
      cause: new Error("tcp connect error: Connection refused (os error 111)"),
    });
  }]);
  await assert.rejects(env.transport.request(items()), { reason: "network" });
  const [record] = logRecords(env.lines, "gw2 upstream");
  assert.equal(record?.status, 0);
  assert.equal(
    record?.cause,
    "TypeError: error sending request for url (<url>) (cause: Error: tcp connect error: Connection refused (os error 111))",
  );
  assert.ok(env.lines.every((line) => !line.includes("gw2.test") && !line.includes("ids=")));
});

Deno.test("Transport.request() reports a budget it cannot read as a storage failure", async () => {
  const env = await setup([ok]);
  env.kv.close();
  await assert.rejects(env.transport.request(items()), { kind: "storage" });
  assert.equal(env.calls.length, 0);
  const [line] = logRecords(env.lines, "gw2 budget unavailable");
  assert.match(String(line?.error), /^\w+: \S/, "the KV error, named");
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

Deno.test("Transport.request() with maxBytes reads no more of a body than that: past it too_large, not retried; a declared length past it is not read at all", async () => {
  const maxBytes = 1024 * 1024;
  const huge = streamedJson(24 * 1024 * 1024);
  const declared = streamedJson(4 * 1024 * 1024);
  const small = streamedJson(maxBytes - 10);
  using env = await setup([
    () => new Response(huge.body, { headers: { "content-type": "application/json" } }),
    () =>
      new Response(declared.body, {
        headers: { "content-type": "application/json", "content-length": String(4 << 20) },
      }),
    () => new Response(small.body, { headers: { "content-type": "application/json" } }),
  ]);
  await assert.rejects(env.transport.request({ ...items(), maxBytes }), {
    kind: "upstream",
    reason: "too_large",
    status: 200,
  });
  assert.ok(huge.pulled() <= maxBytes + 128 * 1024, `read ${huge.pulled()} bytes`);
  assert.equal(env.calls.length, 1, "not retried");
  await assert.rejects(env.transport.request({ ...items(), maxBytes }), { reason: "too_large" });
  assert.equal(declared.pulled(), 0, "a Content-Length past the bound: nothing read");
  const answer = await env.transport.request({ ...items(), maxBytes });
  assert.deepEqual(answer.kind === "ok" && answer.json, []);
  assert.match(env.lines[0] ?? "", /"outcome":"too_large"/);
});
