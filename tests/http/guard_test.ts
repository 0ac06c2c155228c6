import assert from "node:assert/strict";
import {
  bearerToken,
  createGuard,
  hostMatcher,
  originAllowed,
  tokenMatches,
} from "../../src/http/guard.ts";
import { createLogger } from "../../src/log.ts";

const LOOPBACK_ORIGINS = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

Deno.test("originAllowed() matches exact origins and :* wildcards, never null", async (t) => {
  const cases: [string, readonly string[], boolean][] = [
    ["http://localhost:6274", LOOPBACK_ORIGINS, true],
    ["http://localhost", LOOPBACK_ORIGINS, true],
    ["http://LOCALHOST:3000", LOOPBACK_ORIGINS, true],
    ["http://[::1]:8080", LOOPBACK_ORIGINS, true],
    ["http://127.0.0.1:1", LOOPBACK_ORIGINS, true],
    ["https://localhost:6274", LOOPBACK_ORIGINS, false],
    ["http://localhost.evil.example", LOOPBACK_ORIGINS, false],
    ["http://127.0.0.2:80", LOOPBACK_ORIGINS, false],
    ["https://evil.example", LOOPBACK_ORIGINS, false],
    ["null", LOOPBACK_ORIGINS, false],
    ["not a url", LOOPBACK_ORIGINS, false],
    ["https://app.example", ["https://app.example"], true],
    ["https://app.example:443", ["https://app.example"], true],
    ["https://app.example:8443", ["https://app.example"], false],
    ["https://app.example", [], false],
  ];
  for (const [origin, allowed, expected] of cases) {
    await t.step(`${origin} against ${allowed.join(",") || "nothing"}`, () => {
      assert.equal(originAllowed(origin, allowed), expected);
    });
  }
});

Deno.test("hostMatcher() matches host:port exactly or a port-less entry by host", async (t) => {
  const cases: [string, readonly string[] | undefined, boolean][] = [
    ["localhost:8000", LOOPBACK_HOSTS, true],
    ["127.0.0.1", LOOPBACK_HOSTS, true],
    ["[::1]:8000", LOOPBACK_HOSTS, true],
    ["LOCALHOST:8000", LOOPBACK_HOSTS, true],
    ["evil.example", LOOPBACK_HOSTS, false],
    ["localhost.evil.example:8000", LOOPBACK_HOSTS, false],
    ["mcp.example:8443", ["mcp.example:443"], false],
    ["mcp.example:443", ["mcp.example:443"], true],
    ["anything.example", undefined, true],
  ];
  for (const [host, allowed, expected] of cases) {
    await t.step(`${host} against ${allowed?.join(",") ?? "any"}`, () => {
      assert.equal(hostMatcher(allowed)(host), expected);
    });
  }
});

Deno.test("bearerToken() reads a Bearer header, case-insensitive scheme, nothing else", () => {
  assert.equal(bearerToken("Bearer abc"), "abc");
  assert.equal(bearerToken("bearer abc"), "abc");
  assert.equal(bearerToken("Bearer   abc  "), "abc");
  assert.equal(bearerToken("Basic abc"), undefined);
  assert.equal(bearerToken("Bearer"), undefined);
  assert.equal(bearerToken("Bearer a b"), undefined);
  assert.equal(bearerToken(null), undefined);
});

Deno.test("tokenMatches() accepts only the exact token", () => {
  const expected = "s3cret-token";
  assert.equal(tokenMatches("s3cret-token", expected), true);
  // The expected token is cycled under a longer candidate: its repetition must still fail.
  assert.equal(tokenMatches("s3cret-tokens3cret-token", expected), false);
  assert.equal(tokenMatches("s3cret-token ", expected), false);
  assert.equal(tokenMatches("s3cret-toke", expected), false);
  assert.equal(tokenMatches("s3cret-tokem", expected), false);
  assert.equal(tokenMatches("S3cret-token", expected), false);
  assert.equal(tokenMatches("", expected), false);
  assert.equal(tokenMatches("", ""), false);
  assert.equal(tokenMatches("s3crét-token", "s3crét-token"), true);
  assert.equal(tokenMatches("s3crét-token", expected), false);
});

Deno.test("createGuard() logs each refusal's reason and never the token", () => {
  const lines: string[] = [];
  const log = createLogger({ level: "debug", write: (line) => lines.push(line) });
  const guard = createGuard(
    { authToken: "s3cret-token", allowedOrigins: LOOPBACK_ORIGINS, allowedHosts: LOOPBACK_HOSTS },
    log,
  );
  const request = (headers: Record<string, string>) =>
    new Request("http://localhost/mcp", { method: "POST", headers });
  assert.equal(guard(request({ authorization: "Bearer s3cret-token" })), undefined);
  assert.equal(guard(request({ authorization: "Bearer s3cret-tokem" }))?.status, 401);
  assert.equal(guard(request({}))?.status, 401);
  assert.equal(guard(request({ origin: "https://evil.example" }))?.status, 403);
  assert.equal(guard(request({ host: "evil.example" }))?.status, 403);
  const reasons = lines.map((line) => JSON.parse(line).reason);
  assert.deepEqual(reasons, ["wrong_token", "missing_token", "origin", "host"]);
  assert.ok(lines.every((line) => !line.includes("s3cret")));
});
