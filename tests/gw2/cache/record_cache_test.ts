import assert from "node:assert/strict";
import { Gw2Keys } from "../../../src/gw2/cache/keys.ts";
import { RecordCache, type RecordWrite } from "../../../src/gw2/cache/record_cache.ts";
import { silentLogger } from "../../../src/log.ts";
import { ManualClock } from "../../support/clock.ts";
import { openMemoryKv, stallingKv } from "../../support/kv.ts";
import { captureLogs } from "../../support/log.ts";

const keys = new Gw2Keys("http://fake.test");

function parseName(value: unknown): { id: number; name: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const id: unknown = Reflect.get(value, "id");
  const name: unknown = Reflect.get(value, "name");
  return typeof id === "number" && typeof name === "string" ? { id, name } : undefined;
}

Deno.test("RecordCache.putMany() and getMany() round-trip records and unknown-id markers", async () => {
  using kv = await openMemoryKv();
  const cache = new RecordCache(kv, keys, silentLogger);
  await cache.putMany("item", [
    {
      id: 1,
      entry: { fetchedAt: 10, found: true, value: { id: 1, name: "one" } },
      expireInMs: 1000,
    },
    { id: 2, entry: { fetchedAt: 20, found: false }, expireInMs: 1000 },
  ]);
  const entries = await cache.getMany("item", [1, 2, 3], parseName);
  assert.deepEqual([...entries], [
    [1, { fetchedAt: 10, found: true, value: { id: 1, name: "one" } }],
    [2, { fetchedAt: 20, found: false }],
  ]);
  assert.deepEqual((await kv.get(keys.record("item", 2))).value, { fetchedAt: 20, found: false });
});

Deno.test("RecordCache.getMany() reads more than ten keys and skips values that no longer parse", async () => {
  using kv = await openMemoryKv();
  const cache = new RecordCache(kv, keys, silentLogger);
  const writes: RecordWrite<{ id: number; name: string }>[] = Array.from(
    { length: 45 },
    (_, index) => ({
      id: index + 1,
      entry: { fetchedAt: 1, found: true, value: { id: index + 1, name: `n${index + 1}` } },
      expireInMs: 1000,
    }),
  );
  await cache.putMany("item", writes);
  await kv.set(keys.record("item", 7), { fetchedAt: 1, found: true, value: { id: 7 } });
  await kv.set(keys.record("item", 8), "garbage");
  const ids = writes.map((write) => write.id);
  const entries = await cache.getMany("item", ids, parseName);
  assert.equal(entries.size, 43);
  assert.ok(!entries.has(7) && !entries.has(8));
});

Deno.test("RecordCache.putMany() writes more than KV's 1000 mutations per commit", async () => {
  using kv = await openMemoryKv();
  const cache = new RecordCache(kv, keys, silentLogger);
  const writes = Array.from({ length: 2500 }, (_, index) => ({
    id: index + 1,
    entry: { fetchedAt: 1, found: true as const, value: { id: index + 1, name: "x".repeat(200) } },
    expireInMs: 1000,
  }));
  await cache.putMany("recipe", writes);
  let count = 0;
  for await (const _ of kv.list({ prefix: [...keys.prefix, "rec", "recipe"] })) count++;
  assert.equal(count, 2500);
});

Deno.test("RecordCache.putMany() skips an oversized record and logs it", async () => {
  using kv = await openMemoryKv();
  const { log, lines } = captureLogs();
  const cache = new RecordCache(kv, keys, log);
  await cache.putMany("item", [
    {
      id: 1,
      entry: { fetchedAt: 1, found: true, value: { id: 1, name: "x".repeat(70_000) } },
      expireInMs: 1000,
    },
    { id: 2, entry: { fetchedAt: 1, found: true, value: { id: 2, name: "ok" } }, expireInMs: 1000 },
  ]);
  assert.equal((await kv.get(keys.record("item", 1))).value, null);
  assert.notEqual((await kv.get(keys.record("item", 2))).value, null);
  assert.match(lines.join("\n"), /oversized record/);
});

Deno.test("RecordCache degrades to a miss when KV fails", async () => {
  const kv = await openMemoryKv();
  kv.close();
  const { log, lines } = captureLogs();
  const cache = new RecordCache(kv, keys, log);
  assert.equal((await cache.getMany("item", [1, 2], parseName)).size, 0);
  await cache.putMany("item", [{ id: 1, entry: { fetchedAt: 1, found: false }, expireInMs: 1 }]);
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? "", /gw2 cache read failed/);
});

Deno.test("RecordCache.putMany() measures records exactly: one KV refuses is skipped alone", async () => {
  using kv = await openMemoryKv();
  const { log, lines } = captureLogs();
  const cache = new RecordCache(kv, keys, log);
  // 8,000 × 0.5 is 32 KB of JSON but 72 KB serialized: KV refuses it. A 40,000-character name is
  // 40 KB of JSON and as much serialized: KV takes it.
  const writes: RecordWrite<unknown>[] = Array.from({ length: 500 }, (_, index) => ({
    id: index + 1,
    entry: { fetchedAt: 1, found: true, value: { id: index + 1, name: "n" } },
    expireInMs: 1000,
  }));
  writes[100] = {
    id: 101,
    entry: { fetchedAt: 1, found: true, value: { id: 101, data: Array(8000).fill(0.5) } },
    expireInMs: 1000,
  };
  writes[200] = {
    id: 201,
    entry: { fetchedAt: 1, found: true, value: { id: 201, name: "x".repeat(40_000) } },
    expireInMs: 1000,
  };
  await cache.putMany("item", writes);
  let stored = 0;
  for await (const _ of kv.list({ prefix: [...keys.prefix, "rec", "item"] })) stored++;
  assert.equal(stored, 499, "every record but the oversized one");
  assert.equal((await kv.get(keys.record("item", 101))).value, null);
  assert.notEqual((await kv.get(keys.record("item", 201))).value, null);
  const warnings = lines.filter((line) => line.includes('"level":"warn"'));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? "", /oversized record.*"id":101/);
});

Deno.test("RecordCache gives up on a stalled KV within its bound: a miss, and a logged write", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const { log, lines } = captureLogs();
  const cache = new RecordCache(
    stallingKv(kv, ["getMany", "commit"]),
    keys,
    log,
    { ms: 2_000, clock },
  );
  const read = cache.getMany("item", [1, 2], parseName);
  clock.advance(2_000);
  assert.equal((await read).size, 0);
  const write = cache.putMany("item", [
    { id: 1, entry: { fetchedAt: 1, found: false }, expireInMs: 1 },
  ]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  clock.advance(2_000);
  await write;
  assert.match(lines[0] ?? "", /gw2 cache read failed.*KvTimeoutError/);
  assert.match(lines[1] ?? "", /gw2 cache write failed.*KvTimeoutError/);
});
