import assert from "node:assert/strict";
import { DocCache, PART_BYTES } from "../../../src/gw2/cache/doc_cache.ts";
import { Gw2Keys } from "../../../src/gw2/cache/keys.ts";
import { silentLogger } from "../../../src/log.ts";
import { openMemoryKv } from "../../support/kv.ts";
import { captureLogs } from "../../support/log.ts";

const keys = new Gw2Keys("http://fake.test");
const anyValue = (value: unknown) => value;

Deno.test("DocCache stores a small document inline", async () => {
  using kv = await openMemoryKv();
  const cache = new DocCache(kv, keys, silentLogger);
  const key = keys.list("currencies");
  await cache.put(key, [{ id: 1, name: "Coin" }], 42, 60_000);
  assert.deepEqual(await cache.get(key, anyValue), {
    fetchedAt: 42,
    value: [{ id: 1, name: "Coin" }],
  });
  assert.deepEqual((await kv.get(key)).value, { fetchedAt: 42, value: [{ id: 1, name: "Coin" }] });
});

Deno.test("DocCache slices a document larger than one KV value and reads it back", async () => {
  using kv = await openMemoryKv();
  const cache = new DocCache(kv, keys, silentLogger);
  const key = keys.account("hash", "account_bank");
  // ~200 KB of slots: far over KV's 64 KiB value limit.
  const bank = Array.from({ length: 3000 }, (_, index) => ({
    id: 10_000 + index,
    count: 250,
    binding: "Account",
    upgrades: [24_000 + index, 24_001 + index],
  }));
  await cache.put(key, bank, 7, 60_000);
  assert.deepEqual(await cache.get(key, anyValue), { fetchedAt: 7, value: bank });
  const parts = [];
  for await (const entry of kv.list({ prefix: [...keys.prefix, "part"] })) parts.push(entry);
  assert.ok(parts.length >= 3);
  assert.ok(
    parts.every((entry) =>
      entry.value instanceof Uint8Array && entry.value.byteLength <= PART_BYTES
    ),
  );
});

Deno.test("DocCache reads a document with a lost slice as absent", async () => {
  using kv = await openMemoryKv();
  const cache = new DocCache(kv, keys, silentLogger);
  const key = keys.account("hash", "account_materials");
  await cache.put(key, Array.from({ length: 5000 }, (_, id) => ({ id, count: id })), 1, 60_000);
  for await (const entry of kv.list({ prefix: [...keys.prefix, "part"] })) {
    await kv.delete(entry.key);
    break;
  }
  assert.equal(await cache.get(key, anyValue), undefined);
});

Deno.test("DocCache ignores a value its parser refuses, and delete() removes the head", async () => {
  using kv = await openMemoryKv();
  const cache = new DocCache(kv, keys, silentLogger);
  const key = keys.search("output", 19721);
  await cache.put(key, [1, 2, 3], 1, 60_000);
  assert.equal(await cache.get(key, () => undefined), undefined);
  await cache.delete(key);
  assert.equal((await kv.get(key)).value, null);
});

Deno.test("DocCache measures a document exactly: inline up to KV's value limit, sliced past it", async () => {
  using kv = await openMemoryKv();
  const cache = new DocCache(kv, keys, silentLogger);
  // 40 KB of JSON, 40 KB serialized: one value.
  const wide = keys.search("input", 1);
  await cache.put(wide, ["x".repeat(40_000)], 1, 60_000);
  assert.ok(Reflect.has((await kv.get(wide)).value ?? {}, "value"), "stored inline");
  // 32 KB of JSON but 72 KB serialized: sliced, and read back whole.
  const halves = Array(8000).fill(0.5);
  const deep = keys.search("input", 2);
  await cache.put(deep, halves, 1, 60_000);
  assert.ok(Reflect.has((await kv.get(deep)).value ?? {}, "parts"), "stored in slices");
  assert.deepEqual((await cache.get(deep, anyValue))?.value, halves);
});

Deno.test("DocCache does not cache a document of more slices than one commit holds, nor leave slices", async () => {
  using kv = await openMemoryKv();
  const { log, lines } = captureLogs();
  const cache = new DocCache(kv, keys, log);
  const key = keys.account("hash", "account_bank");
  // 13 slices of JSON (12 fit): small enough that KV itself would take the commit.
  const bank = Array.from({ length: 730 }, (_, id) => ({ id, note: "b".repeat(985) }));
  assert.ok(JSON.stringify(bank).length > 12 * PART_BYTES);
  assert.ok(JSON.stringify(bank).length < 13 * PART_BYTES);
  await cache.put(key, bank, 1, 60_000);
  assert.equal((await kv.get(key)).value, null);
  let slices = 0;
  for await (const _ of kv.list({ prefix: [...keys.prefix, "part"] })) slices++;
  assert.equal(slices, 0, "no slice left behind");
  assert.match(lines.join("\n"), /skipped an oversized document/);
});
