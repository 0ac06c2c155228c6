import assert from "node:assert/strict";
import {
  codesOf,
  codesStartWith,
  distanceWithin as distanceOverCodes,
  foldName,
  isHanTerm,
  mayBeWithin as mayBeWithinCodes,
  wordsOf,
} from "../../src/search/normalize.ts";

/** The distance over a word given as a string (the packed names give it as codes). */
function distanceWithin(
  a: string,
  b: string,
  max: number,
  bLength = b.length,
  bStart = 0,
  prefix = false,
): number {
  return distanceOverCodes(a, codesOf(b), max, bLength, bStart, prefix);
}

function mayBeWithin(a: string, b: string, max: number, bLength: number, bStart: number): boolean {
  return mayBeWithinCodes(a, codesOf(b), max, bLength, bStart);
}
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
  assert.equal(foldName("!!! ..."), "");
  assert.deepEqual(wordsOf(foldName("Glob of  Ectoplasm")), ["glob", "of", "ectoplasm"]);
  assert.deepEqual(wordsOf(""), []);
});

Deno.test("foldName() spells the letters NFKD keeps whole as a plain keyboard types them", () => {
  assert.equal(foldName("Großschwert des Spießers"), "grossschwert des spiessers");
  assert.equal(foldName("GROẞES SCHWERT"), "grosses schwert", "capital sharp s");
  assert.equal(foldName("Cœur d'Œil"), "coeur doeil");
  assert.equal(foldName("Ærodrome Æther"), "aerodrome aether");
  assert.equal(foldName("Søren Łukasz"), "soren lukasz");
  assert.equal(foldName("Düsternis"), foldName("dusternis"));
  assert.equal(foldName("Crépuscule"), "crepuscule");
  assert.equal(foldName("Crepúsculo"), "crepusculo");
});

Deno.test("foldName() reads non-breaking spaces, full-width forms and stray spaces as plain ones", () => {
  assert.equal(foldName("Recette\u00a0: boule"), "recette boule", "French no-break space");
  assert.equal(foldName("Recette\u202f: boule"), "recette boule", "narrow no-break space");
  assert.equal(foldName("配方：暗暮"), "配方 暗暮", "full-width colon");
  assert.equal(foldName("ＡＢＣ（１２）"), "abc 12", "full-width letters, digits, brackets");
  assert.equal(foldName("\u3000 Glob\t of \n Ecto  "), "glob of ecto");
});

Deno.test("foldName() splits French elision at the apostrophe when asked, drops it otherwise", () => {
  assert.equal(foldName("Boule d'ectoplasme", "split"), "boule d ectoplasme");
  assert.equal(foldName("Boule d’ectoplasme", "split"), "boule d ectoplasme");
  assert.equal(foldName("Boule d'ectoplasme"), "boule dectoplasme");
  assert.equal(foldName("Berserker's"), "berserkers");
});

Deno.test("codesOf() and codesStartWith() read text as character codes", () => {
  const codes = codesOf("glob of ecto 暗暮");
  assert.equal(codes.length, 15);
  assert.equal(codesStartWith(codes, 5, "of"), true);
  assert.equal(codesStartWith(codes, 13, "暗暮"), true);
  assert.equal(codesStartWith(codes, 13, "暗暮x"), false, "not past the end");
  assert.equal(codesStartWith(codes, 0, "glow"), false);
  assert.equal(codesStartWith(new Uint8Array([103, 108]), 0, "gl"), true, "one-byte codes too");
});

Deno.test("isHanTerm() tells a term of Chinese characters from any other", () => {
  assert.equal(isHanTerm("暗暮"), true);
  assert.equal(isHanTerm("配方"), true);
  assert.equal(isHanTerm("twilight"), false);
  assert.equal(isHanTerm("düsternis"), false);
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

Deno.test("distanceWithin() equals the textbook distance, capped at max + 1; mayBeWithin() never rules out a match", () => {
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
      assert.equal(
        distanceWithin(a, `xy ${b} yx`, max, b.length, 3),
        Math.min(reference(a, b), max + 1),
        `${a} inside "xy ${b} yx" ${max}`,
      );
      const closest = Math.min(
        ...Array.from({ length: start + 1 }, (_, j) => reference(a, b.slice(0, j))),
      );
      assert.equal(
        distanceWithin(a, `xy ${b} yx`, max, start, 3, true),
        Math.min(closest, max + 1),
        `${a} to the closest start of ${b}[0, ${start}) ${max}`,
      );
      for (const prefix of [false, true]) {
        const length = prefix ? start : b.length;
        const within = prefix ? closest <= max : reference(a, b) <= max;
        if (within && max < a.length) {
          assert.ok(mayBeWithin(a, `xy ${b} yx`, max, length, 3), `${a} ${b} ${max} ${prefix}`);
        }
      }
    }
  }
});
