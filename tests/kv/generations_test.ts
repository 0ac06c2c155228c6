/**
 * Datasets published whole (`src/kv/generations.ts`): writes split under KV's commit limits,
 * values over 64 KiB refused before anything is written, a head that names one generation, a
 * write cut short leaving the previous one published, pruning.
 */

import assert from "node:assert/strict";
import { BATCH_BYTES, BATCH_MUTATIONS } from "../../src/kv/batch.ts";
import { type GenerationHead, GenerationStore } from "../../src/kv/generations.ts";
import { openMemoryKv } from "../support/kv.ts";

function parseHead(value: unknown): GenerationHead | undefined {
  const generation: unknown = typeof value === "object" && value !== null
    ? Reflect.get(value, "generation")
    : undefined;
  return typeof generation === "number" ? { generation } : undefined;
}

function store(kv: Deno.Kv): GenerationStore<GenerationHead> {
  return new GenerationStore({
    kv,
    headKey: ["t", "head"],
    dataPrefix: ["t", "data"],
    parseHead,
  });
}

/** `kv` counting the commits of its atomic operations. */
function counting(kv: Deno.Kv): { kv: Deno.Kv; commits: () => number } {
  let commits = 0;
  const wrapped = new Proxy(kv, {
    get(target, property) {
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => (commits++, commit());
          return op;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: wrapped, commits: () => commits };
}

Deno.test("write() splits a generation into commits within KV's limits, and list() reads it back whole", async () => {
  using kv = await openMemoryKv();
  const counted = counting(kv);
  const generations = store(counted.kv);
  // 40 values of 60,000 bytes: 2.4 MB, far more than one commit may carry.
  const values = Array.from({ length: 40 }, (_, index) => new Uint8Array(60_000).fill(index));
  await generations.write(7, values.map((value, index) => [[index], value]));
  const perCommit = Math.floor(BATCH_BYTES / 60_100);
  assert.equal(counted.commits(), Math.ceil(40 / perCommit), "as few as the batches allow");
  const read: Uint8Array[] = [];
  for await (const entry of generations.list(7)) read.push(entry.value as Uint8Array);
  assert.deepEqual(read, values);
});

Deno.test("write() splits past a commit's mutations", async () => {
  using kv = await openMemoryKv();
  const counted = counting(kv);
  await store(counted.kv).write(1, Array.from({ length: 2_500 }, (_, index) => [[index], index]));
  assert.equal(counted.commits(), Math.ceil(2_500 / BATCH_MUTATIONS));
});

Deno.test("write() refuses a value over 64 KiB before writing anything", async () => {
  using kv = await openMemoryKv();
  const generations = store(kv);
  await assert.rejects(
    () => generations.write(1, [[[0], new Uint8Array(10)], [[1], new Uint8Array(65_537)]]),
    RangeError,
  );
  assert.equal((await Array.fromAsync(generations.list(1))).length, 0);
});

Deno.test("a write cut short leaves the previous generation published; prune() drops the rest", async () => {
  using kv = await openMemoryKv();
  const generations = store(kv);
  await generations.write(1, [[[0], "first"]]);
  await generations.publish(kv.atomic(), { generation: 1 }).commit();
  // Generation 2 half written, never published (the writer died).
  await generations.write(2, [[[0], "second"]]);
  assert.deepEqual(await generations.head(), { generation: 1 });
  await generations.write(3, [[[0], "third"]]);
  await generations.publish(kv.atomic(), { generation: 3 }).commit();
  await generations.prune([3, 1]);
  const left = await Array.fromAsync(kv.list({ prefix: ["t", "data"] }));
  assert.deepEqual(left.map((entry) => entry.key), [["t", "data", 1, 0], ["t", "data", 3, 0]]);
  await generations.deleteGeneration(1);
  assert.deepEqual(
    (await Array.fromAsync(kv.list({ prefix: ["t", "data"] }))).map((entry) => entry.value),
    ["third"],
  );
});
