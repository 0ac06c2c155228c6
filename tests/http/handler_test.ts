import assert from "node:assert/strict";
import { TOOLS } from "../../src/tools/mod.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";
import { pathnameOf } from "../../src/http/handler.ts";
import {
  connectClient,
  createTestHandler,
  LEGACY,
  mcpHeaders,
  mcpPost,
  MODERN,
  modernPost,
  readRpc,
  TEST_TOKEN,
} from "../support/app.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: LEGACY,
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

async function drain(response: Response): Promise<string> {
  return await response.text();
}

Deno.test("pathnameOf() gives what new URL() gives, for served paths and others", () => {
  const urls = [
    "http://localhost:8000/mcp",
    "http://localhost/api/mcp",
    "http://localhost/mcp?x=1",
    "http://localhost/mcp#x",
    "http://localhost/mcp/",
    "http://localhost/MCP",
    "http://localhost/a/../mcp",
    "http://localhost/%6Dcp",
    "http://user:pw@[::1]:8000/mcp",
    "http://localhost/?next=/mcp",
    "http://localhost/healthz",
    "http://localhost/",
    "https://example.com//mcp",
  ];
  for (const url of urls) {
    const serialised = new Request(url).url;
    assert.equal(pathnameOf(serialised), new URL(serialised).pathname, serialised);
  }
});

Deno.test("handler answers GET /healthz with 200 {status: ok} without auth", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const response = await handler(new Request("http://localhost/healthz"));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { status: "ok" });
});

Deno.test("handler answers unknown paths and .well-known with 404", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const post = await handler(new Request("http://localhost/healthz", { method: "POST" }));
  assert.equal(post.status, 404, "POST /healthz");
  await drain(post);
  for (
    const path of [
      "/",
      "/nope",
      "/mcp/",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-protected-resource/mcp",
    ]
  ) {
    for (const method of ["GET", "POST"]) {
      const response = await handler(
        new Request(`http://localhost${path}`, { method, headers: mcpHeaders() }),
      );
      assert.equal(response.status, 404, `${method} ${path}`);
      await drain(response);
    }
  }
});

Deno.test("handler guard matrix: status per request on /mcp", async (t) => {
  const gw2 = new StubGw2Client();
  await using handler = createTestHandler({ gw2 });
  const cases: [string, Request, number][] = [
    [
      "no token → 401",
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(INITIALIZE),
      }),
      401,
    ],
    ["wrong token → 401", mcpPost(INITIALIZE, { headers: { authorization: "Bearer nope" } }), 401],
    [
      "token of another length → 401",
      mcpPost(INITIALIZE, { headers: { authorization: `Bearer ${TEST_TOKEN}x` } }),
      401,
    ],
    [
      "Basic scheme → 401",
      mcpPost(INITIALIZE, { headers: { authorization: `Basic ${TEST_TOKEN}` } }),
      401,
    ],
    [
      "foreign Origin with a valid token → 403",
      mcpPost(INITIALIZE, { headers: { origin: "https://evil.example" } }),
      403,
    ],
    ["opaque Origin null → 403", mcpPost(INITIALIZE, { headers: { origin: "null" } }), 403],
    [
      "foreign Origin without a token → 403 (Origin is checked first)",
      mcpPost(INITIALIZE, { headers: { origin: "https://evil.example", authorization: "" } }),
      403,
    ],
    [
      "foreign Host with a valid token → 403",
      mcpPost(INITIALIZE, { headers: { host: "evil.example" } }),
      403,
    ],
    [
      "rebinding Host with a loopback port → 403",
      mcpPost(INITIALIZE, { headers: { host: "attacker.example:8000" } }),
      403,
    ],
    ["absent Origin with a valid token → 200", mcpPost(INITIALIZE), 200],
    [
      "allowed Origin on any port → 200",
      mcpPost(INITIALIZE, { headers: { origin: "http://localhost:6274" } }),
      200,
    ],
    [
      "loopback Host with a port → 200",
      mcpPost(INITIALIZE, { headers: { host: "127.0.0.1:8000" } }),
      200,
    ],
    ["/api/mcp → 200", mcpPost(INITIALIZE, { path: "/api/mcp" }), 200],
  ];
  for (const [label, request, status] of cases) {
    await t.step(label, async () => {
      const response = await handler(request);
      assert.equal(response.status, status);
      assert.equal(response.headers.get("www-authenticate"), null);
      const body = await drain(response);
      if (status === 401) {
        assert.match(body, /^Unauthorized: /);
        assert.ok(!body.includes(TEST_TOKEN), "the 401 body never echoes a token");
        assert.doesNotMatch(body, /oauth/i);
      }
      if (status === 403) assert.match(body, /^Forbidden: /);
    });
  }
  assert.equal(gw2.callCount, 0);
});

Deno.test("handler answers GET, DELETE and other methods on /mcp with 405 after the guard", async (t) => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  for (const method of ["GET", "DELETE", "PUT", "OPTIONS"]) {
    await t.step(method, async () => {
      const response = await handler(
        new Request("http://localhost/mcp", { method, headers: mcpHeaders() }),
      );
      assert.equal(response.status, 405);
      assert.equal(response.headers.get("allow"), "POST");
      await drain(response);
    });
  }
  await t.step("GET without a token is refused by the guard first", async () => {
    const response = await handler(new Request("http://localhost/mcp"));
    assert.equal(response.status, 401);
    await drain(response);
  });
});

Deno.test("handler refuses bodies over 1 MiB with 413, with and without Content-Length", async (t) => {
  const big = new Uint8Array(1024 * 1024 + 1).fill(0x20);
  await using handler = createTestHandler({ gw2: new StubGw2Client() });

  await t.step("declared Content-Length over the bound is refused unread", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const response = await handler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: mcpHeaders({ "content-length": String(big.byteLength) }),
        body,
      }),
    );
    assert.equal(response.status, 413);
    assert.ok(pulled <= 1, `read ${pulled} chunks of a body it should not read`);
    await drain(response);
  });

  await t.step("a streamed body is counted and abandoned at the bound", async () => {
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await handler(
      new Request("http://localhost/mcp", { method: "POST", headers: mcpHeaders(), body }),
    );
    assert.equal(response.status, 413);
    assert.ok(cancelled, "the stream is cancelled");
    assert.ok(pulled <= 18, `pulled ${pulled} chunks; the bound is 16`);
    assert.match(await drain(response), /^Payload too large/);
  });

  await t.step("exactly 1 MiB is not refused for its size", async () => {
    const padded = JSON.stringify(LIST).padEnd(1024 * 1024, " ");
    const response = await handler(
      new Request("http://localhost/mcp", { method: "POST", headers: mcpHeaders(), body: padded }),
    );
    assert.equal(response.status, 200);
    await drain(response);
  });

  await t.step("an oversize body without a token is refused 401 first", async () => {
    const response = await handler(
      new Request("http://localhost/mcp", { method: "POST", body: big }),
    );
    assert.equal(response.status, 401);
    await drain(response);
  });
});

Deno.test("handler serves two sequential and twenty concurrent requests (fresh server each)", async () => {
  const gw2 = new StubGw2Client();
  await using handler = createTestHandler({ gw2 });
  const call = (id: number) =>
    mcpPost({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "gw2_items", arguments: { ids: [19721] } },
    });
  for (const id of [1, 2]) {
    const response = await handler(call(id));
    assert.equal(response.status, 200);
    const message = await readRpc(response);
    assert.equal(message.id, id);
    assert.ok(message.result, JSON.stringify(message));
  }
  const answers = await Promise.all(
    Array.from({ length: 20 }, async (_, index) => {
      const response = await handler(call(100 + index));
      return { status: response.status, message: await readRpc(response) };
    }),
  );
  for (const [index, answer] of answers.entries()) {
    assert.equal(answer.status, 200);
    assert.equal(answer.message.id, 100 + index);
    assert.ok(answer.message.result);
  }
  assert.equal(gw2.callCount, 22);
});

Deno.test("handler serves a real 2025-11-25 client: initialize, tools/list, tools/call", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  await using client = await connectClient(handler);
  assert.equal(client.getNegotiatedProtocolVersion(), LEGACY);
  assert.equal(client.getProtocolEra(), "legacy");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), TOOLS.map((tool) => tool.name));
  const result = await client.callTool({ name: "gw2_items", arguments: { ids: [19721] } });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, {
    items: [{
      id: 19721,
      name: "Glob of Ectoplasm",
      rarity: "Exotic",
      type: "CraftingMaterial",
      flags: [],
      vendor_value: 256,
    }],
    missing_ids: [],
  });
});

/** What the server advertises: fixed lists (no listChanged) and prompt-argument completions. */
const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
};

Deno.test("handler serves a real 2026-07-28 client: server/discover, tools/list, tools/call", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  await using client = await connectClient(handler, { era: "2026" });
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  assert.equal(client.getProtocolEra(), "modern");
  assert.deepEqual(client.getServerCapabilities(), CAPABILITIES);
  const { tools } = await client.listTools();
  assert.equal(tools.length, TOOLS.length);
  const result = await client.callTool({ name: "gw2_prices", arguments: { ids: [19721] } });
  assert.deepEqual(result.structuredContent, {
    prices: [{ id: 19721, buy: 2603, sell: 2797 }],
    missing_ids: [],
  });
});

Deno.test("handler answers raw 2026-07-28 requests per the revision", async (t) => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  await t.step("server/discover advertises 2026-07-28 and lists without listChanged", async () => {
    const response = await handler(modernPost("server/discover"));
    assert.equal(response.status, 200);
    const message = await readRpc(response);
    const result = message.result as Record<string, unknown>;
    assert.deepEqual(result.supportedVersions, [MODERN]);
    assert.deepEqual(result.capabilities, CAPABILITIES);
  });
  await t.step("tools/call with matching headers answers JSON", async () => {
    const response = await handler(
      modernPost("tools/call", { name: "gw2_items", arguments: { ids: [19721] } }),
    );
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    const message = await readRpc(response);
    assert.ok(message.result);
  });
  await t.step("Mcp-Method disagreeing with the body → 400 −32020", async () => {
    const response = await handler(modernPost("tools/list", {}, { "mcp-method": "tools/call" }));
    assert.equal(response.status, 400);
    const message = await readRpc(response);
    assert.equal((message.error as { code: number }).code, -32020);
  });
  await t.step("Mcp-Name disagreeing with the tool → 400 −32020", async () => {
    const response = await handler(
      modernPost("tools/call", { name: "gw2_items", arguments: { ids: [1] } }, {
        "mcp-name": "gw2_prices",
      }),
    );
    assert.equal(response.status, 400);
    assert.equal(((await readRpc(response)).error as { code: number }).code, -32020);
  });
  await t.step("header version disagreeing with the envelope → 400 −32020", async () => {
    const response = await handler(
      modernPost("tools/list", {}, { "mcp-protocol-version": LEGACY }),
    );
    assert.equal(response.status, 400);
    assert.equal(((await readRpc(response)).error as { code: number }).code, -32020);
  });
  await t.step("subscriptions/listen is refused as an unknown method (404 −32601)", async () => {
    const response = await handler(modernPost("subscriptions/listen", { filter: {} }));
    assert.equal(response.status, 404);
    const message = await readRpc(response);
    assert.equal(message.id, 1);
    assert.equal((message.error as { code: number }).code, -32601);
  });
});

Deno.test("handler answers malformed JSON with the SDK's parse error, not a crash", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  const response = await handler(
    new Request("http://localhost/mcp", { method: "POST", headers: mcpHeaders(), body: "{nope" }),
  );
  assert.equal(response.status, 400);
  assert.equal(((await readRpc(response)).error as { code: number }).code, -32700);
});

Deno.test("handler lets 2026 clients cache tools/list and server/discover publicly for an hour", async (t) => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  for (const method of ["tools/list", "server/discover"]) {
    await t.step(`${method} (2026-07-28)`, async () => {
      const result = (await readRpc(await handler(modernPost(method)))).result as Record<
        string,
        unknown
      >;
      assert.equal(result.ttlMs, 3_600_000);
      assert.equal(result.cacheScope, "public");
    });
  }
  await t.step("tools/call stays uncached", async () => {
    const response = await handler(
      modernPost("tools/call", { name: "gw2_items", arguments: { ids: [19721] } }),
    );
    const result = (await readRpc(response)).result as Record<string, unknown>;
    assert.equal("ttlMs" in result, false);
    assert.equal("cacheScope" in result, false);
  });
  await t.step("a 2025-era tools/list carries no cache fields", async () => {
    const result = (await readRpc(await handler(mcpPost(LIST)))).result as Record<string, unknown>;
    assert.equal("ttlMs" in result, false);
    assert.equal("cacheScope" in result, false);
  });
});
