import assert from "node:assert/strict";
import { findLegendaries, LEGENDARIES } from "../../src/data/legendaries.ts";
import { GEN1_LEGENDARY_IDS } from "../fake_gw2/mod.ts";

Deno.test("LEGENDARIES: gw2e-static-data's 172 rows and our rune and sigil, with our generation curation", () => {
  assert.equal(LEGENDARIES.length, 172 + 2);
  const count = (generation: number | null) =>
    LEGENDARIES.filter((legendary) => legendary.generation === generation).length;
  assert.deepEqual([count(1), count(2), count(3)], [21, 16, 16]);
  assert.equal(count(null), 174 - 53);
  for (const legendary of LEGENDARIES) {
    assert.ok("generation" in legendary, `${legendary.name} carries generation`);
    if (legendary.generation !== null) assert.equal(legendary.type, "weapon", legendary.name);
    for (const field of ["skin", "precursorSkin", "icon", "precursorName"]) {
      assert.ok(!(field in legendary), `${legendary.name}: no ${field}`);
    }
  }
});

Deno.test("LEGENDARIES: Klobjarne Geirr is a weapon outside the numbered generations", () => {
  const spear = LEGENDARIES.find((legendary) => legendary.id === 103815);
  assert.deepEqual(spear, {
    id: 103815,
    name: "Klobjarne Geirr",
    type: "weapon",
    generation: null,
    precursorId: 103973,
    source: "PvE",
  });
});

Deno.test("LEGENDARIES: the Legendary Rune and Sigil join the list as upgrades", () => {
  assert.deepEqual(LEGENDARIES.slice(-2), [
    { id: 91536, name: "Legendary Rune", type: "upgrade", generation: null, source: "PvE" },
    { id: 91505, name: "Legendary Sigil", type: "upgrade", generation: null, source: "PvE" },
  ]);
  assert.equal(new Set(LEGENDARIES.map(({ id }) => id)).size, LEGENDARIES.length);
});

Deno.test("findLegendaries() filters by generation and type", () => {
  const gen1 = findLegendaries({ generation: 1 });
  assert.deepEqual(gen1.map((legendary) => legendary.id).sort((a, b) => a - b), GEN1_LEGENDARY_IDS);
  assert.equal(gen1.find((legendary) => legendary.id === 30689)?.precursorId, undefined);
  assert.equal(findLegendaries({ generation: 3, type: "weapon" }).length, 16);
  assert.equal(findLegendaries({ generation: 2, type: "armor" }).length, 0);
  assert.equal(findLegendaries({ type: "back" }).length, 4);
  assert.equal(findLegendaries({ type: "upgrade" }).length, 2);
  assert.equal(findLegendaries().length, LEGENDARIES.length);
});
