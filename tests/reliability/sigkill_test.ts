/**
 * Crash safety, with real processes: `deno task start` on a KV file, a burst of tool calls, the
 * process killed with SIGKILL mid-burst, then a second server on the same file. Every record a
 * call had answered before the kill must be served from KV afterwards without asking upstream,
 * and the rest of the burst must work (the file, the bucket entry and the cache are intact).
 * Real time, about two seconds: process start-up is what it measures.
 */
import assert from "node:assert/strict";
import { chunk } from "../../src/async/concurrency.ts";
import { startFakeGw2 } from "../fake_gw2/mod.ts";
import { TEST_TOKEN } from "../support/app.ts";
import { tempKvFile } from "../support/kv.ts";
import { callTool, servePriory } from "../support/served.ts";

/** `gw2_items` over HTTP; the ids it found, or undefined when the call failed. */
async function items(url: string, ids: readonly number[]): Promise<number[] | undefined> {
  const result = await callTool(url, TEST_TOKEN, "gw2_items", { ids });
  const content = result.structuredContent as { items: { id: number }[] } | undefined;
  if (result.isError === true || content === undefined) return undefined;
  return content.items.map((item) => item.id);
}

Deno.test("a server killed with SIGKILL mid-burst restarts on the same KV file with its data intact", async () => {
  await using fake = await startFakeGw2();
  await using file = await tempKvFile();
  const env = { MCP_AUTH_TOKEN: TEST_TOKEN, PRIORY_KV_PATH: file.path, GW2_API_BASE: fake.url };
  const ids = [...fake.world.items.keys()].slice(0, 200);
  // Four clients, each calling for 5 ids at a time, one call after another; every upstream
  // request is held 50 ms, so the kill lands mid-burst.
  fake.control.setLatency(50, "/v2/items");
  await using first = await servePriory(env);
  const answered: number[][] = [];
  const groups = chunk(ids, 5);
  const burst = [0, 1, 2, 3].map(async (client) => {
    try {
      for (const group of groups.filter((_, index) => index % 4 === client)) {
        const found = await items(first.url, group);
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
  const killed = first.stop("SIGKILL");
  await Promise.all(burst);
  assert.equal((await killed).code, 137, "ended by SIGKILL (128 + 9)");
  const before = answered.flat();
  assert.ok(before.length >= 40 && before.length < ids.length, `${before.length} answered`);

  fake.control.reset();
  await using second = await servePriory(env);
  for (const group of chunk(before, 100)) {
    assert.deepEqual(await items(second.url, group), group);
  }
  // Item reads by id only: the background jobs (their warm-up, a crawl tick) read the fake too.
  const itemReads = fake.control.requests.filter((r) => r.path === "/v2/items" && r.idCount > 0);
  assert.deepEqual(itemReads, [], "everything answered before the kill was in KV");
  const all = (await Promise.all(chunk(ids, 100).map((group) => items(second.url, group))))
    .flatMap((found) => found ?? []);
  assert.deepEqual(all, ids, "the rest of the burst works on the same file");
  assert.equal((await second.stop("SIGTERM")).code, 0);
});
