/**
 * Readable names of the reset catalogues' string ids, which the API gives in no language
 * (`tequatl_the_sunless` -> "Tequatl the Sunless", `inquest_golem_mark_ii` -> "Inquest Golem
 * Mark II"): words capitalised, short joining words kept lower case but the first, roman
 * numerals upper case, the few possessives the ids lose given back. Map chests drop their
 * common `_heros_choice_chest` tail (the map names the chest). English whatever `lang` asks:
 * the API has no localized names for these. Pure.
 *
 * @module
 */

/** Joining words kept lower case inside a name. */
const SMALL_WORDS = new Set(["a", "an", "and", "at", "in", "of", "on", "the", "to"]);

/** Roman numerals as ids spell them (not `v` or `x` alone: those are more often words). */
const ROMAN = /^(?:ii|iii|iv|vi|vii|viii|ix|xi|xii)$/u;

/** Words the ids spell without their apostrophe. */
const POSSESSIVES: ReadonlyMap<string, string> = new Map([
  ["heros", "Hero's"],
  ["dragons", "Dragon's"],
  ["sorrows", "Sorrow's"],
]);

/** The tail every `/v2/mapchests` id shares. */
const MAP_CHEST_TAIL = "_heros_choice_chest";

/** A readable English name for a snake_case catalogue id. */
export function readableName(id: string): string {
  return id.split("_").filter((word) => word !== "").map((word, index) => {
    const known = POSSESSIVES.get(word);
    if (known !== undefined) return known;
    if (ROMAN.test(word)) return word.toUpperCase();
    if (index > 0 && SMALL_WORDS.has(word)) return word;
    return word.charAt(0).toUpperCase() + word.slice(1);
  }).join(" ");
}

/** A map chest's readable name: its map's (`auric_basin_heros_choice_chest` -> "Auric Basin"). */
export function mapChestName(id: string): string {
  return readableName(id.endsWith(MAP_CHEST_TAIL) ? id.slice(0, -MAP_CHEST_TAIL.length) : id);
}

/**
 * A dungeon path's readable name, with its dungeon's: `Ascalonian Catacombs: Hodgins`; a story
 * path (`ac_story`, type `Story`) is `Ascalonian Catacombs: Story`.
 */
export function dungeonPathName(dungeonId: string, path: { id: string; type: string }): string {
  const pathName = path.type === "Story" ? "Story" : readableName(path.id);
  return `${readableName(dungeonId)}: ${pathName}`;
}
