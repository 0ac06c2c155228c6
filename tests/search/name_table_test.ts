import assert from "node:assert/strict";
import { MAX_TERMS, type NameEntry, NameTable } from "../../src/search/name_table.ts";
import { getWorld, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { retainedBy } from "../support/heap.ts";
import { syntheticNameEntries } from "../support/synthetic_names.ts";

/** The fake's whole catalogue (8,242 items: real, stand-in and filler names). */
function worldTable(): NameTable {
  const table = new NameTable();
  table.upsert(getWorld().items.values());
  return table;
}

function entry(id: number, name: string): NameEntry {
  return { id, name, rarity: "Rare", type: "Trophy" };
}

function ids(table: NameTable, query: string, limit = 10): number[] {
  return table.search(query, limit).map((match) => match.id);
}

Deno.test("NameTable finds Glob of Ectoplasm first however it is asked for", async (t) => {
  const table = worldTable();
  assert.equal(table.size, getWorld().items.size);
  for (const query of ["glob of ecto", "ectoplasm", "Glob of Ectoplasmm", "GLOB OF ECTOPLASM"]) {
    await t.step(query, () => {
      assert.equal(ids(table, query)[0], WELL_KNOWN.globOfEctoplasm);
    });
  }
});

Deno.test('NameTable puts Sunrise in the top five for "sunrise", first as the exact match', () => {
  const found = ids(worldTable(), "sunrise", 5);
  assert.equal(found[0], WELL_KNOWN.sunrise);
  assert.ok(found.includes(WELL_KNOWN.giftOfSunrise), "word matches follow");
});

Deno.test("NameTable ranks exact > prefix > word > fuzzy, each tier entirely first", () => {
  const table = new NameTable();
  table.upsert([
    entry(1, "Mystic Forge Stone"), // word
    entry(2, "Stone of the Mystic"), // word, longer
    entry(3, "Mystic Stone"), // exact
    entry(4, "Mystic Stones of Old"), // prefix
    entry(5, "Mystik Stone"), // fuzzy (one typo)
    entry(6, "Unrelated Relic"),
  ]);
  assert.deepEqual(ids(table, "mystic stone"), [3, 4, 1, 2, 5]);
  assert.deepEqual(ids(table, "MYSTIC STONE", 2), [3, 4], "limit keeps the best");
});

Deno.test("NameTable breaks ties deterministically: whole words, then shorter, then lower id", () => {
  const table = new NameTable();
  table.upsert([
    entry(40, "Sunrise Dye"),
    entry(30, "Sunrise Banner"),
    entry(20, "Sunrises Banner"),
    entry(10, "Gift of Sunrise"),
    entry(11, "Ode to Sunrise"),
  ]);
  // Prefix tier: the whole word "sunrise" before "sunrises", then the shorter name; then the
  // word tier, shorter first.
  assert.deepEqual(ids(table, "sunrise"), [40, 30, 20, 11, 10]);
  for (const order of [[12, 13], [13, 12]]) {
    const same = new NameTable();
    same.upsert(order.map((id) => entry(id, id === 12 ? "Ode of Sunrise" : "Gem of Sunrise")));
    assert.deepEqual(ids(same, "sunrise"), [12, 13], "equal length: lower id, in any order");
  }
});

Deno.test("NameTable forgives one typo in a short word and two in a long one", () => {
  const table = worldTable();
  assert.equal(ids(table, "mystic clvoer")[0], WELL_KNOWN.mysticClover);
  assert.equal(ids(table, "sunrse")[0], WELL_KNOWN.sunrise);
  assert.equal(ids(table, "glob of ectoplsm")[0], WELL_KNOWN.globOfEctoplasm, "while typing");
  assert.deepEqual(ids(table, "ox"), [], "two letters get no typo allowance");
});

Deno.test("NameTable upsert replaces a renamed entry and reports what changed", () => {
  const table = new NameTable();
  assert.equal(table.upsert([entry(1, "Old Name"), entry(2, "Other")]), 2);
  assert.equal(table.upsert([entry(1, "Old Name")]), 0, "an identical entry changes nothing");
  assert.equal(table.differs(entry(1, "Old Name")), false);
  assert.equal(table.upsert([entry(1, "New Name")]), 1);
  assert.deepEqual(ids(table, "old"), []);
  assert.deepEqual(ids(table, "new name"), [1]);
  assert.equal(table.size, 2);
  assert.deepEqual(table.get(1), entry(1, "New Name"));
});

Deno.test("NameTable.pack() packs what waits beside the packed names; searches answer the same", () => {
  const table = worldTable();
  const fresh = Math.max(...getWorld().items.keys()) + 1;
  const changes = [
    { ...entry(WELL_KNOWN.twilight, "Düsternis"), rarity: "Legendary", type: "Weapon" },
    entry(19721, "Ektoplasmabatzen"),
    entry(fresh, "Neuer Gegenstand"),
  ];
  table.upsert(changes, "de");
  table.upsert([entry(WELL_KNOWN.twilight, "暗暮")], "zh");
  assert.equal(table.pending, 4, "a few changes wait unpacked");
  const queries = ["dusternis", "düstrenis", "ektoplasma", "neuer geg", "暗", "glob of ecto"];
  const before = queries.map((query) => table.search(query, 5));
  table.pack("de");
  assert.equal(table.pending, 1, "only German packed");
  table.pack();
  assert.equal(table.pending, 0);
  assert.deepEqual(queries.map((query) => table.search(query, 5)), before);
  assert.equal(table.size, getWorld().items.size + 1);
});

Deno.test("NameTable keeps only id, name, rarity and type of what it is given", () => {
  const table = new NameTable();
  const item = { ...entry(7, "Thing"), flags: ["NoSell"], chat_link: "[&AgEHAAAA]" };
  table.upsert([item]);
  assert.deepEqual(Object.keys(table.get(7) ?? {}), ["id", "name", "rarity", "type"]);
});

Deno.test("NameTable returns nothing for a query without letters or digits, or limit 0", () => {
  const table = worldTable();
  assert.deepEqual(table.search("!!!", 10), []);
  assert.deepEqual(table.search("ecto", 0), []);
  const words = Array.from({ length: MAX_TERMS }, (_, index) => `w${index}`);
  const wordy = new NameTable();
  wordy.upsert([entry(1, words.join(" "))]);
  assert.deepEqual(ids(wordy, `${words.join(" ")} nothing matches this`), [1], "past MAX_TERMS");
});

Deno.test("NameTable keeps a name in under 400 bytes of heap, strings included", () => {
  // Every instance holds the whole index (75,000 names at full scale), and V8 grows its heap to
  // several times what is live. A row object, its name and folded name, and a posting slot per
  // word measure ~310 bytes; a set per word and a words array per row measured ~480.
  const count = 30_000;
  const bytes = retainedBy(() => {
    const table = new NameTable();
    // Fresh strings, as names read from KV are.
    table.upsert(JSON.parse(JSON.stringify(syntheticNameEntries(count))));
    assert.equal(table.size, count);
    return table;
  });
  if (bytes === undefined) return; // no forced collection on this runtime (Deno 2.5)
  assert.ok(bytes / count < 400, `${Math.round(bytes / count)} bytes per name`);
});

Deno.test("NameTable.size counts an item once however many languages name it, through packs and renames", () => {
  const table = new NameTable();
  table.upsert([entry(1, "Twilight"), entry(2, "Sunrise")], "en");
  table.upsert([entry(1, "Düsternis")], "de");
  assert.equal(table.size, 2);
  table.pack();
  table.upsert([entry(3, "Crépuscule"), entry(1, "Crépuscule")], "fr");
  table.upsert([entry(1, "Dusk")], "en");
  assert.equal(table.size, 3, "a rename and a name in a third language add nothing; a new id does");
  table.pack("fr");
  table.upsert([entry(3, "Crepúsculo")], "es");
  assert.equal(table.size, 3);
});

Deno.test("NameTable.loader() loads a language whole, as upserting it does; changes staged meanwhile win", () => {
  const names = syntheticNameEntries(3_000);
  const upserted = new NameTable();
  upserted.upsert(names, "de");
  upserted.pack();
  const loaded = new NameTable();
  loaded.upsert([entry(1, "Twilight"), entry(99_999, "Only English")], "en");
  const loader = loaded.loader("de");
  // Bucket by bucket, as the store hands them.
  for (let start = 0; start < names.length; start += 128) {
    loader.add(names.slice(start, start + 128));
  }
  const finish = loader.finish();
  let step = finish.next();
  // A change staged while the load packs: searches see the old names and it until the swap.
  loaded.stage([entry(names[5]!.id, "Geänderter Name")], "de");
  assert.deepEqual(ids(loaded, "geanderter name"), [names[5]!.id]);
  while (step.done !== true) step = finish.next();
  assert.equal(step.value, names.length);
  assert.equal(loaded.sizeOf("de"), names.length);
  assert.equal(loaded.size, names.length + 1, "ids in both languages once, 99,999 besides");
  assert.deepEqual(ids(loaded, "geanderter name"), [names[5]!.id], "the staged change wins");
  for (const query of ["glob of ecto", names[100]!.name, names[2_000]!.name.slice(0, 6)]) {
    const expected = upserted.search(query, 5).filter((match) => match.id !== names[5]!.id);
    assert.deepEqual(
      loaded.search(query, 5).filter((match) => match.id !== names[5]!.id && match.lang === "de"),
      expected,
      query,
    );
  }
});

Deno.test("NameTable.packSteps() packs the changes waiting when it starts; those made meanwhile wait on", () => {
  const table = new NameTable();
  table.upsert(syntheticNameEntries(2_000));
  table.pack();
  table.stage([entry(5, "First Change"), entry(6, "Second Change")]);
  assert.deepEqual(table.packDue(), [], "a few changes are not due");
  const steps = table.packSteps("en");
  let step = steps.next();
  table.stage([entry(6, "Changed Again"), entry(7, "Third Change")]);
  while (step.done !== true) step = steps.next();
  assert.equal(table.pending, 2, "the two made during the pack wait");
  assert.deepEqual(ids(table, "first change"), [5]);
  assert.deepEqual(ids(table, "changed again"), [6]);
  assert.deepEqual(ids(table, "second change"), [], "replaced while it was packed");
  table.pack();
  assert.equal(table.pending, 0);
  assert.deepEqual(ids(table, "changed again"), [6]);
  table.stage(syntheticNameEntries(600).map((name) => ({ ...name, name: `${name.name} x` })));
  assert.deepEqual(table.packDue(), ["en"], "past the limit: due");
});
