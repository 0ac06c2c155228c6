import assert from "node:assert/strict";
import { z } from "zod";
import { surfacesFor, toolsFor } from "../../src/mcp/endpoint.ts";
import {
  defineTool,
  type ToolDefinition,
  type ToolDeps,
  UPSTREAM_READ,
} from "../../src/tools/types.ts";
import { connectClient, createTestHandler, type Era, mcpPost, readRpc } from "../support/app.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

/** A tool reporting whether the request's key reached its dependencies. */
function keyProbe(seen: (string | undefined)[]) {
  return defineTool({
    name: "priory_key_probe",
    title: "Key probe",
    description: "Priory-computed: reports whether a key arrived.",
    inputSchema: z.strictObject({}),
    outputSchema: z.object({ has_key: z.boolean() }),
    annotations: UPSTREAM_READ,
    handle(_input, deps: ToolDeps) {
      seen.push(deps.gw2Key);
      return Promise.resolve({ has_key: deps.gw2Key !== undefined });
    },
  });
}

const KEY = "ABCDEF01-2345-6789-ABCD-EF0123456789ABCDEF01-2345-6789-ABCD-EF0123456789";

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`createMcpEndpoint() hands X-GW2-Key to the tool, per request (${era})`, async () => {
    const seen: (string | undefined)[] = [];
    await using handler = createTestHandler({
      gw2: new StubGw2Client(),
      tools: [keyProbe(seen)],
    });
    {
      await using client = await connectClient(handler, { era, headers: { "X-GW2-Key": KEY } });
      const result = await client.callTool({ name: "priory_key_probe", arguments: {} });
      assert.deepEqual(result.structuredContent, { has_key: true });
      assert.ok(!JSON.stringify(result).includes(KEY));
    }
    {
      await using client = await connectClient(handler, { era, headers: { "X-GW2-Key": "  " } });
      const result = await client.callTool({ name: "priory_key_probe", arguments: {} });
      assert.deepEqual(result.structuredContent, { has_key: false }, "a blank key is no key");
    }
    {
      await using client = await connectClient(handler, { era });
      const result = await client.callTool({ name: "priory_key_probe", arguments: {} });
      assert.deepEqual(result.structuredContent, { has_key: false });
    }
    assert.deepEqual(seen, [KEY, undefined, undefined]);
  });
}

Deno.test("createMcpEndpoint() leaves a 2025-era subscriptions/listen to the SDK (method not found)", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const response = await handler(
    mcpPost({ jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: {} }),
  );
  const message = await readRpc(response);
  assert.equal((message.error as { code: number }).code, -32601);
});

/** A tool whose registrations are counted (the server reads its description to register it). */
function countedTool(name: string, counter: { registrations: number }): ToolDefinition {
  const tool = defineTool({
    name,
    title: name,
    description: "Priory-computed: answers ok.",
    inputSchema: z.strictObject({}),
    outputSchema: z.object({ ok: z.boolean() }),
    annotations: UPSTREAM_READ,
    handle: () => Promise.resolve({ ok: true }),
  });
  return Object.defineProperty({ ...tool }, "description", {
    get() {
      counter.registrations++;
      return tool.description;
    },
  });
}

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`createMcpEndpoint() registers only the called tool for a tools/call (${era})`, async () => {
    const called = { registrations: 0 };
    const other = { registrations: 0 };
    await using handler = createTestHandler({
      gw2: new StubGw2Client(),
      tools: [countedTool("priory_called", called), countedTool("priory_other", other)],
    });
    await using client = await connectClient(handler, { era });
    const before = other.registrations;
    const result = await client.callTool({ name: "priory_called", arguments: {} });
    assert.deepEqual(result.structuredContent, { ok: true });
    assert.equal(other.registrations, before, "the other tool was registered for the call");
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["priory_called", "priory_other"]);
  });
}

Deno.test("toolsFor() narrows a single tools/call of a known tool, and nothing else", () => {
  const seen = { registrations: 0 };
  const tools = [countedTool("priory_a", seen), countedTool("priory_b", seen)];
  const call = (name: unknown) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name },
  });
  assert.deepEqual(toolsFor(call("priory_b"), tools), [tools[1]]);
  assert.equal(toolsFor(call("priory_nope"), tools), tools);
  assert.equal(toolsFor(call(7), tools), tools);
  assert.equal(toolsFor({ jsonrpc: "2.0", id: 1, method: "tools/list" }, tools), tools);
  assert.equal(toolsFor([call("priory_a")], tools), tools);
});

Deno.test("surfacesFor() registers the views and prompts only for the requests that use them", () => {
  const request = (method: string) => ({ jsonrpc: "2.0", id: 1, method, params: {} });
  const none = { views: false, prompts: false };
  const views = { views: true, prompts: false };
  const prompts = { views: false, prompts: true };
  const all = { views: true, prompts: true };
  assert.deepEqual(surfacesFor(request("tools/call")), none, "the warm path pays for neither");
  assert.deepEqual(surfacesFor(request("tools/list")), none);
  assert.deepEqual(surfacesFor(request("initialize")), none, "capabilities are static");
  assert.deepEqual(surfacesFor(request("server/discover")), none);
  assert.deepEqual(surfacesFor(request("resources/list")), views);
  assert.deepEqual(surfacesFor(request("resources/read")), views);
  assert.deepEqual(surfacesFor(request("resources/templates/list")), views);
  assert.deepEqual(surfacesFor(request("prompts/list")), prompts);
  assert.deepEqual(surfacesFor(request("prompts/get")), prompts);
  assert.deepEqual(surfacesFor(request("completion/complete")), prompts);
  assert.deepEqual(surfacesFor([request("resources/list"), request("prompts/list")]), all);
  assert.deepEqual(surfacesFor("nonsense"), all);
});
