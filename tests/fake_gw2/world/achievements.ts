/**
 * The fake world's achievements and what they name: `/v2/achievements` (real collection records
 * of a 2023 snapshot, `../data/achievements.json` written by `scripts/fake_achievements.ts`,
 * plus generated filler so the catalogue spans several pages), the skins and minis their bits
 * collect (`/v2/skins`, `/v2/minis`, with filler past 50 entries so paging shows), stand-in
 * items for every item id a record names that the world lacks, each account's progress
 * (`/v2/account/achievements`: a collection half done, a chain begun, others done) and mastery
 * points (`/v2/account/mastery/points`).
 *
 * Prose (descriptions, requirements, locked texts) is written fresh; names in the other four
 * languages are built from the chain's legendary (its real localized name) and a subtitle table
 * written for the fake, or translated word by word (`translations.ts`).
 *
 * @module
 */

import data from "../data/achievements.json" with { type: "json" };
import type { Lang } from "../../../src/gw2/types.ts";
import { type Random, seeded } from "../../support/random.ts";
import { makeItem } from "./item_factory.ts";
import { realItemName } from "./localized.ts";
import { iconUrl, writeProse } from "./text.ts";
import { translateName } from "./translations.ts";
import type { ItemRecord } from "./types.ts";
import { GEMS, MATERIAL_ADJECTIVES, MATERIAL_NOUNS, METALS, WOODS } from "./words.ts";

type Other = Exclude<Lang, "en">;
type Names = readonly [de: string, fr: string, es: string, zh: string];
const COLUMN: Readonly<Record<Other, 0 | 1 | 2 | 3>> = { de: 0, fr: 1, es: 2, zh: 3 };

/** A bit: an item, skin or minipet to collect, a text to do, or (upstream quirk) empty. */
export interface AchievementBitRecord {
  readonly type?: string;
  readonly id?: number;
  readonly text?: string;
}

/** A reward: `{type: "Item", id, count}`, `{type: "Coins", count}`, mastery, title. */
export interface AchievementRewardRecord {
  readonly type: string;
  readonly id?: number;
  readonly count?: number;
  readonly region?: string;
}

/** `/v2/achievements` record, in upstream field order. */
export interface AchievementRecord {
  readonly id: number;
  readonly icon?: string;
  readonly name: string;
  readonly description: string;
  readonly requirement: string;
  readonly locked_text: string;
  readonly type: string;
  readonly flags: readonly string[];
  readonly bits?: readonly AchievementBitRecord[];
  readonly tiers: readonly { readonly count: number; readonly points: number }[];
  readonly prerequisites?: readonly number[];
  readonly rewards?: readonly AchievementRewardRecord[];
}

/** `/v2/account/achievements` entry: only achievements with progress; `bits` gone once done. */
export interface AccountAchievementRecord {
  readonly id: number;
  readonly bits?: readonly number[];
  readonly current: number;
  readonly max: number;
  readonly done: boolean;
  readonly repeated?: number;
  readonly unlocked?: boolean;
}

/** `/v2/skins` record. */
export interface SkinRecord {
  readonly name: string;
  readonly type: string;
  readonly flags: readonly string[];
  readonly restrictions: readonly string[];
  readonly id: number;
  readonly rarity: string;
  readonly icon: string;
  readonly details?: { readonly type: string };
}

/** `/v2/minis` record. */
export interface MiniRecord {
  readonly id: number;
  readonly name: string;
  readonly icon: string;
  readonly order: number;
  readonly item_id: number;
}

/** `/v2/account/mastery/points`. */
export interface MasteryPointsRecord {
  readonly totals: readonly {
    readonly region: string;
    readonly spent: number;
    readonly earned: number;
  }[];
  readonly unlocked: readonly number[];
}

/** What one account holds of the achievements. */
export interface AccountAchievements {
  readonly achievements: readonly AccountAchievementRecord[];
  readonly masteryPoints: MasteryPointsRecord;
}

/** The localized part: records of one language. */
export interface AchievementRecords {
  readonly achievements: ReadonlyMap<number, AchievementRecord>;
  readonly skins: ReadonlyMap<number, SkinRecord>;
  readonly minis: ReadonlyMap<number, MiniRecord>;
}

/** Everything of this module the world holds. */
export interface FakeAchievements extends AchievementRecords {
  /** Stand-in items for the ids the records name that the world lacks, ascending id. */
  readonly items: readonly ItemRecord[];
  readonly main: AccountAchievements;
  readonly veteran: AccountAchievements;
}

/** Filler achievement ids start here (no real achievement of the snapshot is that high). */
export const FILLER_ACHIEVEMENT_FIRST_ID = 50_001;
/** Filler achievements: with the real records, three catalogue pages of 200. */
export const FILLER_ACHIEVEMENT_COUNT = 420;
/** Filler skin ids start here (past every real skin id). */
export const FILLER_SKIN_FIRST_ID = 90_001;
/** Filler skins: past 50 entries, so a page of 50 continues. */
export const FILLER_SKIN_COUNT = 297;
/** Filler mini ids start here. */
export const FILLER_MINI_FIRST_ID = 9_001;
/** Filler minis. */
export const FILLER_MINI_COUNT = 58;
/** Stand-in ids for the minis' own items (the real minis' items are not in the snapshot). */
const MINI_ITEM_FIRST_ID = 960_001;

/** The main account's planted progress, for tests. */
export const PLANTED = {
  /** Astralaria IV: The Cosmos, 54 item bits: every even-indexed bit done (27). */
  halfDone: 2268,
  /** Aurora: Awakening: done. */
  auroraAwakening: 3522,
  /** Aurora II: Empowering (prerequisite 3522): bits 0-4 done. */
  auroraEmpowering: 3489,
  /** Coalescence I-III: I done, II begun (bits 0-2), III not started. */
  coalescence: [4035, 4412, 4805],
  /** Ad Infinitum I: bits 0-3 done; its skin bit (index 8) missing. */
  adInfinitum: 2351,
  /** Astralaria I: The Device: done (its minipet bit with it). */
  astralariaDevice: 2571,
} as const;

/** The legendary whose (real) localized name a chain's achievements carry. */
const CHAIN_LEGENDARY: Readonly<Record<string, number>> = {
  "Astralaria": 76158,
  "Aurora": 81908,
  "Coalescence": 91234,
  "Ad Infinitum": 74155,
  "Twilight": 30704,
  "Chuka and Champawat": 78556,
  "Nevermore": 71383,
  "HOPE": 72713,
};

/** Subtitles and names written for the fake (the reference data is English only). */
const WRITTEN: Readonly<Record<string, Names>> = {
  "The Device": ["Die Vorrichtung", "Le dispositif", "El dispositivo", "装置"],
  "The Apparatus": ["Der Apparat", "L'appareil", "El aparato", "器械"],
  "The Mechanism": ["Der Mechanismus", "Le mécanisme", "El mecanismo", "机械"],
  "The Cosmos": ["Der Kosmos", "Le cosmos", "El cosmos", "宇宙"],
  "Awakening": ["Erwachen", "Éveil", "Despertar", "觉醒"],
  "Empowering": ["Ermächtigung", "Renforcement", "Potenciación", "赋能"],
  "Unbridled": ["Entfesselt", "Débridé", "Desenfrenado", "无拘"],
  "The Gift": ["Die Gabe", "Le don", "El don", "礼赠"],
  "Culmination": ["Höhepunkt", "Apogée", "Culminación", "巅峰"],
  "Dusk": ["Dämmerung", "Pénombre", "Anochecer", "黄昏"],
  "Krytan Fisher": ["Krytanischer Fischer", "Pêcheur krytien", "Pescador krytense", "克瑞塔渔夫"],
  "World Class Fisher": [
    "Weltklasse-Fischer",
    "Pêcheur de classe mondiale",
    "Pescador de talla mundial",
    "世界级渔夫",
  ],
};

/** Filler: regions and deeds ("Kryta Explorer II"), in the five languages. */
const REGIONS: readonly (readonly [string, ...Names])[] = [
  ["Kryta", "Kryta", "Kryte", "Kryta", "克瑞塔"],
  ["Ascalon", "Ascalon", "Ascalon", "Ascalon", "阿斯卡隆"],
  ["Maguuma", "Maguuma", "Maguuma", "Maguuma", "迈古玛"],
  ["Orr", "Orr", "Orr", "Orr", "奥尔"],
  ["Shiverpeaks", "Zittergipfel", "Cimefroides", "Picosescalofriantes", "席瓦雪山"],
  ["Elona", "Elona", "Elona", "Elona", "伊洛纳"],
  ["Cantha", "Cantha", "Cantha", "Cantha", "坎塔"],
];
const DEEDS: readonly (readonly [string, ...Names])[] = [
  ["Explorer", "Entdecker", "Explorateur", "Explorador", "探险家"],
  ["Slayer", "Bezwinger", "Pourfendeur", "Azote", "杀手"],
  ["Cartographer", "Kartograf", "Cartographe", "Cartógrafo", "制图师"],
  ["Hunter", "Jäger", "Chasseur", "Cazador", "猎人"],
  ["Angler", "Angler", "Pêcheur", "Pescador", "钓客"],
  ["Collector", "Sammler", "Collectionneur", "Coleccionista", "收藏家"],
  ["Chef", "Koch", "Cuisinier", "Cocinero", "厨师"],
  ["Historian", "Historiker", "Historien", "Historiador", "史学家"],
  ["Guardian", "Wächter", "Gardien", "Guardián", "守护者"],
  ["Wanderer", "Wanderer", "Vagabond", "Vagabundo", "漫游者"],
  ["Scholar", "Gelehrter", "Érudit", "Erudito", "学者"],
  ["Champion", "Champion", "Champion", "Campeón", "冠军"],
];
const ROMAN = ["I", "II", "III", "IV", "V"];
/** Filler text bits, in the five languages. */
const TASKS: readonly (readonly [string, ...Names])[] = [
  [
    "Find the hidden cache",
    "Finde den versteckten Vorrat",
    "Trouvez la cache",
    "Encuentra el alijo",
    "找到隐藏的储物",
  ],
  ["Reach the summit", "Erreiche den Gipfel", "Atteignez le sommet", "Alcanza la cima", "登上山顶"],
  [
    "Defeat the champion",
    "Besiege den Champion",
    "Battez le champion",
    "Derrota al campeón",
    "击败冠军",
  ],
  [
    "Read the old tablet",
    "Lies die alte Tafel",
    "Lisez la tablette",
    "Lee la tablilla",
    "阅读古老石板",
  ],
  [
    "Light the beacon",
    "Entzünde das Leuchtfeuer",
    "Allumez le fanal",
    "Enciende la baliza",
    "点燃烽火",
  ],
];

const COLLECTION_NOUNS = ["Fragment", "Relic", "Shard", "Sigil", "Token", "Lens"];

interface CarriedRow {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly flags: readonly string[];
  readonly bits?: readonly AchievementBitRecord[];
  readonly tiers: readonly { readonly count: number; readonly points: number }[];
  readonly rewards?: readonly AchievementRewardRecord[];
  readonly prerequisites?: readonly number[];
}

const CARRIED: readonly CarriedRow[] = data.achievements;

/** Builds the achievement part of the world; `known` are the item ids the world already has. */
export function buildAchievements(known: ReadonlySet<number>): FakeAchievements {
  const real = CARRIED.map(realRecord);
  const filler = Array.from(
    { length: FILLER_ACHIEVEMENT_COUNT },
    (_, n) => fillerRecord(FILLER_ACHIEVEMENT_FIRST_ID + n, n),
  );
  const achievements = new Map([...real, ...filler].map((record) => [record.id, record]));
  const skinIds = new Set<number>();
  const miniIds = new Set<number>();
  const itemIds = new Set<number>();
  for (const record of achievements.values()) {
    for (const bit of record.bits ?? []) {
      if (bit.id === undefined) continue;
      if (bit.type === "Skin") skinIds.add(bit.id);
      else if (bit.type === "Minipet") miniIds.add(bit.id);
      else if (bit.type === "Item") itemIds.add(bit.id);
    }
    for (const reward of record.rewards ?? []) {
      if (reward.type === "Item" && reward.id !== undefined) itemIds.add(reward.id);
    }
  }
  for (let n = 0; n < FILLER_SKIN_COUNT; n++) skinIds.add(FILLER_SKIN_FIRST_ID + n);
  for (let n = 0; n < FILLER_MINI_COUNT; n++) miniIds.add(FILLER_MINI_FIRST_ID + n);
  const minis = [...miniIds].sort((a, b) => a - b).map((id, n) => mini(id, n));
  const standIns = [...itemIds].filter((id) => !known.has(id)).sort((a, b) => a - b)
    .map(collectionItem);
  const miniItems = minis.map((record) =>
    makeItem({
      id: record.item_id,
      name: record.name,
      rarity: "Rare",
      level: 0,
      flags: seeded(record.id, "mini-trade").chance(0.5) ? [] : ["AccountBound", "NoSell"],
      shape: { kind: "container" },
    })
  );
  return {
    achievements,
    skins: new Map([...skinIds].sort((a, b) => a - b).map((id) => [id, skin(id)])),
    minis: new Map(minis.map((record) => [record.id, record])),
    items: [...standIns, ...miniItems],
    main: { achievements: mainProgress(achievements), masteryPoints: masteryPoints(126, 0) },
    veteran: {
      achievements: veteranProgress(achievements),
      masteryPoints: masteryPoints(203, 40),
    },
  };
}

const localized = new WeakMap<FakeAchievements, Map<Other, AchievementRecords>>();

/** The records of `world` in `lang` (English: as built). Only names and texts differ. */
export function localizedAchievements(world: FakeAchievements, lang: Lang): AchievementRecords {
  if (lang === "en") return world;
  let languages = localized.get(world);
  if (languages === undefined) {
    languages = new Map();
    localized.set(world, languages);
  }
  let records = languages.get(lang);
  if (records === undefined) {
    records = {
      achievements: renamed(world.achievements, (record) => ({
        ...record,
        name: achievementName(record.name, lang),
        ...(record.bits === undefined ? {} : {
          bits: record.bits.map((bit) =>
            bit.text === undefined ? bit : { ...bit, text: taskText(bit.text, lang) }
          ),
        }),
      })),
      skins: renamed(world.skins, (record) => ({
        ...record,
        name: translateName(record.name, lang),
      })),
      minis: renamed(world.minis, (record) => ({
        ...record,
        name: translateName(record.name, lang),
      })),
    };
    languages.set(lang, records);
  }
  return records;
}

function renamed<T>(map: ReadonlyMap<number, T>, rename: (record: T) => T): Map<number, T> {
  return new Map([...map].map(([id, record]) => [id, Object.freeze(rename(record))]));
}

/** "Astralaria IV: The Cosmos" in `lang`: the legendary's name, the numeral, the subtitle. */
export function achievementName(english: string, lang: Other): string {
  const column = COLUMN[lang];
  const written = WRITTEN[english];
  if (written !== undefined) return written[column];
  const filler = fillerName(english, lang);
  if (filler !== undefined) return filler;
  const match = /^(.+?)(?: ([IVX]+))?: (.+)$/u.exec(english);
  const chain = match?.[1];
  const legendary = chain === undefined ? undefined : CHAIN_LEGENDARY[chain];
  if (match === null || chain === undefined || legendary === undefined) {
    return translateName(english, lang);
  }
  const subtitle = match[3] ?? "";
  const head = [realItemName(legendary, lang) ?? chain, match[2]].filter(Boolean).join(" ");
  const tail = WRITTEN[subtitle]?.[column] ?? translateName(subtitle, lang);
  return lang === "zh"
    ? `${head}\uff1a${tail}`
    : lang === "fr"
    ? `${head}\u00a0: ${tail}`
    : `${head}: ${tail}`;
}

function fillerName(english: string, lang: Other): string | undefined {
  const match = /^(\S+) (\S+)(?: ([IV]+))?$/u.exec(english);
  const region = REGIONS.find((row) => row[0] === match?.[1]);
  const deed = DEEDS.find((row) => row[0] === match?.[2]);
  if (match === null || region === undefined || deed === undefined) return undefined;
  const column = COLUMN[lang] + 1;
  const [where, who] = [region[column] ?? "", deed[column] ?? ""];
  const numeral = match[3] === undefined ? "" : ` ${match[3]}`;
  switch (lang) {
    case "de":
      return `${where}-${who}${numeral}`;
    case "zh":
      return `${where}${who}${numeral}`;
    default:
      // French elides "de" before a vowel ("Explorateur d'Ascalon").
      return lang === "fr" && /^[AEIOU]/u.test(where)
        ? `${who} d'${where}${numeral}`
        : `${who} de ${where}${numeral}`;
  }
}

function taskText(english: string, lang: Other): string {
  const row = TASKS.find((task) => task[0] === english);
  return row?.[COLUMN[lang] + 1] ?? english;
}

function realRecord(row: CarriedRow): AchievementRecord {
  const random = seeded(row.id, "achievement");
  const of = row.tiers.at(-1)?.count ?? 0;
  return {
    id: row.id,
    ...(random.chance(0.3) ? { icon: iconUrl("achievement", row.id) } : {}),
    name: row.name,
    description: writeProse(random.int(80, 220), { seed: [row.id, "achievement"], flavor: true }),
    requirement: row.bits === undefined
      ? `Complete ${of} steps of this achievement.`
      : `Collect all ${of} items of this set.`,
    locked_text: row.flags.includes("RequiresUnlock")
      ? "Unlock this collection by completing the step before it."
      : "",
    type: row.type,
    flags: row.flags,
    ...(row.bits === undefined ? {} : { bits: row.bits }),
    tiers: row.tiers,
    ...(row.prerequisites === undefined ? {} : { prerequisites: row.prerequisites }),
    ...(row.rewards === undefined ? {} : { rewards: row.rewards }),
  };
}

function fillerRecord(id: number, n: number): AchievementRecord {
  const random = seeded(id, "achievement");
  const region = REGIONS[n % REGIONS.length]?.[0] ?? "Kryta";
  const deed = DEEDS[Math.floor(n / REGIONS.length) % DEEDS.length]?.[0] ?? "Explorer";
  const round = Math.floor(n / (REGIONS.length * DEEDS.length));
  const name = round === 0 ? `${region} ${deed}` : `${region} ${deed} ${ROMAN[round] ?? ""}`;
  const steps = random.pick([1, 5, 10, 25, 50, 100, 250]);
  const tierCount = Math.min(steps, random.int(1, 4));
  const tiers = Array.from({ length: tierCount }, (_, tier) => ({
    count: Math.max(1, Math.round(steps * (tier + 1) / tierCount)),
    points: random.int(1, 5),
  }));
  const texts = random.chance(0.25)
    ? TASKS.slice(0, random.int(2, TASKS.length)).map(([text]) => ({ type: "Text", text }))
    : undefined;
  // Upstream quirk (gw2-api #15): some collections carry an empty bit.
  const bits = n === 7 ? [{ type: "Text", text: TASKS[0]?.[0] ?? "" }, {}] : texts;
  const rewards = rewardOf(random);
  const deeds = tiers.at(-1)?.count ?? 1;
  return {
    id,
    ...(random.chance(0.5) ? { icon: iconUrl("achievement", id) } : {}),
    name,
    description: writeProse(random.int(40, 160), { seed: [id, "achievement"] }),
    requirement: bits === undefined
      ? `Complete ${deeds === 1 ? "a deed" : `${deeds} deeds`} in ${region}.`
      : `Complete the tasks in ${region}.`,
    locked_text: "",
    type: bits === undefined ? "Default" : "ItemSet",
    flags: random.chance(0.2) ? ["Repeatable", "Permanent"] : ["Permanent"],
    ...(bits === undefined ? {} : { bits }),
    tiers: bits === undefined ? tiers : [{ count: bits.length, points: random.int(1, 5) }],
    ...(rewards === undefined ? {} : { rewards }),
  };
}

function rewardOf(random: Random): AchievementRewardRecord[] | undefined {
  const roll = random.int(0, 9);
  if (roll < 5) return undefined;
  if (roll < 8) return [{ type: "Coins", count: random.int(1, 50) * 100 }];
  if (roll === 8) return [{ type: "Mastery", id: random.int(1, 40), region: "Tyria" }];
  return [{ type: "Title", id: random.int(100, 400) }];
}

/**
 * A stand-in for an item a collection names: a trophy or material, a third of them tradeable
 * (the rest account bound, as most collection items are), named from the fake's word lists so
 * the names translate.
 */
function collectionItem(id: number): ItemRecord {
  const random = seeded(id, "collection-item");
  const tradeable = random.chance(0.35);
  const name = `${random.pick(MATERIAL_ADJECTIVES)} ${random.pick(COLLECTION_NOUNS)} of ${
    random.pick(GEMS)
  }`;
  return makeItem({
    id,
    name,
    rarity: random.pick(["Fine", "Masterwork", "Rare", "Exotic"]),
    level: 0,
    flags: tradeable ? [] : ["AccountBound", "NoSell", "AccountBindOnUse"],
    shape: { kind: "material", itemType: tradeable ? "CraftingMaterial" : "Trophy" },
  });
}

function skin(id: number): SkinRecord {
  const random = seeded(id, "skin");
  const material = random.pick([...METALS, ...WOODS.map((wood) => `${wood}wood`)]);
  const type = random.pick(["Weapon", "Armor", "Back"]);
  const noun = type === "Weapon"
    ? random.pick(["Greatsword", "Axe", "Staff", "Dagger", "Shield", "Rifle"])
    : type === "Armor"
    ? random.pick(["Helm", "Coat", "Boots", "Gloves"])
    : "Back";
  return {
    name: `${random.pick(MATERIAL_ADJECTIVES)} ${material} ${noun}`,
    type,
    flags: random.chance(0.5) ? ["ShowInWardrobe"] : ["ShowInWardrobe", "NoCost"],
    restrictions: [],
    id,
    rarity: random.pick(["Basic", "Fine", "Masterwork", "Rare", "Exotic", "Ascended"]),
    icon: iconUrl("skin", id),
    details: { type: noun },
  };
}

function mini(id: number, n: number): MiniRecord {
  const random = seeded(id, "mini");
  return {
    id,
    name: `Mini ${random.pick(MATERIAL_ADJECTIVES)} ${random.pick(MATERIAL_NOUNS)}`,
    icon: iconUrl("mini", id),
    order: 10 + n,
    item_id: MINI_ITEM_FIRST_ID + n,
  };
}

function bitCount(record: AchievementRecord | undefined): number {
  return record?.tiers.at(-1)?.count ?? 0;
}

function started(record: AchievementRecord | undefined, bits: readonly number[]) {
  return {
    id: record?.id ?? 0,
    bits,
    current: bits.length,
    max: bitCount(record),
    done: false,
  };
}

function finished(record: AchievementRecord | undefined, repeated?: number) {
  const max = bitCount(record);
  return {
    id: record?.id ?? 0,
    current: max,
    max,
    done: true,
    ...(repeated === undefined ? {} : { repeated }),
  };
}

function range(count: number, step = 1): number[] {
  return Array.from({ length: count }, (_, index) => index * step);
}

/** The main account: the planted collections, then filler progress (every third one). */
function mainProgress(
  records: ReadonlyMap<number, AchievementRecord>,
): AccountAchievementRecord[] {
  const at = (id: number) => records.get(id);
  const planted: AccountAchievementRecord[] = [
    started(at(PLANTED.halfDone), range(27, 2)),
    finished(at(PLANTED.astralariaDevice)),
    started(at(2447), range(7)),
    finished(at(PLANTED.auroraAwakening)),
    started(at(PLANTED.auroraEmpowering), range(5)),
    finished(at(PLANTED.coalescence[0])),
    started(at(PLANTED.coalescence[1]), range(3)),
    started(at(PLANTED.adInfinitum), range(4)),
    started(at(6068), range(10)),
  ];
  return [...planted, ...fillerProgress(records, 3)].sort((a, b) => a.id - b.id);
}

/** The veteran account: the planted collections done, more filler progress. */
function veteranProgress(
  records: ReadonlyMap<number, AchievementRecord>,
): AccountAchievementRecord[] {
  const done = [PLANTED.halfDone, PLANTED.auroraAwakening, PLANTED.auroraEmpowering, 2571, 2447]
    .map((id) => finished(records.get(id)));
  return [...done, ...fillerProgress(records, 2)].sort((a, b) => a.id - b.id);
}

function fillerProgress(
  records: ReadonlyMap<number, AchievementRecord>,
  every: number,
): AccountAchievementRecord[] {
  const out: AccountAchievementRecord[] = [];
  for (let n = 0; n < FILLER_ACHIEVEMENT_COUNT; n += every) {
    const record = records.get(FILLER_ACHIEVEMENT_FIRST_ID + n);
    if (record === undefined) continue;
    const max = bitCount(record);
    const random = seeded(record.id, "progress", every);
    if (random.chance(0.4)) {
      const repeatable = record.flags.includes("Repeatable");
      out.push(finished(record, repeatable ? random.int(1, 6) : undefined));
    } else if (record.bits !== undefined) {
      out.push(started(record, range(Math.min(record.bits.length - 1, 1))));
    } else {
      const current = random.int(0, Math.max(0, max - 1));
      out.push({
        id: record.id,
        current,
        max,
        done: false,
        ...(random.chance(0.1) ? { unlocked: false } : {}),
      });
    }
  }
  return out;
}

function masteryPoints(earned: number, unspent: number): MasteryPointsRecord {
  const regions = ["Central Tyria", "Heart of Thorns", "Path of Fire", "Icebrood Saga"];
  return {
    totals: regions.map((region, index) => {
      const share = Math.round(earned / (index + 2));
      return { region, spent: Math.max(0, share - (index === 0 ? unspent : 0)), earned: share };
    }),
    unlocked: range(24).map((n) => n + 1),
  };
}
