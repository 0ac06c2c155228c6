/**
 * The fake world in German, French, Spanish and Chinese: `/v2/items`, `/v2/currencies` and
 * `/v2/materials` answer `?lang=` with the same records as in English but their names (only
 * names are localized; ids, rarities, types, flags and numbers are the same in every language).
 *
 * - Curated items: ArenaNet's own names (`../data/item_names.json`, written by
 *   `scripts/fake_item_names.ts` from the reference pack) where the pack has them, 1,167 of the
 *   1,197; the other curated items, the stand-ins and the filler: plausible names translated
 *   from their English ones (`translations.ts`).
 * - Currencies and material categories: names written for the fake, the real ones where they
 *   are well known, plausible ones otherwise.
 *
 * Built per language on first ask and kept, like the world.
 *
 * @module
 */

import namesData from "../data/item_names.json" with { type: "json" };
import type { Lang } from "../../../src/gw2/types.ts";
import { translateName } from "./translations.ts";
import type { CurrencyRecord, ItemRecord, MaterialCategoryRecord } from "./types.ts";

type Other = Exclude<Lang, "en">;
type Names = readonly [de: string, fr: string, es: string, zh: string];

const COLUMN: Readonly<Record<Other, 0 | 1 | 2 | 3>> = { de: 0, fr: 1, es: 2, zh: 3 };

/** Curated item id → its real names. */
const REAL_ITEM_NAMES: ReadonlyMap<number, Names> = new Map(
  namesData.names.map((row) => {
    const [id, de, fr, es, zh] = row;
    return [Number(id), [String(de), String(fr), String(es), String(zh)] as const];
  }),
);

/** Currency id → its names. */
const CURRENCY_NAMES: Readonly<Record<number, Names>> = {
  1: ["Münze", "Pièce", "Moneda", "金币"],
  2: ["Karma", "Karma", "Karma", "业力"],
  3: ["Lorbeer", "Laurier", "Laurel", "月桂花环"],
  4: ["Edelstein", "Gemme", "Gema", "宝石"],
  5: ["Ascalonische Träne", "Larme ascalonienne", "Lágrima ascaloniana", "阿斯卡隆之泪"],
  6: ["Scherbe des Zhaitan", "Éclat de Zhaïtan", "Esquirla de Zhaitan", "札坦碎片"],
  7: ["Fraktal-Relikt", "Relique fractale", "Reliquia fractal", "碎层遗物"],
  9: ["Siegel von Beetletun", "Sceau de Beetletun", "Sello de Beetletun", "甲虫镇印记"],
  10: [
    "Manifest des Moletariats",
    "Manifeste du Taupinariat",
    "Manifiesto del Topotariado",
    "鼹鼠宣言",
  ],
  11: ["Tödliche Blüte", "Fleur mortelle", "Flor mortífera", "致命花朵"],
  12: ["Symbol von Koda", "Symbole de Koda", "Símbolo de Koda", "科达符号"],
  13: [
    "Flammen-Legion-Charr-Schnitzerei",
    "Sculpture de Charr de la Légion de la Flamme",
    "Talla charr de la Legión de la Llama",
    "烈焰军团夏尔雕刻",
  ],
  14: ["Wissenskristall", "Cristal de connaissance", "Cristal de conocimiento", "知识水晶"],
  15: ["Ehrenabzeichen", "Insigne d'honneur", "Insignia de honor", "荣誉徽章"],
  16: ["Gildenbelobigung", "Recommandation de guilde", "Mención de clan", "公会嘉奖"],
  18: ["Transmutations-Ladung", "Charge de transmutation", "Carga de transmutación", "转化点数"],
  19: ["Luftschiff-Teil", "Pièce d'aéronef", "Pieza de aeronave", "飞艇部件"],
  20: ["Leylinien-Kristall", "Cristal de ligne de force", "Cristal de línea ley", "魔力线水晶"],
  22: ["Aurillium-Klumpen", "Morceau d'aurillium", "Trozo de aurilio", "金矿块"],
  23: ["Geister-Scherbe", "Éclat d'esprit", "Esquirla espiritual", "灵魂碎片"],
  24: [
    "Makelloses Fraktal-Relikt",
    "Relique fractale immaculée",
    "Reliquia fractal prístina",
    "原始碎层遗物",
  ],
  25: ["Geode", "Géode", "Geoda", "晶洞"],
  26: [
    "WvW-Gefecht-Anspruchsschein",
    "Ticket de réclamation d'escarmouche McM",
    "Vale de escaramuza de McM",
    "世界之战小规模战斗领奖券",
  ],
  27: ["Banditen-Wappen", "Écusson de bandit", "Emblema de bandido", "强盗徽章"],
  28: ["Magnetit-Scherbe", "Éclat de magnétite", "Esquirla de magnetita", "磁铁碎片"],
  29: ["Versorger-Marke", "Jeton d'approvisionneur", "Ficha de proveedor", "供应商代币"],
  30: ["PvP-Liga-Ticket", "Ticket de ligue JcJ", "Vale de liga JcJ", "PvP联赛券"],
  31: ["Beweis der Heldentaten", "Preuve d'héroïsme", "Prueba de heroísmo", "英雄证明"],
  32: ["Entfesselte Magie", "Magie déliée", "Magia desatada", "无约束魔法"],
  33: [
    "Aufgestiegene Scherben des Ruhms",
    "Éclats de gloire élevés",
    "Esquirlas de gloria ascendidas",
    "升华荣耀碎片",
  ],
  34: ["Handelskontrakt", "Contrat commercial", "Contrato comercial", "交易合约"],
  35: ["Elegie-Mosaik", "Mosaïque d'élégie", "Mosaico de elegía", "挽歌马赛克"],
  36: [
    "Zeugnis der Wüsten-Heldentaten",
    "Témoignage d'héroïsme du désert",
    "Testimonio de heroísmo del desierto",
    "沙漠英雄证词",
  ],
  37: ["Erhabener Schlüssel", "Clé exaltée", "Llave exaltada", "崇高钥匙"],
  38: ["Machete", "Machette", "Machete", "弯刀"],
  39: ["Gaeting-Kristall", "Cristal de Gaeting", "Cristal de Gaeting", "盖廷水晶"],
  40: ["Banditen-Dietrich", "Passe-partout de bandit", "Llave maestra de bandido", "强盗万能钥匙"],
  41: ["Pakt-Brecheisen", "Pied-de-biche du Pacte", "Palanca del Pacto", "契约撬棍"],
  42: ["Phiole mit Chak-Säure", "Fiole d'acide chak", "Vial de ácido chak", "查克酸液瓶"],
  43: ["Zephyriten-Dietrich", "Crochet zéphyrite", "Ganzúa zafiria", "西风锁匙"],
  44: ["Schlüssel des Händlers", "Clé du marchand", "Llave del comerciante", "商人钥匙"],
  45: ["Unbeständige Magie", "Magie volatile", "Magia volátil", "不稳定魔法"],
  46: ["PvP-Turnier-Gutschein", "Bon de tournoi JcJ", "Vale de torneo JcJ", "PvP锦标赛凭证"],
  47: ["Renn-Medaillon", "Médaillon de course", "Medallón de carreras", "竞速奖章"],
  49: ["Nebelgeborener Schlüssel", "Clé brumeuse", "Llave nacida de la niebla", "迷雾之钥"],
  50: ["Festmarke", "Jeton de festival", "Ficha de festival", "节日代币"],
  51: ["Vorratsschlüssel", "Clé de cache", "Llave de alijo", "储物钥匙"],
  52: [
    "Rote Propheten-Scherbe",
    "Éclat de prophète rouge",
    "Esquirla de profeta roja",
    "红色先知碎片",
  ],
  53: [
    "Grüne Propheten-Scherbe",
    "Éclat de prophète vert",
    "Esquirla de profeta verde",
    "绿色先知碎片",
  ],
  54: [
    "Blauer Propheten-Kristall",
    "Cristal de prophète bleu",
    "Cristal de profeta azul",
    "蓝色先知水晶",
  ],
  55: [
    "Grüner Propheten-Kristall",
    "Cristal de prophète vert",
    "Cristal de profeta verde",
    "绿色先知水晶",
  ],
  56: [
    "Roter Propheten-Kristall",
    "Cristal de prophète rouge",
    "Cristal de profeta rojo",
    "红色先知水晶",
  ],
  57: [
    "Blaue Propheten-Scherbe",
    "Éclat de prophète bleu",
    "Esquirla de profeta azul",
    "蓝色先知碎片",
  ],
  58: ["Kriegsvorräte", "Provisions de guerre", "Suministros de guerra", "战争补给"],
  59: [
    "Instabile Fraktal-Essenz",
    "Essence fractale instable",
    "Esencia fractal inestable",
    "不稳定碎层精华",
  ],
  60: [
    "Tyrianisches Verteidigungssiegel",
    "Sceau de défense tyrien",
    "Sello de defensa tyriano",
    "泰瑞亚防御印记",
  ],
  61: ["Forschungsnotiz", "Note de recherche", "Nota de investigación", "研究笔记"],
  62: ["Ungewöhnliche Münze", "Pièce inhabituelle", "Moneda inusual", "异常硬币"],
  63: ["Astrale Anerkennung", "Acclamation astrale", "Reconocimiento astral", "星界赞誉"],
  64: ["Jadesplitter", "Éclat de jade", "Astilla de jade", "玉石碎块"],
  65: [
    "Zeugnis der Jade-Heldentaten",
    "Témoignage d'héroïsme de jade",
    "Testimonio de heroísmo de jade",
    "翡翠英雄证词",
  ],
  66: ["Antike Münze", "Pièce antique", "Moneda antigua", "古代硬币"],
  67: ["Canach-Münzen", "Pièces de Canach", "Monedas de Canach", "卡纳赫硬币"],
  68: ["Kaiserliche Gunst", "Faveur impériale", "Favor imperial", "帝国恩惠"],
  69: [
    "Erzählungen von Verlies-Streifzügen",
    "Récits d'exploration de donjons",
    "Relatos de incursiones en mazmorras",
    "地下城探险故事",
  ],
  70: ["Legendäre Einsicht", "Aperçu légendaire", "Percepción legendaria", "传奇洞悉"],
  71: [
    "Jade-Bergarbeiter-Schlüsselkarte",
    "Carte-clé de mineur de jade",
    "Tarjeta llave de minero de jade",
    "玉石矿工钥匙卡",
  ],
  72: ["Statische Ladung", "Charge statique", "Carga estática", "静电"],
  73: ["Prise Sternenstaub", "Pincée de poussière d'étoile", "Pizca de polvo estelar", "一撮星尘"],
};

/** Material category id → its names. */
const CATEGORY_NAMES: Readonly<Record<number, Names>> = {
  5: ["Kochmaterialien", "Matériaux de cuisine", "Materiales de cocina", "烹饪材料"],
  6: [
    "Einfache Handwerksmaterialien",
    "Matériaux d'artisanat de base",
    "Materiales de artesanía básicos",
    "基础制作材料",
  ],
  29: [
    "Mittlere Handwerksmaterialien",
    "Matériaux d'artisanat intermédiaires",
    "Materiales de artesanía intermedios",
    "中级制作材料",
  ],
  30: ["Edelsteine und Juwelen", "Gemmes et joyaux", "Gemas y joyas", "宝石和珠宝"],
  37: [
    "Fortgeschrittene Handwerksmaterialien",
    "Matériaux d'artisanat avancés",
    "Materiales de artesanía avanzados",
    "高级制作材料",
  ],
  38: ["Festliche Materialien", "Matériaux festifs", "Materiales festivos", "节日材料"],
  46: ["Aufgestiegene Materialien", "Matériaux élevés", "Materiales ascendidos", "升华材料"],
  49: ["Kochzutaten", "Ingrédients de cuisine", "Ingredientes de cocina", "烹饪食材"],
  50: ["Schreibermaterialien", "Matériaux de scribe", "Materiales de escriba", "书记材料"],
};

/** The records of one language: the world's, renamed. */
export interface LocalizedRecords {
  readonly items: ReadonlyMap<number, ItemRecord>;
  readonly currencies: ReadonlyMap<number, CurrencyRecord>;
  readonly materials: ReadonlyMap<number, MaterialCategoryRecord>;
}

/** What the world holds in English, to localize. */
export interface EnglishRecords extends LocalizedRecords {
  /** Items whose facts are curated (real ids). */
  readonly curatedItemIds: readonly number[];
}

const built = new WeakMap<EnglishRecords, Map<Other, LocalizedRecords>>();

/** The records of `world` in `lang` (English: the world's own). */
export function localizedRecords(world: EnglishRecords, lang: Lang): LocalizedRecords {
  if (lang === "en") return world;
  let languages = built.get(world);
  if (languages === undefined) {
    languages = new Map();
    built.set(world, languages);
  }
  let records = languages.get(lang);
  if (records === undefined) {
    records = buildRecords(world, lang);
    languages.set(lang, records);
  }
  return records;
}

/** The name of curated item `id` in `lang`, if the reference data has it (for tests). */
export function realItemName(id: number, lang: Other): string | undefined {
  return REAL_ITEM_NAMES.get(id)?.[COLUMN[lang]];
}

function buildRecords(world: EnglishRecords, lang: Other): LocalizedRecords {
  const column = COLUMN[lang];
  const renamed = <T extends { readonly id: number; readonly name: string }>(
    records: ReadonlyMap<number, T>,
    nameOf: (record: T) => string,
  ): Map<number, T> => {
    const out = new Map<number, T>();
    for (const [id, record] of records) {
      out.set(id, Object.freeze({ ...record, name: nameOf(record) }));
    }
    return out;
  };
  return {
    items: renamed(
      world.items,
      (item) => REAL_ITEM_NAMES.get(item.id)?.[column] ?? translateName(item.name, lang),
    ),
    currencies: renamed(
      world.currencies,
      (currency) => CURRENCY_NAMES[currency.id]?.[column] ?? translateName(currency.name, lang),
    ),
    materials: renamed(
      world.materials,
      (category) => CATEGORY_NAMES[category.id]?.[column] ?? translateName(category.name, lang),
    ),
  };
}
