/**
 * Crash safety, with real processes: `deno task start` on a KV file, a burst of tool calls, the
 * process killed with SIGKILL mid-burst, then a second server on the same file. Every record a
 * call had answered before the kill must be served from KV afterwards without asking upstream,
 * and the rest of the burst must work (the file, the bucket entry and the cache are intact).
 * Real time, about two seconds: process start-up is what it measures.
 */
import assert from "node:assert/strict";
import { chunk } from "../../src/concurrency.ts";
import { startFakeGw2 } from "../fake_gw2/mod.ts";
import { modernPost, readRpc, TEST_TOKEN } from "../support/app.ts";
import { drain, readUntil, spawnDeno, taskArgs } from "../support/process.ts";

interface Server {
  readonly child: Deno.ChildProcess;
  readonly port: string;
  /** Reads the rest of the output (after the process ended). */
  finish(): Promise<void>;
}

/** `deno task start` with read/write access to `dir` (the task grants the project folder). */
async function startServer(env: Record<string, string>, dir: string): Promise<Server> {
  const args = (await taskArgs("start")).map((arg) =>
    /^--allow-(read|write)=/.test(arg) ? `${arg},${dir}` : arg
  );
  const child = spawnDeno(args, env);
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const stderrDone = drain(stderr);
  const port = await readUntil(stdout, /"msg":"listening".*"port":(\d+)/);
  return { child, port, finish: () => Promise.all([drain(stdout), stderrDone]).then(() => {}) };
}

/** `gw2_items` over HTTP; the ids it found, or undefined when the call failed. */
async function items(port: string, ids: readonly number[]): Promise<number[] | undefined> {
  const request = modernPost("tools/call", { name: "gw2_items", arguments: { ids } });
  const response = await fetch(new Request(`http://127.0.0.1:${port}/mcp`, request));
  const message = await readRpc(response);
  const result = message.result as {
    isError?: boolean;
    structuredContent?: { items: { id: number }[] };
  };
  if (result?.isError === true || result?.structuredContent === undefined) return undefined;
  return result.structuredContent.items.map((item) => item.id);
}

Deno.test("a server killed with SIGKILL mid-burst restarts on the same KV file with its data intact", async () => {
  await using fake = await startFakeGw2();
  const dir = await Deno.makeTempDir({ prefix: "priory-sigkill-" });
  const env = {
    MCP_AUTH_TOKEN: TEST_TOKEN,
    HOSTNAME: "127.0.0.1",
    PRIORY_HOSTNAME: "127.0.0.1",
    PORT: "0",
    PRIORY_KV_PATH: `${dir}/kv.sqlite3`,
    GW2_API_BASE: fake.url,
    LOG_LEVEL: "info",
  };
  try {
    const ids = [...fake.world.items.keys()].slice(0, 200);
    // Four clients, each calling for 5 ids at a time, one call after another; every upstream
    // request is held 50 ms, so the kill lands mid-burst.
    fake.control.setLatency(50, "/v2/items");
    const first = await startServer(env, dir);
    const answered: number[][] = [];
    const groups = chunk(ids, 5);
    const burst = [0, 1, 2, 3].map(async (client) => {
      try {
        for (const group of groups.filter((_, index) => index % 4 === client)) {
          const found = await items(first.port, group);
          if (found !== undefined) answered.push(found);
        }
      } catch {
        // The connection died with the server.
      }
    });
    for (let waited = 0; answered.length < 8; waited += 5) {
      assert.ok(waited < 20_000, "the burst never got going");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.child.kill("SIGKILL");
    await Promise.all(burst);
    assert.equal((await first.child.status).signal, "SIGKILL");
    await first.finish();
    const before = answered.flat();
    assert.ok(before.length >= 40 && before.length < ids.length, `${before.length} answered`);

    fake.control.reset();
    const second = await startServer(env, dir);
    try {
      for (const group of chunk(before, 100)) {
        assert.deepEqual(await items(second.port, group), group);
      }
      assert.deepEqual(fake.control.requests, [], "everything answered before the kill was in KV");
      const all = (await Promise.all(chunk(ids, 100).map((group) => items(second.port, group))))
        .flatMap((found) => found ?? []);
      assert.deepEqual(all, ids, "the rest of the burst works on the same file");
    } finally {
      second.child.kill("SIGTERM");
      assert.equal((await second.child.status).code, 0);
      await second.finish();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
