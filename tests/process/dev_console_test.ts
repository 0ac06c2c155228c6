import assert from "node:assert/strict";
import { createLogger, type LogRecord } from "../../src/log.ts";
import { devConsoleLine } from "../../src/process/dev_console.ts";

/** 14:05:09 on the local clock, whatever the machine's time zone. */
const TS = new Date(2026, 10, 29, 14, 5, 9).getTime();

function line(msg: string, fields: LogRecord["fields"], level: LogRecord["level"] = "info") {
  return devConsoleLine({ ts: TS, level, msg, fields });
}

Deno.test("devConsoleLine(): a tool call is its tool, outcome, time and upstream cost", () => {
  assert.equal(
    line("tool call", { tool: "gw2_items", ok: true, ms: 12, upstream: 1, hits: 0 }),
    "14:05:09  gw2_items                 ok          12 ms  1 upstream request, 0 cache hits",
  );
  assert.equal(
    line("tool call", { tool: "priory_recipe_tree", ok: true, ms: 183, upstream: 41, hits: 1 }),
    "14:05:09  priory_recipe_tree        ok         183 ms  41 upstream requests, 1 cache hit",
  );
  assert.equal(
    line("tool call", {
      tool: "gw2_prices",
      ok: true,
      ms: 3,
      upstream: 0,
      hits: 5,
      overlapped: true,
    }),
    "14:05:09  gw2_prices                ok           3 ms  0 upstream requests, 5 cache hits (counted with calls running beside it)",
  );
});

Deno.test("devConsoleLine(): a failed call names its failure, its level shown when not info", () => {
  assert.equal(
    line("tool call", {
      tool: "gw2_items",
      ok: false,
      failure: "upstream",
      reason: "timeout",
      ms: 14_002,
      upstream: 3,
      hits: 0,
    }),
    "14:05:09  gw2_items                 failed   14002 ms  3 upstream requests, 0 cache hits  upstream: timeout",
  );
  assert.equal(
    line("tool call", { tool: "priory_account", ok: false, failure: "missing_gw2_key", ms: 0 }),
    "14:05:09  priory_account            failed       0 ms  missing_gw2_key",
  );
  assert.equal(
    line("tool call", { tool: "gw2_items", ok: false, failure: "deadline", ms: 14500 }, "warn"),
    "14:05:09  WARN gw2_items                 failed   14500 ms  deadline",
  );
  assert.equal(
    line("tool call crashed", {
      tool: "gw2_items",
      ok: false,
      error: "TypeError: x is undefined",
      ms: 1,
    }, "error"),
    "14:05:09  ERROR gw2_items                 crashed      1 ms  TypeError: x is undefined",
  );
});

Deno.test("devConsoleLine(): a background job run is the job, its outcome, time and figures", () => {
  assert.equal(
    line("background job", { job: "prices", outcome: "ran", ids: 525, priced: 480, ms: 220 }),
    "14:05:09  job prices                ran        220 ms  ids=525 priced=480",
  );
  assert.equal(
    line(
      "background job",
      { job: "catalogue", outcome: "skipped", reason: "fresh", ms: 3 },
      "debug",
    ),
    "14:05:09  DEBUG job catalogue             skipped      3 ms  reason=fresh",
  );
  assert.equal(
    line(
      "background job failed",
      { job: "warm", error: "Gw2UpstreamError: timeout", ms: 120000 },
      "warn",
    ),
    '14:05:09  WARN job warm                  failed  120000 ms  error="Gw2UpstreamError: timeout"',
  );
});

Deno.test("devConsoleLine(): anything else is its message and name=value fields", () => {
  assert.equal(
    line("listening", { hostname: "127.0.0.1", port: 8000, mode: "dev" }),
    "14:05:09  listening  hostname=127.0.0.1 port=8000 mode=dev",
  );
  assert.equal(
    line("gw2 upstream", { endpoint: "/v2/items", ids: 3, status: 200, cause: undefined }, "debug"),
    "14:05:09  DEBUG gw2 upstream  endpoint=/v2/items ids=3 status=200",
  );
  assert.equal(
    line("name index loaded", {}),
    "14:05:09  name index loaded",
  );
  assert.equal(
    line("gw2 cache write failed", { kind: "items", detail: { n: 1 }, ok: null }, "warn"),
    '14:05:09  WARN gw2 cache write failed  kind=items detail={"n":1} ok=null',
  );
});

Deno.test("the dev console never prints a credential-named field", () => {
  const lines: string[] = [];
  const log = createLogger({
    level: "debug",
    format: devConsoleLine,
    write: (text) => lines.push(text),
  });
  log.info("tool call", {
    tool: "priory_account",
    ok: true,
    ms: 4,
    gw2Key: "SECRET-KEY-1",
    authorization: "Bearer SECRET-2",
  });
  log.info("listening", { port: 8000, token: "SECRET-3", apiKey: "SECRET-4" });
  assert.equal(lines.length, 2);
  for (const text of lines) assert.doesNotMatch(text, /SECRET/);
  assert.match(lines[1] ?? "", /listening {2}port=8000$/);
});
