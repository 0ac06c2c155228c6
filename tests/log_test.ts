import assert from "node:assert/strict";
import { createLogger, describeError } from "../src/log.ts";

function capture(level: "debug" | "info" | "warn" | "error") {
  const lines: string[] = [];
  const log = createLogger({ level, write: (line) => lines.push(line), now: () => 0 });
  return { log, lines };
}

Deno.test("createLogger() writes one JSON object per line with ts, level, msg and fields", () => {
  const { log, lines } = capture("info");
  log.info("listening", { port: 8000 });
  assert.deepEqual(lines.map((line) => JSON.parse(line)), [
    { ts: "1970-01-01T00:00:00.000Z", level: "info", msg: "listening", port: 8000 },
  ]);
});

Deno.test("createLogger() drops lines below the level", () => {
  const { log, lines } = capture("warn");
  log.debug("a");
  log.info("b");
  log.warn("c");
  log.error("d");
  assert.deepEqual(lines.map((line) => JSON.parse(line).msg), ["c", "d"]);
});

Deno.test("createLogger() drops fields named like credentials and never overrides ts/level/msg", () => {
  const { log, lines } = capture("debug");
  log.info("request", {
    apiKey: "secret-1",
    authorization: "Bearer secret-2",
    token: "secret-3",
    client_secret: "secret-4",
    level: "forged",
    endpoint: "/v2/items",
  });
  assert.equal(lines.length, 1);
  assert.doesNotMatch(lines[0] ?? "", /secret|forged/);
  assert.deepEqual(JSON.parse(lines[0] ?? "{}"), {
    ts: "1970-01-01T00:00:00.000Z",
    level: "info",
    msg: "request",
    endpoint: "/v2/items",
  });
});

Deno.test("describeError() gives name and message, never a stack", () => {
  const error = new TypeError("database is locked");
  assert.equal(describeError(error), "TypeError: database is locked");
  assert.equal(describeError("a thrown string with details"), "thrown string");
  assert.equal(describeError(undefined), "thrown undefined");
});
