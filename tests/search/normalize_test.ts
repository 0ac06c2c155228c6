import assert from "node:assert/strict";
import { distanceWithin, foldName, wordsOf } from "../../src/search/normalize.ts";
import { seeded } from "../support/random.ts";

Deno.test("foldName() ignores case, accents, apostrophes and punctuation", () => {
  assert.equal(foldName("GLOB OF ECTOPLASM"), "glob of ectoplasm");
  assert.equal(
    foldName("  Berserker's   Orichalcum  Greatsword "),
    "berserkers orichalcum greatsword",
  );
  assert.equal(foldName("Berserker’s"), foldName("berserkers"));
  assert.equal(foldName("Éclair Brûlée"), "eclair brulee");
  assert.equal(foldName("Recipe: Superior Sigil of Fire (x2)"), "recipe superior sigil of fire x2");
  assert.equal(foldName("Ærodrome Spießer"), "ærodrome spießer");
  assert.equal(foldName("!!! ..."), "");
  assert.deepEqual(wordsOf(foldName("Glob of  Ectoplasm")), ["glob", "of", "ectoplasm"]);
  assert.deepEqual(wordsOf(""), []);
});

/** Unbounded optimal-string-alignment distance, the textbook way. */
function reference(a: string, b: string): number {
  const d = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i === 0 ? j : j === 0 ? i : 0),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      const row = d[i];
      if (row !== undefined) row[j] = value;
    }
  }
  return at(a.length, b.length);
}

Deno.test("distanceWithin() equals the textbook distance, capped at max + 1", () => {
  assert.equal(distanceWithin("ectoplasmm", "ectoplasm", 2), 1);
  assert.equal(distanceWithin("ectolpasm", "ectoplasm", 2), 1, "a transposition is one edit");
  assert.equal(distanceWithin("sunrse", "sunrise", 1), 1);
  assert.equal(distanceWithin("sunset", "sunrise", 1), 2, "over the bound reads as max + 1");
  assert.equal(distanceWithin("a", "abcdef", 2), 3, "rejected by length alone");
  const random = seeded("distanceWithin");
  const word = () => {
    let text = "";
    for (let index = random.int(0, 9); index > 0; index--) text += random.pick([..."abcd"]);
    return text;
  };
  for (let round = 0; round < 3_000; round++) {
    const [a, b] = [word(), word()];
    for (const max of [0, 1, 2, 3]) {
      assert.equal(
        distanceWithin(a, b, max),
        Math.min(reference(a, b), max + 1),
        `${a} ${b} ${max}`,
      );
      const start = random.int(0, b.length);
      assert.equal(
        distanceWithin(a, b, max, start),
        Math.min(reference(a, b.slice(0, start)), max + 1),
        `${a} ${b}[0, ${start}) ${max}`,
      );
    }
  }
});
