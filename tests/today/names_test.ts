/** Readable names of the reset catalogues' ids (`src/today/names.ts`). */
import assert from "node:assert/strict";
import { dungeonPathName, mapChestName, readableName } from "../../src/today/names.ts";

Deno.test("ids read as names: joining words lower case, roman numerals upper, possessives back", () => {
  assert.equal(readableName("tequatl_the_sunless"), "Tequatl the Sunless");
  assert.equal(readableName("the_shatterer"), "The Shatterer");
  assert.equal(readableName("inquest_golem_mark_ii"), "Inquest Golem Mark II");
  assert.equal(readableName("voice_in_the_void"), "Voice in the Void");
  assert.equal(readableName("the_key_of_ahdashim"), "The Key of Ahdashim");
  assert.equal(readableName("sorrows_embrace"), "Sorrow's Embrace");
  assert.equal(readableName("drakkar"), "Drakkar");
});

Deno.test("a map chest is named by its map; a dungeon path with its dungeon", () => {
  assert.equal(mapChestName("auric_basin_heros_choice_chest"), "Auric Basin");
  assert.equal(mapChestName("dragons_stand_heros_choice_chest"), "Dragon's Stand");
  assert.equal(mapChestName("some_other_chest"), "Some Other Chest");
  assert.equal(
    dungeonPathName("ascalonian_catacombs", { id: "ac_story", type: "Story" }),
    "Ascalonian Catacombs: Story",
  );
  assert.equal(
    dungeonPathName("crucible_of_eternity", { id: "front_door", type: "Explorable" }),
    "Crucible of Eternity: Front Door",
  );
});
