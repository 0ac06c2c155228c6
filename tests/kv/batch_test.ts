import assert from "node:assert/strict";
import {
  BATCH_BYTES,
  BATCH_MUTATIONS,
  batches,
  commitInBatches,
  type KvWrite,
} from "../../src/kv/batch.ts";
import { openMemoryKv } from "../support/kv.ts";

Deno.test("batches() keeps each commit under the mutation and byte bounds, in order", () => {
  const small: KvWrite[] = Array.from({ length: 1_234 }, (_, i) => ({ key: ["k", i], value: i }));
  const counted = batches(small);
  assert.deepEqual(counted.map((batch) => batch.length), [500, 500, 234]);
  assert.deepEqual(counted.flat(), small);

  const big: KvWrite[] = Array.from({ length: 30 }, (_, i) => ({
    key: ["big", i],
    value: new Uint8Array(60_000),
  }));
  const sized = batches(big);
  for (const batch of sized) {
    assert.ok(batch.length * 60_000 <= BATCH_BYTES, `${batch.length} values of 60 KB`);
    assert.ok(batch.length <= BATCH_MUTATIONS);
  }
  assert.equal(sized.flat().length, 30);
});

Deno.test("commitInBatches() writes and deletes past one atomic commit's limits", async () => {
  using kv = await openMemoryKv();
  // 2,500 sets of 1 KB: five commits' worth of mutations, 2.5 MB (three commits' worth of bytes).
  const writes = Array.from({ length: 2_500 }, (_, i) => ({
    key: ["v", i],
    value: new Uint8Array(1_000),
  }));
  const commits = await commitInBatches(kv, writes);
  assert.ok(commits >= 5);
  let count = 0;
  for await (const _ of kv.list({ prefix: ["v"] })) count++;
  assert.equal(count, 2_500);
  await commitInBatches(kv, writes.map(({ key }) => ({ key })));
  for await (const _ of kv.list({ prefix: ["v"] })) assert.fail("deleted");
});

Deno.test("commitInBatches() stops when its signal aborts", async () => {
  using kv = await openMemoryKv();
  const stop = new AbortController();
  stop.abort(new Error("stopped"));
  await assert.rejects(commitInBatches(kv, [{ key: ["x"], value: 1 }], stop.signal), /stopped/);
  assert.equal((await kv.get(["x"])).value, null);
});
