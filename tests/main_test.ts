import assert from "node:assert/strict";
import { drain, readUntil, spawnDeno, taskArgs } from "./support/process.ts";
import { callTool, LOCAL_ENV as LOCAL, servePriory } from "./support/served.ts";
import { LEGACY, readRpc } from "./support/app.ts";
import { FILLER_FIRST_ID, startFakeGw2 } from "./fake_gw2/mod.ts";

Deno.test("a spawned test server is pointed at loopback, never the real GW2 API", () => {
  // The warm-up starts with the process: without a base of its own it would ask the real host.
  const base = new URL(LOCAL.GW2_API_BASE ?? "https://api.guildwars2.com");
  assert.equal(base.hostname, "127.0.0.1");
});

Deno.test("deno task start refuses to run without MCP_AUTH_TOKEN, naming it", async () => {
  const output = await spawnDeno(await taskArgs("start"), { ...LOCAL, MCP_AUTH_TOKEN: " " })
    .output();
  assert.equal(output.code, 1);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.match(stderr, /"MCP_AUTH_TOKEN" is blank/);
  assert.doesNotMatch(stderr, /\bat \S+:\d+:\d+/, "no stack trace");
});

Deno.test("deno task start exits 1 naming a malformed variable", async () => {
  const output = await spawnDeno(await taskArgs("start"), {
    ...LOCAL,
    MCP_AUTH_TOKEN: "start-test-token",
    GW2_RATE_PER_SEC: "fast",
  }).output();
  assert.equal(output.code, 1);
  assert.match(new TextDecoder().decode(output.stderr), /"GW2_RATE_PER_SEC": expected a positive/);
});

Deno.test("deno task start exits 1 with one line naming PORT when the port is taken", async () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const output = await spawnDeno(await taskArgs("start"), {
    ...LOCAL,
    MCP_AUTH_TOKEN: "start-test-token",
    PORT: String(taken.addr.port),
  }).output();
  assert.equal(output.code, 1);
  const stderr = new TextDecoder().decode(output.stderr).trim();
  assert.equal(stderr.split("\n").length, 1, `one line, got: ${stderr}`);
  assert.match(stderr, /^priory: Cannot listen on 127\.0\.0\.1:\d+: the port is in use.*"PORT"/);
  assert.doesNotMatch(stderr, /AddrInUse|\bat \S+:\d+:\d+/, "no stack trace");
});

Deno.test("deno task start serves /healthz, guards /mcp, logs no token, and stops on SIGTERM", async () => {
  const token = "start-test-token-3f9c2a";
  const child = spawnDeno(await taskArgs("start"), { ...LOCAL, MCP_AUTH_TOKEN: token });
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const stderrDone = drain(stderr);
  let logged = "";
  try {
    const port = await readUntil(stdout, /"msg":"listening".*"port":(\d+)/);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok" });
    const refused = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", body: "{}" });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("www-authenticate"), null);
    await refused.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    let chunk;
    while (!(chunk = await stdout.read()).done) logged += chunk.value;
    await stderrDone;
  }
  assert.equal((await child.status).code, 0);
  assert.match(logged, /"msg":"shutting down","signal":"SIGTERM"/);
  assert.doesNotMatch(logged, new RegExp(token));
});

Deno.test("deno task start opens PRIORY_KV_PATH outside the checkout, creating its folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "priory-kv-path-" });
  try {
    const path = `${dir}/not/yet/there/kv.sqlite3`;
    const server = await servePriory({ MCP_AUTH_TOKEN: "kv-path-token", PRIORY_KV_PATH: path });
    const ended = await server.stop();
    assert.equal(ended.code, 0, ended.stderr);
    assert.ok((await Deno.stat(path)).isFile, "the KV file was created");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task start refuses an unusable PRIORY_KV_PATH with one sentence naming it", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "priory-kv-path-" });
  try {
    const file = `${dir}/a-file`;
    await Deno.writeTextFile(file, "not a folder");
    const cases: [string, string, RegExp][] = [
      ["a folder that cannot be created", `${file}/kv.sqlite3`, /folder .* cannot be created/],
      ["a folder, not a file", dir, /as a Deno KV file/],
      ["a file that is not a database", file, /as a Deno KV file/],
    ];
    for (const [label, path, cause] of cases) {
      await t.step(label, async () => {
        const output = await spawnDeno(await taskArgs("start"), {
          ...LOCAL,
          MCP_AUTH_TOKEN: "kv-path-token",
          PRIORY_KV_PATH: path,
        }).output();
        const stderr = new TextDecoder().decode(output.stderr);
        assert.equal(output.code, 1);
        const lines = stderr.trim().split("\n");
        assert.equal(lines.length, 1, `one line, got: ${stderr}`);
        assert.match(lines[0] ?? "", /^priory: Cannot .*"PRIORY_KV_PATH"/);
        assert.match(lines[0] ?? "", cause);
        assert.doesNotMatch(
          stderr,
          /\bat \S+:\d+:\d+|NotCapable|Stack backtrace/,
          "no stack trace",
        );
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task dev keeps its generated token across restarts", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "priory-dev-" });
  try {
    const tokens: string[] = [];
    for (let run = 0; run < 2; run++) {
      await using server = await servePriory({}, { task: "dev", cwd });
      const [, token] = await server.stderr.waitFor(/kept in \.priory\/dev-token.*: (\S+)\n/);
      tokens.push(token ?? "");
      await server.stderr.waitFor(new RegExp(`Bearer ${token}"`));
      const health = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{}",
      });
      await health.body?.cancel();
      assert.notEqual(health.status, 401, "the printed token is the one the server accepts");
    }
    assert.equal(tokens[0], tokens[1], "the restart printed the same token");
    assert.match(tokens[0] ?? "", /^[A-Za-z0-9_-]{43}$/);
    const stored = await Deno.stat(`${cwd}/.priory/dev-token`);
    assert.equal((stored.mode ?? 0) & 0o777, 0o600, "readable by its owner only");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("deno task start finishes an in-flight request on SIGINT, then exits", async () => {
  await using fake = await startFakeGw2();
  fake.control.setLatency(1500, "/v2/items");
  const token = "shutdown-test-token";
  const server = await servePriory({ MCP_AUTH_TOKEN: token, GW2_API_BASE: fake.url });
  try {
    const answer = callTool(server.url, token, "gw2_items", { ids: [19721] });
    await fake.control.waitForRequests(1);
    const ended = server.stop("SIGINT");
    const result = await answer;
    assert.equal(result.isError, undefined);
    assert.deepEqual(
      (result.structuredContent as { items: { id: number }[] }).items.map((item) => item.id),
      [19721],
    );
    const { code, stdout } = await ended;
    assert.equal(code, 0);
    assert.match(stdout, /"msg":"shutting down","signal":"SIGINT"/);
    assert.match(stdout, /"msg":"stopped","outcome":"drained"/);
  } finally {
    await server.stop("SIGKILL");
  }
});

/**
 * A tool call over the 2025-11-25 leg, whose SDK handler reads `request.signal` (under Deno's
 * legacy abort that printed a plain-text notice on stderr); the answer, read whole.
 */
async function legacyCall(url: string, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      "mcp-protocol-version": LEGACY,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "gw2_items", arguments: { ids: [19721] } },
    }),
  });
  return await readRpc(response);
}

Deno.test("deno task start logs one JSON object per line, tool calls included", async () => {
  await using fake = await startFakeGw2();
  const token = "json-lines-token-51c7";
  const server = await servePriory({ MCP_AUTH_TOKEN: token, GW2_API_BASE: fake.url });
  let stderr = "";
  try {
    const read = await callTool(server.url, token, "gw2_items", { ids: [19721] });
    assert.equal(read.isError, undefined);
    const refused = await callTool(server.url, token, "priory_account", {});
    assert.equal(refused.isError, true);
    assert.equal((await legacyCall(server.url, token)).id, 7);
    assert.equal((await legacyCall(server.url, token)).id, 7);
    await server.stdout.waitFor(/"msg":"tool call".*"failure":"missing_gw2_key"/);
  } finally {
    const ended = await server.stop();
    stderr = ended.stderr;
    const { stdout } = ended;
    const records = stdout.split("\n").filter((line) => line !== "").map((line) => {
      const record = JSON.parse(line);
      assert.equal(typeof record, "object", line);
      assert.match(String(record.ts), /^\d{4}-\d\d-\d\dT/, line);
      assert.ok(["info", "warn", "error"].includes(record.level), line);
      assert.equal(typeof record.msg, "string", line);
      return record;
    });
    assert.deepEqual(
      records.filter((record) => record.msg === "tool call").map((record) => record.tool),
      ["priory_account"],
      "start logs a failed call at info, a success at debug",
    );
    assert.deepEqual(
      records.filter((record) => record.msg === "gw2 upstream" && record.status === 200),
      [],
      "an upstream answer is chatter, at debug",
    );
    assert.doesNotMatch(stdout, new RegExp(token));
  }
  // Nothing beside the log: the runtime's legacy-abort notice was a plain-text line.
  assert.equal(stderr, "");
});

Deno.test("deno task dev prints the banner, then one readable line per tool call", async () => {
  await using fake = await startFakeGw2();
  const token = "dev-console-token-8e2d";
  await using server = await servePriory(
    { MCP_AUTH_TOKEN: token, GW2_API_BASE: fake.url },
    { task: "dev" },
  );
  await server.stderr.waitFor(/Priory MCP \(dev\) listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  // A filler item: no background warm-up reads it, so the first call must ask upstream.
  const ids = [FILLER_FIRST_ID + 17];
  const read = await callTool(server.url, token, "gw2_items", { ids });
  assert.equal(read.isError, undefined);
  const again = await callTool(server.url, token, "gw2_items", { ids });
  assert.equal(again.isError, undefined);
  const refused = await callTool(server.url, token, "priory_account", {});
  assert.equal(refused.isError, true);
  // Waits for the failed call's line in any format, so a wrong format fails rather than hangs.
  await server.stdout.waitFor(/priory_account.*missing_gw2_key.*\n/);
  const text = server.stdout.text;
  assert.match(text, /^\d\d:\d\d:\d\d {2}listening {2}hostname=127\.0\.0\.1 port=\d+ mode=dev$/m);
  const calls = text.split("\n").filter((line) => /^\d\d:\d\d:\d\d {2}(gw2|priory)_/.test(line));
  assert.equal(calls.length, 3, text);
  assert.match(
    calls[2] ?? "",
    / priory_account +failed +\d+ ms {2}0 upstream requests, 0 cache hits {2}missing_gw2_key$/,
  );
  assert.match(calls[0] ?? "", / gw2_items +ok +\d+ ms {2}1 upstream request, 0 cache hits$/);
  assert.match(calls[1] ?? "", / gw2_items +ok +\d+ ms {2}0 upstream requests, 1 cache hit$/);
  assert.doesNotMatch(text, /^\{/m, "no JSON line");
  assert.doesNotMatch(text, /gw2 upstream/, "upstream chatter is at debug");
  // The 2025 leg reads `request.signal`: the runtime's legacy-abort notice is not printed.
  assert.equal((await legacyCall(server.url, token)).id, 7);
  const { stderr } = await server.stop();
  assert.doesNotMatch(stderr, /Deno\.serve|legacy/, "no runtime notice on the console");
  assert.doesNotMatch(text + stderr, new RegExp(token), "the token is never printed");
});
