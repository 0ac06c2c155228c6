import assert from "node:assert/strict";
import { drain, readUntil, spawnDeno, taskArgs } from "./support/process.ts";

/** Settings that keep the child local and self-contained whatever the parent's environment. */
const LOCAL = { HOSTNAME: "127.0.0.1", PORT: "0", PRIORY_KV_PATH: ":memory:", LOG_LEVEL: "info" };

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
