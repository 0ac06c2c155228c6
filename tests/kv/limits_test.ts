/**
 * `kvValueSizeBound` decides Deno KV's 64 KiB value limit exactly: checked against the running
 * Deno's own KV at the edge of the limit (so it also holds on the Deploy runtime, 2.5), and it is
 * never below the bytes KV stores — V8's serialization, `node:v8`'s `serialize` — checked over
 * the fake's every record and values built to sit on the serializer's corners.
 */
import assert from "node:assert/strict";
import { serialize } from "node:v8";
import { KV_VALUE_MAX_BYTES, kvValueSizeBound } from "../../src/kv/limits.ts";
import { getWorld } from "../fake_gw2/mod.ts";
import { openMemoryKv } from "../support/kv.ts";
import { seeded } from "../support/random.ts";

/** The bytes KV stores for a value other than a `Uint8Array`: its V8 serialization. */
function serialized(value: unknown): number {
  return serialize(value).byteLength;
}

async function accepted(kv: Deno.Kv, value: unknown): Promise<boolean> {
  try {
    await kv.set(["size"], value);
    return true;
  } catch {
    return false;
  }
}

Deno.test("kvValueSizeBound() and the serialized size agree with KV at the edge of its value limit", async () => {
  using kv = await openMemoryKv();
  const edges: [string, (n: number) => unknown, number][] = [
    ["doubles", (n) => Array(n).fill(0.5), 7280],
    ["one-byte string", (n) => "a".repeat(n), 65_530],
    ["two-byte string", (n) => "\u0101".repeat(n), 32_765],
    [
      "records",
      (n) => Array.from({ length: n }, (_, id) => ({ id, name: `Item ${id}`, flags: ["A"] })),
      1_600,
    ],
  ];
  for (const [label, make, around] of edges) {
    // Find the largest n KV accepts near `around`, then compare sizes on both sides of it.
    let n = around - 64;
    while (await accepted(kv, make(n + 1))) n++;
    assert.ok(n > around - 64, `${label}: started above the edge`);
    for (const size of [serialized, kvValueSizeBound]) {
      assert.ok(size(make(n)) <= KV_VALUE_MAX_BYTES, `${size.name} ${label}: ${n} fits`);
      assert.ok(size(make(n + 1)) > KV_VALUE_MAX_BYTES, `${size.name} ${label}: ${n + 1} does not`);
    }
  }
});

Deno.test("kvValueSizeBound() counts a Uint8Array as its raw length, and JSON is no estimate", () => {
  assert.equal(kvValueSizeBound(new Uint8Array(60_000)), 60_000);
  const halves = Array(8000).fill(0.5);
  assert.ok(JSON.stringify(halves).length < 32_768);
  assert.ok(kvValueSizeBound(halves) > KV_VALUE_MAX_BYTES);
});

/** Values on the corners of V8's format: varint widths, two-byte and lone-surrogate strings,
 * index keys, holes, `undefined` members (which JSON would drop), shared and nested objects. */
function corners(): unknown[] {
  const shared = { id: 1, name: "shared" };
  const sparse: unknown[] = [];
  sparse[40] = "far";
  const named = Object.assign([1, 2, 3], { label: "extra" });
  const bare: Record<string, unknown> = Object.create(null);
  bare.a = 1;
  return [
    null,
    undefined,
    true,
    0,
    -0,
    0.5,
    -1,
    2 ** 31,
    -(2 ** 31) - 1,
    Number.MAX_VALUE,
    NaN,
    "",
    "a".repeat(63),
    "a".repeat(64),
    "a".repeat(8_191),
    "a".repeat(8_192),
    "\u0101",
    "ā".repeat(8_192),
    "mixed é and 日本",
    "\ud800 lone",
    "😀".repeat(100),
    [],
    {},
    [[], [[]], {}],
    { 0: "a", 1: "b", 4294967294: "c", "-1": "d", "01": "e" },
    { a: undefined, b: [undefined, null] },
    [1, , 3],
    sparse,
    named,
    bare,
    [shared, shared, { inner: shared }],
    { deep: { deeper: { deepest: [{ id: 1, flags: ["A", "B"] }] } } },
  ];
}

/** Seeded plain data of every kind the walk handles, nested up to `depth`. */
function randomValue(random: ReturnType<typeof seeded>, depth: number): unknown {
  switch (random.int(0, depth > 0 ? 7 : 4)) {
    case 0:
      return random.int(-(2 ** 40), 2 ** 40) / random.pick([1, 2, 3, 1000]);
    case 1:
      return [null, undefined, true, false][random.int(0, 3)];
    case 2:
      return String.fromCharCode(
        ...Array.from(
          { length: random.int(0, 300) },
          () => random.int(0, random.pick([0x7f, 0xff, 0xffff])),
        ),
      );
    case 3:
      return random.int(-100, 100);
    case 4:
      return random.pick(["Exotic", "Glob of Ectoplasm", "Berserker's", "Ōkami", ""]);
    case 5:
    case 6:
      return Object.fromEntries(
        Array.from({ length: random.int(0, 8) }, (_, index) => [
          random.chance(0.2) ? String(index) : `key${random.int(0, 999)}`,
          randomValue(random, depth - 1),
        ]),
      );
    default:
      return Array.from({ length: random.int(0, 12) }, () => randomValue(random, depth - 1));
  }
}

Deno.test("kvValueSizeBound() is never below the exact size", async (t) => {
  const below = (values: Iterable<unknown>) =>
    [...values].filter((value) => kvValueSizeBound(value) < serialized(value));
  await t.step("on the format's corners", () => assert.deepEqual(below(corners()), []));
  await t.step("on 2,000 seeded values", () => {
    const random = seeded("kv value size bound");
    assert.deepEqual(below(Array.from({ length: 2_000 }, () => randomValue(random, 4))), []);
  });
  await t.step("on every record of the fake, as the cache stores it", () => {
    const world = getWorld();
    const entries = [world.items, world.recipes, world.prices].flatMap((records) =>
      [...records.values()].map((value) => ({ fetchedAt: 1_700_000_000_000, found: true, value }))
    );
    assert.ok(entries.length > 10_000);
    assert.deepEqual(below(entries), []);
  });
});

Deno.test("kvValueSizeBound() stays within a small factor of the exact size on records", () => {
  // The commit budget sums bounds, so a loose bound means needlessly many commits.
  const world = getWorld();
  for (const records of [world.items, world.recipes, world.prices]) {
    for (const value of [...records.values()].slice(0, 500)) {
      const entry = { fetchedAt: 1_700_000_000_000, found: true, value };
      assert.ok(kvValueSizeBound(entry) <= 2.5 * serialized(entry), JSON.stringify(value));
    }
  }
});

Deno.test("kvValueSizeBound() serializes what it cannot walk", () => {
  class Stored {
    constructor(readonly id: number) {}
  }
  const cycle: Record<string, unknown> = { id: 1 };
  cycle.self = cycle;
  for (const value of [new Map([[1, "a"]]), new Date(0), new Stored(7), cycle, [new Set([1])]]) {
    assert.equal(kvValueSizeBound(value), serialized(value));
  }
  assert.equal(kvValueSizeBound(new Uint8Array(60_000)), 60_000);
  assert.throws(() => kvValueSizeBound({ callback: () => {} }));
});
