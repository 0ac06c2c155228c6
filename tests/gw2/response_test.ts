import assert from "node:assert/strict";
import {
  Gw2KeyRejectedError,
  Gw2RateLimitedError,
  Gw2ScopeMissingError,
  Gw2UpstreamError,
} from "../../src/gw2/errors.ts";
import {
  backoffMs,
  canServeStale,
  type Classified,
  classifyAnswer,
  parseRetryAfter,
  type RawAnswer,
} from "../../src/gw2/response.ts";

const NOW = Date.UTC(2026, 10, 29);
const JSON_TYPE = "application/json; charset=utf-8";

function answer(status: number, body: string, extra: Partial<RawAnswer> = {}): RawAnswer {
  return { status, contentType: JSON_TYPE, body, retryAfter: null, ...extra };
}

function classify(raw: RawAnswer, scope = "inventories"): Classified {
  return classifyAnswer(raw, scope, NOW);
}

function failureOf(classified: Classified) {
  assert.equal(classified.kind, "failure");
  if (classified.kind !== "failure") throw new Error("unreachable");
  return classified;
}

Deno.test("classifyAnswer() reads successes", async (t) => {
  await t.step("200 and 206 carry their JSON", () => {
    assert.deepEqual(classify(answer(200, '[{"id":1}]')), {
      kind: "ok",
      status: 200,
      json: [{ id: 1 }],
    });
    assert.deepEqual(classify(answer(206, "[]")), { kind: "ok", status: 206, json: [] });
  });
  await t.step("a JSON null is a value, not a parse failure", () => {
    assert.deepEqual(classify(answer(200, "null")), { kind: "ok", status: 200, json: null });
  });
  await t.step("truncated JSON and HTML are malformed, not retried", () => {
    for (const raw of [answer(200, '[{"id":1,"na'), answer(200, "<html>hi</html>")]) {
      const failure = failureOf(classify(raw));
      assert.ok(failure.error instanceof Gw2UpstreamError);
      assert.equal(failure.error.reason, "malformed");
      assert.equal(failure.retry, false);
    }
  });
});

Deno.test("classifyAnswer() reads 404s", () => {
  assert.deepEqual(classify(answer(404, '{\n  "text": "all ids provided are invalid"\n}')), {
    kind: "not_found",
    allIdsInvalid: true,
  });
  assert.deepEqual(classify(answer(404, '{"text":"no such id"}')), {
    kind: "not_found",
    allIdsInvalid: false,
  });
  assert.deepEqual(classify(answer(404, '{"error":"not found"}')), {
    kind: "not_found",
    allIdsInvalid: false,
  });
});

Deno.test("classifyAnswer() maps auth failures", async (t) => {
  await t.step("401 is a rejected key", () => {
    const failure = failureOf(classify(answer(401, '{"text":"Invalid access token"}')));
    assert.ok(failure.error instanceof Gw2KeyRejectedError);
    assert.equal(failure.retry, false);
  });
  await t.step("403 requires scope X names X", () => {
    const failure = failureOf(classify(answer(403, '{"text":"requires scope wallet"}')));
    assert.ok(failure.error instanceof Gw2ScopeMissingError);
    assert.equal(failure.error.scope, "wallet");
  });
  await t.step("403 with an unreadable body names the endpoint's fallback scope", () => {
    const failure = failureOf(classify(answer(403, "Forbidden", { contentType: "text/plain" })));
    assert.ok(failure.error instanceof Gw2ScopeMissingError);
    assert.equal(failure.error.scope, "inventories");
  });
  await t.step("403 invalid key (older API) is a rejected key", () => {
    const failure = failureOf(classify(answer(403, '{"text":"invalid key"}')));
    assert.ok(failure.error instanceof Gw2KeyRejectedError);
  });
});

Deno.test("classifyAnswer() maps upstream trouble with the right retry decision", async (t) => {
  const cases: [string, RawAnswer, string, boolean][] = [
    ["500 JSON", answer(500, '{"text":"ErrInternal"}'), "server_error", true],
    [
      "502 non-JSON",
      answer(502, "Bad Gateway", { contentType: "text/plain" }),
      "server_error",
      true,
    ],
    ["504 empty", answer(504, "", { contentType: "" }), "server_error", true],
    ["503 JSON other", answer(503, '{"text":"busy"}'), "server_error", true],
    ["503 API not active", answer(503, '{\n  "text": "API not active"\n}'), "not_active", false],
    [
      "503 HTML",
      answer(503, "<h1>Status Code 503</h1>", { contentType: "text/html; charset=utf-8" }),
      "disabled",
      false,
    ],
    ["400 ErrBadData", answer(400, '{"text":"ErrBadData"}'), "server_error", true],
    ["400 other", answer(400, '{"text":"id list too long"}'), "unexpected_status", false],
    ["408", answer(408, ""), "timeout", true],
    ["418", answer(418, "{}"), "unexpected_status", false],
  ];
  for (const [name, raw, reason, retry] of cases) {
    await t.step(name, () => {
      const failure = failureOf(classify(raw));
      assert.ok(failure.error instanceof Gw2UpstreamError);
      assert.equal(failure.error.reason, reason);
      assert.equal(failure.error.status, raw.status);
      assert.equal(failure.retry, retry);
    });
  }
});

Deno.test("classifyAnswer() treats 429 as rate limited, retryable, with Retry-After", () => {
  const plain = failureOf(classify(answer(429, '{"text":"too many requests"}')));
  assert.ok(plain.error instanceof Gw2RateLimitedError);
  assert.equal(plain.retry, true);
  assert.equal(plain.retryAfterMs, undefined);
  const hinted = failureOf(classify(answer(429, "{}", { retryAfter: "3" })));
  assert.equal(hinted.retryAfterMs, 3000);
  assert.ok(hinted.error instanceof Gw2RateLimitedError);
  assert.equal(hinted.error.retryAfterMs, 3000);
});

Deno.test("parseRetryAfter() reads seconds and HTTP dates", () => {
  assert.equal(parseRetryAfter("2", NOW), 2000);
  assert.equal(parseRetryAfter(new Date(NOW + 5000).toUTCString(), NOW), 5000);
  assert.equal(parseRetryAfter(new Date(NOW - 5000).toUTCString(), NOW), 0);
  assert.equal(parseRetryAfter(null, NOW), undefined);
  assert.equal(parseRetryAfter("soon", NOW), undefined);
});

Deno.test("backoffMs() doubles per retry, jitters within the upper half, and caps", () => {
  assert.deepEqual([1, 2, 3, 4].map((retry) => backoffMs(retry, () => 0)), [125, 250, 500, 1000]);
  assert.deepEqual([1, 2, 3, 4].map((retry) => backoffMs(retry, () => 1)), [250, 500, 1000, 2000]);
  assert.equal(backoffMs(20, () => 1), 8000);
  assert.equal(backoffMs(20, () => 0), 4000);
});

Deno.test("canServeStale() allows outages only", () => {
  assert.equal(canServeStale(new Gw2UpstreamError("timeout")), true);
  assert.equal(canServeStale(new Gw2RateLimitedError(1000)), true);
  assert.equal(canServeStale(new Gw2KeyRejectedError()), false);
  assert.equal(canServeStale(new Gw2ScopeMissingError("wallet")), false);
});
