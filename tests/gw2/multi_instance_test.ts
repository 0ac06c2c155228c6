/**
 * Two real server processes (`deno task start`) on one KV file, in front of one fake GW2 API on
 * 127.0.0.1: one cache and one upstream budget between them.
 */

import assert from "node:assert/strict";
import { FILLER_FIRST_ID, startFakeGw2 } from "../fake_gw2/mod.ts";
import { tempKvFile } from "../support/kv.ts";
import { callTool, servePriory } from "../support/served.ts";

const TOKEN = "multi-instance-token";

Deno.test("two processes on one KV file share the cache and stay within one upstream bucket", async (t) => {
  await using file = await tempKvFile();
  // Upstream allows a burst of 5 and 5 a second; so does the budget the two servers share.
  await using fake = await startFakeGw2({ rateBurst: 5, ratePerSec: 5 });
  const env = {
    MCP_AUTH_TOKEN: TOKEN,
    GW2_API_BASE: fake.url,
    PRIORY_KV_PATH: file.path,
    GW2_RATE_BURST: "5",
    GW2_RATE_PER_SEC: "5",
  };
  // Started one after the other so the second opens an existing database.
  await using one = await servePriory(env);
  await using two = await servePriory(env);
  // Filler items, which no background job reads; counted by id: the background runs in both
  // processes too (the warm-up reads legendary items first, a crawl tick reads
  // `/v2/items?page=`), and its requests share the bucket like any other.
  const filler = (n: number) => FILLER_FIRST_ID + n;
  const itemRequests = () =>
    fake.control.requests.filter((r) =>
      r.path === "/v2/items" && /^\d+$/.test(new URLSearchParams(r.query).get("ids") ?? "") &&
      Number(new URLSearchParams(r.query).get("ids")) >= FILLER_FIRST_ID
    );

  await t.step("a record fetched through one is a cache hit in the other", async () => {
    const first = await callTool(one.url, TOKEN, "gw2_items", { ids: [filler(0)] });
    const second = await callTool(two.url, TOKEN, "gw2_items", { ids: [filler(0)] });
    assert.equal(first.isError, undefined);
    assert.deepEqual(second.structuredContent, first.structuredContent);
    assert.equal(itemRequests().length, 1, "one upstream request for both processes");
  });

  await t.step("their combined upstream traffic stays within the bucket", async () => {
    fake.control.reset(); // a full upstream bucket and an empty log
    const ids = Array.from({ length: 12 }, (_, n) => filler(n + 1));
    const started = Date.now();
    // Each process asks for its six uncached ids one call at a time: twelve upstream requests,
    // more than twice the burst, the two processes racing for tokens.
    const results = await Promise.all([one, two].map(async (server, index) => {
      const answers = [];
      for (const id of ids.filter((_, position) => position % 2 === index)) {
        answers.push(await callTool(server.url, TOKEN, "gw2_items", { ids: [id] }));
      }
      return answers;
    }));
    const elapsedMs = Date.now() - started;
    assert.ok(
      results.flat().every((result) => result.isError === undefined),
      "every call answered",
    );
    const requests = itemRequests();
    assert.equal(requests.length, ids.length);
    assert.deepEqual(
      requests.filter((request) => request.status === 429),
      [],
      "upstream never refused: the two processes spent one budget",
    );
    // Burst 5 at 5 a second: twelve requests cannot all be sent in much under 1.4 s.
    assert.ok(elapsedMs >= 1_200, `twelve requests in ${elapsedMs} ms`);
  });
});
