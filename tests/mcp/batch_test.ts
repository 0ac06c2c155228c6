import assert from "node:assert/strict";
import { z } from "zod";
import { MAX_BATCH_REQUESTS } from "../../src/mcp/batch.ts";
import { defineTool, type ToolDefinition, UPSTREAM_READ } from "../../src/tools/types.ts";
import {
  createTestHandler,
  LEGACY,
  mcpPost,
  MODERN,
  modernMeta,
  startTestApp,
} from "../support/app.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

/** A `tools/call` of `gw2_items` for one id, as the `id`-th message of a batch. */
function itemsCall(id: number, itemId: number, meta?: Record<string, unknown>) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: "gw2_items",
      arguments: { ids: [itemId] },
      ...(meta === undefined ? {} : { _meta: meta }),
    },
  };
}

/** The JSON-RPC messages of an answer: a JSON body, or every `data:` line of an SSE stream. */
async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [parsed as Record<string, unknown>];
  }
  return text.split("\n").filter((line) => line.startsWith("data:")).map((line) =>
    JSON.parse(line.slice(5))
  );
}

/** A tool counting how often its handler runs. */
function countingTool(runs: { count: number }): ToolDefinition {
  return defineTool({
    name: "priory_count",
    title: "Count",
    description: "Priory-computed: counts its calls.",
    inputSchema: z.strictObject({}),
    outputSchema: z.object({ ok: z.boolean() }),
    annotations: UPSTREAM_READ,
    handle: () => {
      runs.count++;
      return Promise.resolve({ ok: true });
    },
  });
}

function countCall(id: number) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "priory_count", arguments: {} },
  };
}

Deno.test("a 2025-11-25 batch of 10 calls runs every one of them", async () => {
  await using app = await startTestApp();
  // Ten distinct items the fake knows (the gen-1 legendaries' first ids would do as well).
  const ids = [19721, 19976, 24295, 19684, 19685, 19686, 19700, 19701, 19702, 19725];
  const batch = ids.map((itemId, index) => itemsCall(index + 1, itemId));
  assert.equal(batch.length, MAX_BATCH_REQUESTS);
  const response = await app.handler(
    mcpPost(batch, { headers: { "mcp-protocol-version": LEGACY } }),
  );
  assert.equal(response.status, 200);
  const messages = await messagesOf(response);
  assert.deepEqual(messages.map((message) => message.id).sort((a, b) => Number(a) - Number(b)), [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
  ]);
  for (const message of messages) {
    const result = message.result as { isError?: boolean; structuredContent?: unknown };
    assert.notEqual(result.isError, true, JSON.stringify(message));
    assert.ok(result.structuredContent !== undefined);
  }
  assert.ok(app.fake.control.requests.length > 0, "the calls read upstream");
});

Deno.test("a 2025-11-25 batch of 11 is refused whole: 400, -32600 naming the limit, nothing runs", async () => {
  await using app = await startTestApp();
  const batch = Array.from(
    { length: MAX_BATCH_REQUESTS + 1 },
    (_, index) => itemsCall(index + 1, 19721 + index),
  );
  const response = await app.handler(
    mcpPost(batch, { headers: { "mcp-protocol-version": LEGACY } }),
  );
  assert.equal(response.status, 400);
  assert.match(response.headers.get("content-type") ?? "", /application\/json/);
  const answer = await response.json();
  assert.equal(answer.jsonrpc, "2.0");
  assert.equal(answer.id, null);
  assert.equal(answer.error.code, -32600);
  assert.match(answer.error.message, /at most 10 requests/);
  assert.match(answer.error.message, /\b11\b/);
  assert.deepEqual(app.fake.control.requests, [], "the fake saw no request");
  const stats = app.gw2.stats();
  assert.equal(stats.cacheHits + stats.cacheMisses + stats.upstreamRequests, 0, "no GW2 read ran");
  assert.ok(app.logs.some((line) => line.includes('"msg":"mcp batch refused"')));
});

Deno.test("a batch over the limit runs no tool handler; one at the limit runs each call", async () => {
  const runs = { count: 0 };
  await using handler = createTestHandler({
    gw2: new StubGw2Client(),
    tools: [countingTool(runs)],
  });
  const over = Array.from({ length: MAX_BATCH_REQUESTS + 1 }, (_, index) => countCall(index + 1));
  const refused = await handler(mcpPost(over));
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error.code, -32600);
  assert.equal(runs.count, 0, "no handler ran");
  // Every element counts, notifications included (JSON-RPC calls them requests too).
  const notified = [
    ...Array.from({ length: MAX_BATCH_REQUESTS }, (_, index) => countCall(index + 1)),
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ];
  const alsoRefused = await handler(mcpPost(notified));
  assert.equal(alsoRefused.status, 400);
  await alsoRefused.body?.cancel();
  assert.equal(runs.count, 0);
  const atLimit = Array.from({ length: MAX_BATCH_REQUESTS }, (_, index) => countCall(index + 1));
  const served = await handler(mcpPost(atLimit));
  assert.equal(served.status, 200);
  assert.equal((await messagesOf(served)).length, MAX_BATCH_REQUESTS);
  assert.equal(runs.count, MAX_BATCH_REQUESTS);
});

Deno.test("2026-07-28 batches stay refused: ours over the limit, the SDK's under it; nothing runs", async () => {
  await using app = await startTestApp();
  const headers = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" };
  const over = Array.from(
    { length: MAX_BATCH_REQUESTS + 1 },
    (_, index) => itemsCall(index + 1, 19721, modernMeta()),
  );
  const refusedOver = await app.handler(mcpPost(over, { headers }));
  assert.equal(refusedOver.status, 400);
  const overAnswer = await refusedOver.json();
  assert.equal(overAnswer.error.code, -32600);
  assert.match(overAnswer.error.message, /at most 10 requests/);
  const small = [itemsCall(1, 19721, modernMeta()), itemsCall(2, 19976, modernMeta())];
  const refusedSmall = await app.handler(mcpPost(small, { headers }));
  assert.equal(refusedSmall.status, 400);
  assert.equal((await refusedSmall.json()).error.code, -32600);
  assert.deepEqual(app.fake.control.requests, [], "the fake saw no request");
});
