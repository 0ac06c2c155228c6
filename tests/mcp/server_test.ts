import assert from "node:assert/strict";
import { z } from "zod";
import { Gw2RateLimitedError } from "../../src/gw2/errors.ts";
import { createLogger } from "../../src/log.ts";
import type { Notification } from "@modelcontextprotocol/server";
import {
  callTool,
  createMcpServer,
  SERVER_CAPABILITIES,
  serveToolCall,
} from "../../src/mcp/server.ts";
import { gw2Items } from "../../src/tools/gw2_items.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "../../src/tools/types.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

function capture() {
  const lines: string[] = [];
  return { lines, log: createLogger({ level: "debug", write: (line) => lines.push(line) }) };
}

Deno.test("callTool() returns structuredContent and the same JSON, compact, as one text block", async () => {
  const { log } = capture();
  const result = await callTool(gw2Items, { ids: [19721] }, { gw2: new StubGw2Client(), log });
  assert.equal(result.isError, undefined);
  assert.equal(result.content.length, 1);
  const [block] = result.content;
  assert.equal(block?.type, "text");
  const text = block?.type === "text" ? block.text : "";
  assert.deepEqual(JSON.parse(text), result.structuredContent);
  assert.equal(text, JSON.stringify(result.structuredContent));
  assert.doesNotMatch(text, /\n/);
});

Deno.test("callTool() turns a failure into isError with one text block and no structuredContent", async () => {
  const gw2 = new StubGw2Client();
  gw2.failWith = new Gw2RateLimitedError(5_000);
  const { lines, log } = capture();
  const result = await callTool(gw2Items, { ids: [19721] }, { gw2, log });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent, undefined);
  assert.equal(result.content.length, 1);
  const [block] = result.content;
  assert.match(block?.type === "text" ? block.text : "", /^Rate limited: .*Retry in 5 s/);
  assert.deepEqual(JSON.parse(lines.at(-1) ?? "{}").failure, "rate_limited");
});

Deno.test("callTool() reports an unexpected throw as an internal error and logs no stack", async () => {
  const gw2 = new StubGw2Client();
  gw2.failWith = new TypeError("boom at file:///work/main/src/x.ts:1:1");
  const { lines, log } = capture();
  const result = await callTool(gw2Items, { ids: [19721] }, { gw2, log });
  assert.equal(result.isError, true);
  const [block] = result.content;
  const text = block?.type === "text" ? block.text : "";
  assert.match(text, /^Internal error: /);
  assert.doesNotMatch(text, /boom|file:/);
  const line = JSON.parse(lines.at(-1) ?? "{}");
  assert.equal(line.level, "error");
  assert.equal(line.error, "TypeError: boom at file:///work/main/src/x.ts:1:1");
  assert.equal(line.stack, undefined);
});

Deno.test("callTool() passes the request's GW2 key to the handler and never returns or logs it", async () => {
  const key = "ABCDEF01-2345-6789-ABCD-EF0123456789ABCDEF01-2345-6789-ABCD-EF0123456789";
  const seen: string[] = [];
  const probe = defineTool({
    name: "priory_probe",
    title: "Probe",
    description: "Priory-computed: test probe.",
    inputSchema: z.strictObject({}),
    outputSchema: z.object({ ok: z.boolean() }),
    annotations: UPSTREAM_READ,
    handle(_input, deps) {
      seen.push(requireGw2Key(deps));
      return Promise.resolve({ ok: true });
    },
  });
  const { lines, log } = capture();
  const withKey = await callTool(probe, {}, { gw2: new StubGw2Client(), log, gw2Key: key });
  const withoutKey = await callTool(probe, {}, { gw2: new StubGw2Client(), log });
  assert.deepEqual(seen, [key]);
  assert.deepEqual(withKey.structuredContent, { ok: true });
  assert.equal(withoutKey.isError, true);
  const [block] = withoutKey.content;
  assert.match(block?.type === "text" ? block.text : "", /X-GW2-Key/);
  for (const text of [JSON.stringify(withKey), JSON.stringify(withoutKey), ...lines]) {
    assert.ok(!text.includes(key), "the key appears nowhere");
  }
});

Deno.test("createMcpServer() registers every tool of the registry", () => {
  const { log } = capture();
  const server = createMcpServer(TOOLS, { gw2: new StubGw2Client(), log });
  for (const tool of TOOLS) {
    assert.ok(server.toolInputSchemaJson(tool.name), tool.name);
  }
  assert.deepEqual(SERVER_CAPABILITIES, { tools: { listChanged: false } });
});

/** A tool that reports progress twice, if it was given a reporter, and says whether it was. */
const reporting = defineTool({
  name: "priory_reporting",
  title: "Reporting",
  description: "Priory-computed: test tool",
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ reported: z.boolean() }),
  annotations: UPSTREAM_READ,
  handle(_input, deps) {
    deps.progress?.report("half way");
    deps.progress?.report("done");
    return Promise.resolve({ reported: deps.progress !== undefined });
  },
});

Deno.test("serveToolCall() delivers every progress notification before it returns the result", async () => {
  const { log } = capture();
  const events: string[] = [];
  // A slow transport: each notification is delivered a few turns after it is sent.
  const notify = async (notification: Notification) => {
    for (let turn = 0; turn < 3; turn++) await Promise.resolve();
    events.push(`${notification.params?.progress}: ${notification.params?.message}`);
  };
  const result = await serveToolCall(reporting, {}, { gw2: new StubGw2Client(), log }, {
    _meta: { progressToken: "t-1" },
    notify,
  });
  events.push("result");
  assert.deepEqual(events, ["1: half way", "2: done", "result"]);
  assert.deepEqual(result.structuredContent, { reported: true });

  const quiet = await serveToolCall(reporting, {}, { gw2: new StubGw2Client(), log }, {
    notify: () => Promise.reject(new Error("nothing may be sent without a token")),
  });
  assert.deepEqual(quiet.structuredContent, { reported: false });
});
