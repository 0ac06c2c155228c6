import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, type ToolDeps, UPSTREAM_READ } from "../../src/tools/types.ts";
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
