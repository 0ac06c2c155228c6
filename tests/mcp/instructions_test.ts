/**
 * The server's instructions: the workflow an agent reads once per connection, carried by
 * `initialize` (2025) and `server/discover` (2026), and kept short.
 */
import assert from "node:assert/strict";
import { SERVER_INSTRUCTIONS } from "../../src/mcp/server.ts";
import {
  connectClient,
  createTestHandler,
  type Era,
  mcpPost,
  modernPost,
  readRpc,
} from "../support/app.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

/** The ceiling for the instructions, in tokens (bytes / 4). */
const TOKEN_BUDGET = 150;

Deno.test("instructions name the workflow within 150 tokens", () => {
  const tokens = new TextEncoder().encode(SERVER_INSTRUCTIONS).length / 4;
  assert.ok(tokens <= TOKEN_BUDGET, `instructions are ${tokens} tokens`);
  for (
    const part of [
      "priory_item_search",
      "gw2_items",
      "gw2_prices",
      "priory_recipe_tree",
      "X-GW2-Key",
    ]
  ) {
    assert.ok(SERVER_INSTRUCTIONS.includes(part), part);
  }
  assert.ok(
    SERVER_INSTRUCTIONS.indexOf("priory_item_search") < SERVER_INSTRUCTIONS.indexOf("gw2_items"),
    "find the ids first, then read",
  );
});

for (const era of ["2025", "2026"] satisfies Era[]) {
  Deno.test(`a real ${era} client receives the instructions`, async () => {
    await using handler = createTestHandler({ gw2: new StubGw2Client() });
    await using client = await connectClient(handler, { era });
    assert.equal(client.getInstructions(), SERVER_INSTRUCTIONS);
  });
}

Deno.test("initialize and server/discover carry the instructions on the wire", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const initialize = await readRpc(
    await handler(mcpPost({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    })),
  );
  const discover = await readRpc(await handler(modernPost("server/discover")));
  for (const message of [initialize, discover]) {
    const result = message.result as { instructions?: unknown } | undefined;
    assert.equal(result?.instructions, SERVER_INSTRUCTIONS, JSON.stringify(message));
  }
});
