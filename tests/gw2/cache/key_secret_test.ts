import assert from "node:assert/strict";
import { systemClock } from "../../../src/async/clock.ts";
import { KEY_SECRET_BYTES, loadKeySecret } from "../../../src/gw2/cache/key_secret.ts";
import { ManualClock } from "../../support/clock.ts";
import { openMemoryKv, tempKvFile } from "../../support/kv.ts";

const KEY: Deno.KvKey = ["gw2", "v1", "http://gw2.test", "key-secret"];
const clock = new ManualClock({ advance: "all" });

Deno.test("loadKeySecret() creates 32 random bytes once and then reads them back", async () => {
  using kv = await openMemoryKv();
  const first = await loadKeySecret({ kv, key: KEY, clock });
  assert.equal(first.byteLength, KEY_SECRET_BYTES);
  assert.ok(first.some((byte) => byte !== 0));
  const stored = await kv.get(KEY);
  assert.deepEqual(stored.value, first);
  assert.deepEqual(await loadKeySecret({ kv, key: KEY, clock }), first);
  assert.equal((await kv.get(KEY)).versionstamp, stored.versionstamp, "no rewrite on read");
});

Deno.test("loadKeySecret() gives every concurrent caller the one secret that won", async () => {
  using kv = await openMemoryKv();
  const secrets = await Promise.all(
    Array.from({ length: 12 }, () => loadKeySecret({ kv, key: KEY, clock })),
  );
  for (const secret of secrets) assert.deepEqual(secret, secrets[0]);
  assert.deepEqual((await kv.get(KEY)).value, secrets[0]);
});

Deno.test("loadKeySecret() agrees across two KV handles starting together", async () => {
  await using file = await tempKvFile();
  using one = await Deno.openKv(file.path);
  using two = await Deno.openKv(file.path);
  // Real pauses: SQLite's write lock between handles is held for real time, and pauses that
  // take no time (the manual clock) can spend every attempt while the other handle holds it.
  const [a, b] = await Promise.all([
    loadKeySecret({ kv: one, key: KEY, clock: systemClock }),
    loadKeySecret({ kv: two, key: KEY, clock: systemClock }),
  ]);
  assert.deepEqual(a, b);
});

Deno.test("loadKeySecret() replaces an unusable stored value", async () => {
  using kv = await openMemoryKv();
  await kv.set(KEY, "not bytes");
  const secret = await loadKeySecret({ kv, key: KEY, clock });
  assert.equal(secret.byteLength, KEY_SECRET_BYTES);
  assert.deepEqual((await kv.get(KEY)).value, secret);
});

Deno.test("loadKeySecret() rejects when KV is unusable", async () => {
  const kv = await openMemoryKv();
  kv.close();
  await assert.rejects(loadKeySecret({ kv, key: KEY, clock, maxAttempts: 2 }));
});
