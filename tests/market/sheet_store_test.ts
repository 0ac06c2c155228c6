/**
 * The market sheet in KV (`src/market/sheet_store.ts`): published whole, read back, older
 * generations deleted, a publication cut short leaving the previous sheet published.
 */

import assert from "node:assert/strict";
import type { Price } from "../../src/gw2/schemas.ts";
import { buildSheet, SHARD_ROWS, sheetRow } from "../../src/market/sheet.ts";
import { SheetStore } from "../../src/market/sheet_store.ts";
import { interceptedCommits, openMemoryKv } from "../support/kv.ts";

const NAMESPACE = "http://gw2.test";

function prices(count: number, shift: number): Price[] {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    whitelisted: false,
    buys: { quantity: 10, unit_price: index + shift },
    sells: { quantity: 20, unit_price: index + shift + 1 },
  }));
}

/** The generations stored under the sheet's prefix. */
async function generations(kv: Deno.Kv): Promise<number[]> {
  const found = new Set<number>();
  for await (const entry of kv.list({ prefix: ["market", "v1", NAMESPACE, "sheet"] })) {
    const generation = entry.key[4];
    if (typeof generation === "number") found.add(generation);
  }
  return [...found];
}

Deno.test("publish() writes the real Trading Post's size in shards, and load() reads it back", async () => {
  using kv = await openMemoryKv();
  const store = new SheetStore({ kv, namespace: NAMESPACE });
  const sheet = buildSheet(prices(27_000, 100), 1_000);
  const head = await store.publish(sheet);
  assert.equal(head.count, 27_000);
  assert.equal(head.shards, Math.ceil(27_000 / SHARD_ROWS));
  assert.deepEqual(await store.head(), head);
  const back = await store.load(head);
  assert.deepEqual(back, sheet);
});

Deno.test("each publication deletes the generations before the one it replaces", async () => {
  using kv = await openMemoryKv();
  const store = new SheetStore({ kv, namespace: NAMESPACE });
  const first = await store.publish(buildSheet(prices(10, 1), 1_000));
  const second = await store.publish(buildSheet(prices(10, 2), 2_000));
  assert.equal(second.previous, first.generation);
  const third = await store.publish(buildSheet(prices(10, 3), 2_000));
  assert.ok(third.generation > second.generation, "generations ascend within a millisecond");
  assert.deepEqual((await generations(kv)).sort(), [second.generation, third.generation]);
  assert.equal(sheetRow((await store.load(third)) ?? buildSheet([], 0), 1)?.buyPrice, 3);
});

Deno.test("a publication cut short leaves the previous sheet the published one", async () => {
  using kv = await openMemoryKv();
  const store = new SheetStore({ kv, namespace: NAMESPACE });
  const first = await store.publish(buildSheet(prices(10, 1), 1_000));
  // The next writer dies after its shards, before its head: a KV whose head write fails.
  const headless = new Proxy(kv, {
    get(target, property) {
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          const set = op.set.bind(op);
          op.set = (key, value) => {
            if (key.includes("sheet-head")) throw new Error("process killed");
            return set(key, value);
          };
          return op;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const dying = new SheetStore({ kv: headless, namespace: NAMESPACE });
  await assert.rejects(() => dying.publish(buildSheet(prices(10, 9), 5_000)), /process killed/);
  assert.deepEqual(await store.head(), first);
  assert.equal(sheetRow((await store.load(first)) ?? buildSheet([], 0), 1)?.buyPrice, 1);
  // The orphaned shards go with the next publication.
  const next = await store.publish(buildSheet(prices(10, 4), 6_000));
  assert.deepEqual((await generations(kv)).sort(), [first.generation, next.generation]);
});

Deno.test("load() reads a head whose shards are not all there as no sheet", async () => {
  using kv = await openMemoryKv();
  const store = new SheetStore({ kv, namespace: NAMESPACE });
  const head = await store.publish(buildSheet(prices(SHARD_ROWS + 5, 1), 1_000));
  await kv.delete(["market", "v1", NAMESPACE, "sheet", head.generation, 1]);
  assert.equal(await store.load(head), undefined);
  assert.equal(await store.load({ ...head, count: head.count + 1, shards: 1 }), undefined);
});

/**
 * Instance B has written its shards (commit 1) and is about to write its head (commit 2) when
 * instance A publishes a sheet of its own; then B goes on.
 */
async function publishedDuring(bTakenAt: number, aTakenAt: number) {
  const kv = await openMemoryKv();
  const store = new SheetStore({ kv, namespace: NAMESPACE });
  await store.publish(buildSheet(prices(10, 1), 1_000));
  const gate = Promise.withResolvers<void>();
  const paused = Promise.withResolvers<void>();
  const slow = new SheetStore({
    kv: interceptedCommits(kv, async (n) => {
      if (n !== 2) return;
      paused.resolve();
      await gate.promise;
    }),
    namespace: NAMESPACE,
  });
  const b = slow.publish(buildSheet(prices(10, bTakenAt), bTakenAt));
  await paused.promise;
  await store.publish(buildSheet(prices(10, aTakenAt), aTakenAt));
  gate.resolve();
  await b;
  const head = await store.head();
  const loaded = head === undefined ? undefined : await store.load(head);
  return { kv, head, loaded, kept: (await generations(kv)).sort() };
}

Deno.test("two instances publishing at once: the head always names the newer whole sheet, and the other's shards go", async () => {
  for (const [bTakenAt, aTakenAt] of [[2_000, 3_000], [4_000, 3_500]] as const) {
    const { kv, head, loaded, kept } = await publishedDuring(bTakenAt, aTakenAt);
    try {
      const newer = Math.max(aTakenAt, bTakenAt);
      assert.ok(loaded !== undefined, `B ${bTakenAt}, A ${aTakenAt}: the head names a whole sheet`);
      assert.equal(head?.takenAt, newer);
      assert.equal(sheetRow(loaded, 1)?.buyPrice, newer);
      assert.deepEqual(kept, [head?.previous ?? 0, head?.generation ?? 0].sort());
    } finally {
      kv.close();
    }
  }
});
