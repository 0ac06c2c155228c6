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
