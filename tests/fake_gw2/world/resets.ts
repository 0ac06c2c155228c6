/**
 * The reset catalogues and each fake account's completions since the last reset: daily crafting,
 * world bosses, map chests and dungeon paths (daily), raid encounters (weekly). The catalogues
 * carry the real ids of a 2023 snapshot of `/v2/dailycrafting`, `/v2/worldbosses`,
 * `/v2/mapchests`, `/v2/raids` and `/v2/dungeons`; the completions are planted so every part has
 * some done and some left (the veteran account has done more). Whether they are this period's is
 * `/v2/account`'s `last_modified` against the reset, which a test moves with the control
 * (`setLastModified`).
 *
 * @module
 */

/** A raid: wings of events (`Boss` or `Checkpoint`). */
export interface RaidRecord {
  readonly id: string;
  readonly wings: readonly {
    readonly id: string;
    readonly events: readonly { readonly id: string; readonly type: string }[];
  }[];
}

/** A dungeon: its paths (`Story` or `Explorable`). */
export interface DungeonRecord {
  readonly id: string;
  readonly paths: readonly { readonly id: string; readonly type: string }[];
}

/** `/v2/dailycrafting`. */
export const DAILY_CRAFTING: readonly string[] = [
  "charged_quartz_crystal",
  "glob_of_elder_spirit_residue",
  "lump_of_mithrilium",
  "spool_of_silk_weaving_thread",
  "spool_of_thick_elonian_cord",
];

/** `/v2/worldbosses`. */
export const WORLD_BOSSES: readonly string[] = [
  "admiral_taidha_covington",
  "claw_of_jormag",
  "drakkar",
  "fire_elemental",
  "great_jungle_wurm",
  "inquest_golem_mark_ii",
  "karka_queen",
  "megadestroyer",
  "modniir_ulgoth",
  "shadow_behemoth",
  "svanir_shaman_chief",
  "tequatl_the_sunless",
  "the_shatterer",
  "triple_trouble_wurm",
];

/** `/v2/mapchests`. */
export const MAP_CHESTS: readonly string[] = [
  "auric_basin_heros_choice_chest",
  "crystal_oasis_heros_choice_chest",
  "domain_of_vabbi_heros_choice_chest",
  "dragons_stand_heros_choice_chest",
  "elon_riverlands_heros_choice_chest",
  "tangled_depths_heros_choice_chest",
  "the_desolation_heros_choice_chest",
  "verdant_brink_heros_choice_chest",
];

const B = "Boss";
const C = "Checkpoint";

function wing(id: string, ...events: readonly (readonly [string, string])[]) {
  return { id, events: events.map(([event, type]) => ({ id: event, type })) };
}

/** `/v2/raids`, every record. */
export const RAIDS: readonly RaidRecord[] = [
  {
    id: "forsaken_thicket",
    wings: [
      wing("spirit_vale", ["vale_guardian", B], ["spirit_woods", C], ["gorseval", B], [
        "sabetha",
        B,
      ]),
      wing("salvation_pass", ["slothasor", B], ["bandit_trio", B], ["matthias", B]),
      wing(
        "stronghold_of_the_faithful",
        ["escort", B],
        ["keep_construct", B],
        ["twisted_castle", C],
        ["xera", B],
      ),
    ],
  },
  {
    id: "bastion_of_the_penitent",
    wings: [
      wing(
        "bastion_of_the_penitent",
        ["cairn", B],
        ["mursaat_overseer", B],
        ["samarog", B],
        ["deimos", B],
      ),
    ],
  },
  {
    id: "hall_of_chains",
    wings: [
      wing(
        "hall_of_chains",
        ["soulless_horror", B],
        ["river_of_souls", B],
        ["statues_of_grenth", B],
        ["voice_in_the_void", B],
      ),
    ],
  },
  {
    id: "mythwright_gambit",
    wings: [
      wing("mythwright_gambit", ["conjured_amalgamate", B], ["twin_largos", B], ["qadim", B]),
    ],
  },
  {
    id: "the_key_of_ahdashim",
    wings: [
      wing(
        "the_key_of_ahdashim",
        ["gate", C],
        ["adina", B],
        ["sabir", B],
        ["qadim_the_peerless", B],
      ),
    ],
  },
];

function dungeon(id: string, story: string, ...explorable: readonly string[]): DungeonRecord {
  return {
    id,
    paths: [
      { id: story, type: "Story" },
      ...explorable.map((path) => ({ id: path, type: "Explorable" })),
    ],
  };
}

/** `/v2/dungeons`, every record. */
export const DUNGEONS: readonly DungeonRecord[] = [
  dungeon("ascalonian_catacombs", "ac_story", "hodgins", "detha", "tzark"),
  dungeon("caudecus_manor", "cm_story", "asura", "seraph", "butler"),
  dungeon("twilight_arbor", "ta_story", "leurent", "vevina", "aetherpath"),
  dungeon("sorrows_embrace", "se_story", "fergg", "rasalov", "koptev"),
  dungeon("citadel_of_flame", "cof_story", "ferrah", "magg", "rhiannon"),
  dungeon("honor_of_the_waves", "hotw_story", "butcher", "plunderer", "zealot"),
  dungeon("crucible_of_eternity", "coe_story", "submarine", "teleporter", "front_door"),
  dungeon("ruined_city_of_arah", "arah_story", "jotun", "mursaat", "forgotten", "seer"),
];

/** An account's completions since the last reset, as `/v2/account/<part>` lists them. */
export interface ResetProgress {
  readonly dailycrafting: readonly string[];
  readonly worldbosses: readonly string[];
  readonly mapchests: readonly string[];
  /** Dungeon path ids. */
  readonly dungeons: readonly string[];
  /** Raid event ids (bosses and checkpoints). */
  readonly raids: readonly string[];
}

/**
 * The main account: two of five daily crafts, three of fourteen bosses, two of eight chests, two
 * dungeon paths; the whole first raid wing and the first boss of the second (5 of 26 events).
 */
export const MAIN_PROGRESS: ResetProgress = {
  dailycrafting: ["lump_of_mithrilium", "spool_of_silk_weaving_thread"],
  worldbosses: ["tequatl_the_sunless", "the_shatterer", "claw_of_jormag"],
  mapchests: ["auric_basin_heros_choice_chest", "dragons_stand_heros_choice_chest"],
  dungeons: ["ac_story", "hodgins"],
  raids: ["vale_guardian", "spirit_woods", "gorseval", "sabetha", "slothasor"],
};

/** The veteran account: every daily craft, most bosses, every chest, the first three wings. */
export const VETERAN_PROGRESS: ResetProgress = {
  dailycrafting: [...DAILY_CRAFTING],
  worldbosses: WORLD_BOSSES.filter((_, index) => index % 4 !== 0),
  mapchests: [...MAP_CHESTS],
  dungeons: ["cof_story", "ferrah", "magg", "rhiannon", "hotw_story"],
  raids: RAIDS[0]?.wings.flatMap((raidWing) => raidWing.events.map((event) => event.id)) ?? [],
};
