/**
 * `kvValueSize` is the bytes Deno KV counts against its 64 KiB value limit: checked against the
 * running Deno's own KV at the edge of the limit (so it also holds on the Deploy runtime, 2.5).
 */
import assert from "node:assert/strict";
import { KV_VALUE_MAX_BYTES, kvValueSize } from "../../src/kv/limits.ts";
import { openMemoryKv } from "../support/kv.ts";

async function accepted(kv: Deno.Kv, value: unknown): Promise<boolean> {
  try {
    await kv.set(["size"], value);
    return true;
  } catch {
    return false;
  }
}

Deno.test("kvValueSize() agrees with KV at the edge of its value limit", async () => {
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
    assert.ok(kvValueSize(make(n)) <= KV_VALUE_MAX_BYTES, `${label}: ${n} fits`);
    assert.ok(kvValueSize(make(n + 1)) > KV_VALUE_MAX_BYTES, `${label}: ${n + 1} does not`);
  }
});

Deno.test("kvValueSize() counts a Uint8Array as its raw length, and JSON is no estimate", () => {
  assert.equal(kvValueSize(new Uint8Array(60_000)), 60_000);
  const halves = Array(8000).fill(0.5);
  assert.ok(JSON.stringify(halves).length < 32_768);
  assert.ok(kvValueSize(halves) > KV_VALUE_MAX_BYTES);
});
