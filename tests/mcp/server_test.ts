import assert from "node:assert/strict";
import { z } from "zod";
import { Foreground } from "../../src/async/foreground.ts";
import { Gw2RateLimitedError } from "../../src/gw2/errors.ts";
import { createLogger } from "../../src/log.ts";
import { MarketSheets } from "../../src/market/sheets.ts";
import { SheetStore } from "../../src/market/sheet_store.ts";
import { CallMeter, Counters } from "../../src/metrics.ts";
import type { Notification } from "@modelcontextprotocol/server";
import { callTool, createMcpServer, serveToolCall } from "../../src/mcp/server.ts";
import { gw2Items } from "../../src/tools/gw2_items.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import { defineTool, requireGw2Key, type ToolDeps, UPSTREAM_READ } from "../../src/tools/types.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";
import { connectClient, createTestHandler } from "../support/app.ts";
import { ManualClock, settleOnClock } from "../support/clock.ts";

function capture() {
  const lines: string[] = [];
  return { lines, log: createLogger({ level: "debug", write: (line) => lines.push(line) }) };
}

/** A tool whose handler runs `body` with its deps. */
function probeTool(
  body: (deps: ToolDeps) => Promise<{ ok: boolean }>,
  deadlineMs?: number,
) {
  return defineTool({
    name: "priory_probe",
    title: "Probe",
    description: "Priory-computed: test probe.",
    inputSchema: z.strictObject({}),
    outputSchema: z.object({ ok: z.boolean() }),
    annotations: UPSTREAM_READ,
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    handle: (_input, deps) => body(deps),
  });
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
  const probe = probeTool((deps) => {
    seen.push(requireGw2Key(deps));
    return Promise.resolve({ ok: true });
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

Deno.test("callTool() marks the process's foreground busy while the call runs, success or failure", async () => {
  const foreground = new Foreground();
  const seen: boolean[] = [];
  const probe = probeTool(() => {
    seen.push(foreground.busy);
    return Promise.resolve({ ok: true });
  });
  const failing = probeTool(() => {
    seen.push(foreground.busy);
    return Promise.reject(new Error("boom"));
  });
  const { log } = capture();
  await callTool(probe, {}, { gw2: new StubGw2Client(), log, foreground });
  assert.equal(foreground.busy, false, "left once answered");
  await callTool(failing, {}, { gw2: new StubGw2Client(), log, foreground });
  assert.deepEqual(seen, [true, true], "background work gives way to both");
  assert.equal(foreground.busy, false, "left after a failure too");
});

Deno.test("callTool() logs each call once: a success at debug by default, with its cost when metered", async () => {
  const counters = new Counters();
  // The handler's reads, as the client would count them.
  const tool = probeTool(() => {
    counters.add("upstreamRequests", 2);
    counters.add("cacheHits", 7);
    return Promise.resolve({ ok: true });
  });
  const plain = capture();
  await callTool(tool, {}, { gw2: new StubGw2Client(), log: plain.log });
  const [quiet] = plain.lines.map((line) => JSON.parse(line));
  assert.equal(plain.lines.length, 1);
  assert.deepEqual([quiet.level, quiet.msg, quiet.tool, quiet.ok], [
    "debug",
    "tool call",
    "priory_probe",
    true,
  ]);
  assert.equal(quiet.upstream, undefined, "no meter, no cost");

  const dev = capture();
  const callLog = {
    successLevel: "info",
    meter: new CallMeter(() => counters.snapshot()),
  } as const;
  await callTool(tool, {}, { gw2: new StubGw2Client(), log: dev.log, callLog });
  const failing = probeTool(() => {
    counters.add("upstreamRequests");
    return Promise.reject(new Gw2RateLimitedError(1_000));
  });
  await callTool(failing, {}, { gw2: new StubGw2Client(), log: dev.log, callLog });
  const records = dev.lines.map((line) => JSON.parse(line));
  assert.deepEqual(
    records.map(({ level, msg, ok, upstream, hits, failure }) => ({
      level,
      msg,
      ok,
      upstream,
      hits,
      failure,
    })),
    [
      { level: "info", msg: "tool call", ok: true, upstream: 2, hits: 7, failure: undefined },
      { level: "info", msg: "tool call", ok: false, upstream: 1, hits: 0, failure: "rate_limited" },
    ],
  );
  assert.ok(
    records.every((record) => typeof record.ms === "number" && record.overlapped === undefined),
  );
});

Deno.test("createMcpServer() registers every tool of the registry", () => {
  const { log } = capture();
  const server = createMcpServer(TOOLS, { gw2: new StubGw2Client(), log });
  for (const tool of TOOLS) {
    assert.ok(server.toolInputSchemaJson(tool.name), tool.name);
  }
});

Deno.test("a client sees tools, resources and prompts without list changes, and completions", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  for (const era of ["2025", "2026"] as const) {
    await using client = await connectClient(handler, { era });
    assert.deepEqual(client.getServerCapabilities(), {
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    }, era);
  }
});

Deno.test("callTool() bounds the handler's GW2 reads and signal by the call's deadline", async (t) => {
  await t.step("15 s by default: reads and signal stop at 14 s", async () => {
    const clock = new ManualClock({ start: 0 });
    const gw2 = new StubGw2Client();
    let signal: AbortSignal | undefined;
    const tool = probeTool(async (deps) => {
      signal = deps.signal;
      await deps.gw2.items([19721]);
      return { ok: true };
    });
    const result = await callTool(tool, {}, { gw2, log: capture().log, clock });
    assert.deepEqual(result.structuredContent, { ok: true });
    assert.equal(gw2.deadlines.length, 1);
    assert.equal(gw2.deadlines[0]?.remainingMs(), 14_000);
    assert.equal(gw2.deadlines[0]?.signal, signal);
    assert.equal(clock.pendingSleeps, 0, "the call's timers are released when it answers");
  });
  await t.step("a tool may declare a longer deadline", async () => {
    const clock = new ManualClock({ start: 0 });
    const gw2 = new StubGw2Client();
    const tool = probeTool(async (deps) => {
      await deps.gw2.items([19721]);
      return { ok: true };
    }, 60_000);
    await callTool(tool, {}, { gw2, log: capture().log, clock });
    assert.equal(gw2.deadlines[0]?.remainingMs(), 59_000);
  });
});

Deno.test("callTool() answers a timeout before the deadline whatever the handler does", async (t) => {
  const TIMED_OUT = /^Timed out: the answer was not ready within this tool's time limit/;
  await t.step("a handler that never settles: answered at 14.5 s", async () => {
    const clock = new ManualClock();
    const { lines, log } = capture();
    const tool = probeTool(() => new Promise(() => {}));
    const settled = await settleOnClock(
      callTool(tool, {}, { gw2: new StubGw2Client(), log, clock }),
      clock,
    );
    assert.ok(settled.ok);
    assert.equal(settled.elapsedMs, 14_500);
    assert.equal(settled.value.isError, true);
    const [block] = settled.value.content;
    assert.match(block?.type === "text" ? block.text : "", TIMED_OUT);
    assert.equal(JSON.parse(lines.at(-1) ?? "{}").failure, "deadline");
  });
  await t.step("a CPU loop that checks its signal: answered at 14 s", async () => {
    const clock = new ManualClock();
    const tool = probeTool(async (deps) => {
      for (;;) {
        deps.signal?.throwIfAborted();
        await clock.sleep(1_000);
      }
    });
    const settled = await settleOnClock(
      callTool(tool, {}, { gw2: new StubGw2Client(), log: capture().log, clock }),
      clock,
    );
    assert.ok(settled.ok);
    assert.equal(settled.elapsedMs, 14_000);
    const [block] = settled.value.content;
    assert.match(block?.type === "text" ? block.text : "", TIMED_OUT);
  });
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

Deno.test("serveToolCall() sends nothing after a timeout answer, though the handler goes on", async () => {
  const clock = new ManualClock();
  const events: string[] = [];
  let reportedLate = false;
  // Reports, then works past its deadline without checking its signal, then reports again.
  const stubborn = probeTool(async (deps) => {
    deps.progress?.report("started");
    await clock.timer(20_000, new AbortController().signal);
    deps.progress?.report("late");
    reportedLate = true;
    return { ok: true };
  });
  const served = serveToolCall(stubborn, {}, {
    gw2: new StubGw2Client(),
    log: capture().log,
    clock,
  }, {
    _meta: { progressToken: "t-2" },
    notify: (notification) => {
      events.push(String(notification.params?.message));
      return Promise.resolve();
    },
  });
  const settled = await settleOnClock(
    served.then((result) => {
      events.push("result");
      return result;
    }),
    clock,
  );
  assert.ok(settled.ok);
  assert.equal(settled.value.isError, true);
  assert.equal(settled.elapsedMs, 14_500);
  clock.advance(10_000);
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  assert.ok(reportedLate, "the handler did report again");
  assert.deepEqual(events, ["started", "result"]);
});

Deno.test("the process's services reach every tool call through the HTTP edge unchanged", async () => {
  using kv = await Deno.openKv(":memory:");
  const sheets = new MarketSheets({
    store: new SheetStore({ kv, namespace: "none" }),
    clock: new ManualClock(),
    log: createLogger({ level: "error", write: () => {} }),
  });
  let seen: unknown;
  const probe = probeTool((deps) => {
    seen = deps.sheets;
    return Promise.resolve({ ok: true });
  });
  await using handler = createTestHandler({
    gw2: new StubGw2Client(),
    tools: [probe],
    services: { sheets },
  });
  await using client = await connectClient(handler);
  await client.callTool({ name: "priory_probe", arguments: {} });
  assert.equal(seen, sheets);
});
