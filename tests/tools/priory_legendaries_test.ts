import assert from "node:assert/strict";
import { prioryLegendaries } from "../../src/tools/priory_legendaries.ts";
import { silentLogger } from "../../src/log.ts";
import { connectClient, createTestHandler, textOf } from "../support/app.ts";
import { StubGw2Client } from "./_stub_gw2.ts";

type Row = Record<string, unknown>;

Deno.test("priory_legendaries {generation: 1} lists the 21 gen-1 legendaries, each with its generation", async () => {
  const gw2 = new StubGw2Client();
  await using handler = createTestHandler({ gw2 });
  await using client = await connectClient(handler);
  const result = await client.callTool({
    name: "priory_legendaries",
    arguments: { generation: 1 },
  });
  const rows = (result.structuredContent as { legendaries: Row[] }).legendaries;
  assert.equal(rows.length, 21);
  assert.ok(rows.every((row) => row.generation === 1 && row.type === "weapon"));
  assert.deepEqual(rows.find((row) => row.id === 30703), {
    id: 30703,
    name: "Sunrise",
    type: "weapon",
    generation: 1,
    precursorId: 29169,
    source: "PvE",
  });
  assert.doesNotMatch(textOf(result), /icon|skin|render\.guildwars2/);
  assert.equal(gw2.callCount, 0, "curated data: no upstream request");
});

Deno.test("priory_legendaries refuses a generation outside 1-3 before any work", async () => {
  await using handler = createTestHandler({ gw2: new StubGw2Client() });
  await using client = await connectClient(handler);
  for (const generation of [4, 0, 1.5, "1"]) {
    const result = await client.callTool({ name: "priory_legendaries", arguments: { generation } });
    assert.equal(result.isError, true, String(generation));
    assert.match(textOf(result), /generation must be 1, 2 or 3 .*omit it for every legendary/);
  }
  const badType = await client.callTool({
    name: "priory_legendaries",
    arguments: { type: "Sword" },
  });
  assert.match(
    textOf(badType),
    /type must be one of weapon, armor, trinket, back, upgrade, not the string "Sword"/,
  );
});

Deno.test("priory_legendaries filters by type; rows outside the weapon generations carry generation null", async () => {
  const armor = await prioryLegendaries.handle({ type: "armor" }, {
    gw2: new StubGw2Client(),
    log: silentLogger,
  });
  assert.equal(armor.legendaries.length, 108);
  assert.ok(armor.legendaries.every((row) => row.type === "armor" && row.generation === null));
  const all = await prioryLegendaries.handle({}, { gw2: new StubGw2Client(), log: silentLogger });
  assert.equal(all.legendaries.length, 172 + 2, "gw2e-static-data's and our rune and sigil");
  assert.ok(all.legendaries.every((row) => "generation" in row));
  const gen3 = await prioryLegendaries.handle({ generation: 3, type: "weapon" }, {
    gw2: new StubGw2Client(),
    log: silentLogger,
  });
  assert.equal(gen3.legendaries.length, 16);
});

Deno.test("priory_legendaries says generation is this project's curation", () => {
  assert.match(prioryLegendaries.description, /^Priory-computed:/);
  assert.match(prioryLegendaries.description, /generation is this project's curation/);
});
