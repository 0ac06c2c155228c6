import assert from "node:assert/strict";
import type { RecordEntry } from "../../../src/gw2/cache/record_cache.ts";
import { RECORD_MEMORY_ENTRIES, RecordMemory } from "../../../src/gw2/cache/record_memory.ts";
import { type Recipe, RecipeSchema } from "../../../src/gw2/schemas.ts";
import { getWorld } from "../../fake_gw2/mod.ts";
import { retainedBy } from "../../support/heap.ts";

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

Deno.test("RecordMemory with a weight bound drops the least recently used until the weights fit", () => {
  // Weighs each value by its length, as books are weighed by their levels; at most 10 together.
  const memory = new RecordMemory<string>(100, { max: 10, weigh: (value) => value.length });
  const sized = (fetchedAt: number, value: string): RecordEntry<string> => ({
    fetchedAt,
    found: true,
    value,
  });
  memory.set(1, sized(1, "aaaa"));
  memory.set(2, sized(2, "bbbb"));
  memory.set(3, { fetchedAt: 3, found: false });
  assert.deepEqual([memory.size, memory.weight], [3, 9], "4 + 4 + 1 for a missing record");
  memory.set(4, sized(4, "cc"));
  assert.equal(memory.get(1), undefined, "11 > 10: the oldest went");
  assert.deepEqual([memory.size, memory.weight], [3, 7]);
  memory.set(2, sized(5, "d"));
  assert.deepEqual([memory.size, memory.weight], [3, 4], "a replaced entry gives back its weight");
  memory.set(5, sized(6, "e".repeat(11)));
  assert.equal(memory.get(5), undefined, "heavier than the whole bound: not held");
  assert.deepEqual(
    [2, 3, 4].map((id) => memory.get(id)?.fetchedAt),
    [5, 3, 4],
    "nothing dropped for it",
  );
});

Deno.test("a full default memory of the largest records (recipes) stays under 3 MB of heap", () => {
  // Every bulk endpoint has one, and V8 grows its heap to several times what is live
  // (docs/performance.md, "Memory"): 10,000 recipes measured ~8 MB, 2,500 ~2.1 MB.
  const recipes = [...getWorld().recipes.values()];
  const bytes = retainedBy(() => {
    const memory = new RecordMemory<Recipe>();
    for (let index = 0; index < 2 * RECORD_MEMORY_ENTRIES; index++) {
      // A fresh parsed copy under a new id, as records read from KV or upstream are.
      const raw = recipes[index % recipes.length];
      const value = RecipeSchema.parse(JSON.parse(JSON.stringify({ ...raw, id: index + 1 })));
      memory.set(index + 1, { fetchedAt: index, found: true, value });
    }
    assert.equal(memory.size, RECORD_MEMORY_ENTRIES);
    return memory;
  });
  if (bytes === undefined) return; // no forced collection on this runtime (Deno 2.5)
  assert.ok(bytes < 3 * 2 ** 20, `${(bytes / 2 ** 20).toFixed(1)} MB`);
});
