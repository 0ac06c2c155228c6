/**
 * The packed names: a rebuild that merges changes into packed names (carrying the kept entries'
 * bytes and postings) equals packing every entry afresh, and the columns read back what went in.
 */
import assert from "node:assert/strict";
import { codesOf, distanceWithin, foldName } from "../../src/search/normalize.ts";
import { PackedNames, type PackedRow, sortSteps } from "../../src/search/packed_names.ts";
import { runToEnd } from "../../src/async/slices.ts";
import { seeded } from "../support/random.ts";

function row(id: number, name: string, split = false): PackedRow {
  return {
    id,
    name,
    folded: foldName(name, split ? "split" : "drop"),
    rarity: id % 7,
    type: id % 5,
  };
}

/** Everything the packed names answer with, in one comparable value. */
function dump(packed: PackedNames): unknown {
  const entries = Array.from({ length: packed.size }, (_, entry) => [
    packed.id(entry),
    packed.name(entry),
    packed.folded(entry),
    packed.rarity(entry),
    packed.type(entry),
  ]);
  const words = Array.from({ length: packed.wordCount }, (_, word) => {
    const posted: number[] = [];
    packed.forEachPosted(word, (entry) => posted.push(packed.id(entry)));
    return [packed.word(word), posted];
  });
  return { entries, words, bytes: packed.bytes };
}

const SYLLABLES = ["ka", "rü", "mo", "ß", "tel", "é", "un", "暗", "暮", "of", "the", " "];

function randomName(random: ReturnType<typeof seeded>): string {
  let name = "";
  for (let index = random.int(1, 8); index > 0; index--) name += random.pick(SYLLABLES);
  return name.trim() === "" ? "x" : name;
}

Deno.test("PackedNames.merge() equals packing afresh, whatever was replaced, added or emptied", () => {
  const random = seeded("packed merge");
  for (const words of [true, false]) {
    let current = new Map<number, PackedRow>();
    let packed = PackedNames.build([], { words });
    for (let round = 0; round < 12; round++) {
      const changes = new Map<number, PackedRow>();
      for (let index = random.int(1, 60); index > 0; index--) {
        const id = random.int(1, 300);
        changes.set(id, row(id, randomName(random)));
      }
      const rows = [...changes.values()].sort((a, b) => a.id - b.id);
      packed = PackedNames.merge(packed, rows, { words });
      current = new Map([...current, ...changes]);
      const fresh = PackedNames.build([...current.values()].sort((a, b) => a.id - b.id), { words });
      assert.deepEqual(dump(packed), dump(fresh), `round ${round}, words ${words}`);
    }
  }
});

Deno.test("PackedNames reads back names, folded names and words; finds ids, word ranges and substrings", () => {
  const packed = PackedNames.build([
    row(10, "Glob of Ectoplasm"),
    row(20, "Boule d'ectoplasme", true),
    row(30, "Düsternis"),
    row(40, "暗暮"),
  ]);
  assert.equal(packed.size, 4);
  assert.equal(packed.indexOf(30), 2);
  assert.equal(packed.indexOf(31), -1);
  assert.equal(packed.name(1), "Boule d'ectoplasme");
  assert.equal(packed.folded(1), "boule d ectoplasme");
  assert.equal(packed.name(3), "暗暮");
  const [first, end] = packed.wordsStarting("ecto");
  assert.deepEqual(
    Array.from({ length: end - first }, (_, at) => packed.word(first + at)),
    ["ectoplasm", "ectoplasme"],
  );
  assert.deepEqual(packed.entriesContaining("暮"), [3]);
  assert.deepEqual(packed.entriesContaining("plasm"), [0, 1]);
  assert.equal(packed.startsAWord(1, "ecto"), true);
  assert.equal(packed.startsAWord(0, "plasm"), false);
  assert.equal(packed.hasWord(0, "of"), true);
  assert.equal(packed.contains(2, "stern"), true);
  assert.throws(() => PackedNames.build([row(2, "b"), row(1, "a")]), RangeError);
});

Deno.test("PackedNames.scanWordsNear() finds exactly the words within max edits, typed or whole", () => {
  const random = seeded("near words");
  const letters = "abcdeilmnorstu";
  const word = () => {
    let text = "";
    for (let index = random.int(1, 9); index > 0; index--) text += random.pick([...letters]);
    return text;
  };
  const names = Array.from({ length: 600 }, (_, index) => row(index + 1, `${word()} ${word()}`));
  const packed = PackedNames.build(names);
  for (let round = 0; round < 300; round++) {
    const term = word();
    const max = random.int(1, 2);
    const prefix = random.int(0, 1) === 1;
    // The definition, word by word: starts with the term (0), or the bounded distance — to the
    // closest start of the word when typed, to the whole word otherwise.
    const expected = new Map<number, number>();
    for (let index = 0; index < packed.wordCount; index++) {
      const text = packed.word(index);
      const codes = codesOf(text);
      const cost = text.startsWith(term)
        ? 0
        : !prefix && Math.abs(text.length - term.length) > max
        ? max + 1
        : distanceWithin(term, codes, max, codes.length, 0, prefix);
      if (cost <= max) expected.set(index, cost);
    }
    const found = new Map<number, number>();
    packed.scanWordsNear(term, max, prefix, (index, cost) => {
      assert.ok(!found.has(index), "each word once");
      found.set(index, cost);
    });
    assert.deepEqual(found, expected, `${term}, max ${max}, prefix ${prefix}`);
  }
});

Deno.test("PackedNames.builder() packs names added one by one exactly as build() packs them", () => {
  const random = seeded("packed builder");
  for (const words of [true, false]) {
    // Past every growth of the builder's columns, and past a sort run of distinct words.
    const rows: PackedRow[] = [];
    for (let id = 1; rows.length < 3_000; id += random.int(1, 4)) {
      const name = `${randomName(random)} w${random.int(0, 2_500)}`;
      rows.push(row(id, name, id % 3 === 0));
    }
    const builder = PackedNames.builder({ words });
    for (const entry of rows) {
      builder.add(entry.id, entry.name, entry.folded, entry.rarity, entry.type);
    }
    assert.equal(builder.size, rows.length);
    let yields = 0;
    const steps = builder.steps();
    let step = steps.next();
    for (; step.done !== true; step = steps.next()) yields++;
    assert.ok(!words || yields > 0, "the packing of a vocabulary yields");
    assert.deepEqual(dump(step.value), dump(PackedNames.build(rows, { words })), `words ${words}`);
  }
  const builder = PackedNames.builder();
  builder.add(5, "Five", "five", 0, 0);
  assert.throws(() => builder.add(5, "Again", "again", 0, 0), RangeError);
});

Deno.test("PackedNames.mergeSteps() yields every few thousand entries and ends as merge() does", () => {
  const random = seeded("packed merge steps");
  const base = PackedNames.build(
    Array.from({ length: 20_000 }, (_, index) => row(index + 1, randomName(random))),
  );
  const rows = Array.from({ length: 600 }, (_, index) => row(index * 40 + 3, randomName(random)));
  const steps = PackedNames.mergeSteps(base, rows);
  let yields = 0;
  let step = steps.next();
  for (; step.done !== true; step = steps.next()) yields++;
  assert.ok(yields >= 20_000 / 4_096, `${yields} yields`);
  assert.deepEqual(dump(step.value), dump(PackedNames.merge(base, rows)));
});

Deno.test("sortSteps() sorts as Array.prototype.sort does, stably, across its runs", () => {
  const random = seeded("sort steps");
  const items = Array.from({ length: 5_000 }, (_, index) => ({ key: random.int(0, 300), index }));
  const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
  const steps = sortSteps([...items], byKey);
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  assert.deepEqual(step.value, [...items].sort(byKey));
  assert.deepEqual(runToEnd(sortSteps([3, 1, 2], (a, b) => a - b)), [1, 2, 3]);
  assert.deepEqual(runToEnd(sortSteps([], (a: number, b: number) => a - b)), []);
});
