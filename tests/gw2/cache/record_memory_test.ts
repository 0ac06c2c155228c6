import assert from "node:assert/strict";
import type { RecordEntry } from "../../../src/gw2/cache/record_cache.ts";
import { RecordMemory } from "../../../src/gw2/cache/record_memory.ts";

const entry = (fetchedAt: number): RecordEntry<string> => ({
  fetchedAt,
  found: true,
  value: `v${fetchedAt}`,
});

Deno.test("RecordMemory holds at most its bound, dropping the least recently used id", () => {
  const memory = new RecordMemory<string>(3);
  for (const id of [1, 2, 3]) memory.set(id, entry(id));
  assert.equal(memory.get(1)?.fetchedAt, 1, "reading 1 makes 2 the least recently used");
  memory.set(4, entry(4));
  assert.equal(memory.size, 3);
  assert.equal(memory.get(2), undefined);
  assert.deepEqual([1, 3, 4].map((id) => memory.get(id)?.fetchedAt), [1, 3, 4]);
});

Deno.test("RecordMemory replaces an id's entry without growing, and holds nothing at 0", () => {
  const memory = new RecordMemory<string>(2);
  memory.set(1, entry(10));
  memory.set(1, entry(20));
  memory.set(2, entry(30));
  assert.equal(memory.size, 2);
  assert.equal(memory.get(1)?.fetchedAt, 20);
  const none = new RecordMemory<string>(0);
  none.set(1, entry(1));
  assert.equal(none.size, 0);
  assert.equal(none.get(1), undefined);
});
