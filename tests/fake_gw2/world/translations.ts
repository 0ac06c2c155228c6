/**
 * Plausible German, French, Spanish and Chinese names for the fake's generated items (stand-ins
 * and filler), translated word by word from their English names with a small dictionary of the
 * words those names are made of (`words.ts`), and each language's habits: French and Spanish put
 * the noun first and write "de"; French sets a no-break space before a colon; Chinese writes no
 * spaces, puts what follows "of" first and uses a full-width colon. So name search meets, at the
 * fake's scale, what it meets in the real catalogue: accents, `ß`, umlauts, ligatures, no-break
 * spaces and names without word breaks. A word the dictionary lacks stays as it is (the real
 * API leaves some names untranslated too).
 *
 * @module
 */

import type { Lang } from "../../../src/gw2/types.ts";

type Other = Exclude<Lang, "en">;

/** English word → [German, French, Spanish, Chinese]. */
const WORDS: Readonly<Record<string, readonly [string, string, string, string]>> = {
  "Acolyte": ["Akolythen", "acolyte", "acólito", "侍僧"],
  "Amber": ["Bernstein", "ambre", "ámbar", "琥珀"],
  "Amethyst": ["Amethyst", "améthyste", "amatista", "紫水晶"],
  "Ancient": ["Uralter", "ancien", "antiguo", "远古"],
  "Apothecary's": ["Apotheker-", "d'apothicaire", "de boticario", "药师"],
  "Apple": ["Apfel", "pomme", "manzana", "苹果"],
  "Ashen": ["Aschfahler", "cendreux", "ceniciento", "灰烬"],
  "Ashes": ["Asche", "cendres", "cenizas", "余烬"],
  "Assassin's": ["Assassinen-", "d'assassin", "de asesino", "刺客"],
  "Axe": ["Axt", "hache", "hacha", "斧"],
  "Back": ["Rücken", "dos", "espalda", "背"],
  "Bag": ["Beutel", "sac", "bolsa", "包"],
  "Banded": ["Gebänderter", "cerclé", "bandeado", "箍"],
  "Banner": ["Banner", "bannière", "estandarte", "旗帜"],
  "Bean": ["Bohnen", "haricots", "judías", "豆"],
  "Berry": ["Beeren", "baies", "bayas", "浆果"],
  "Berserker's": ["Berserker-", "de berserker", "de berserker", "狂战士"],
  "Beryl": ["Beryll", "béryl", "berilo", "绿柱石"],
  "Boots": ["Stiefel", "bottes", "botas", "靴"],
  "Bow": ["Bogen", "arc", "arco", "弓"],
  "Bowl": ["Schüssel", "bol", "cuenco", "碗"],
  "Box": ["Kiste", "boîte", "caja", "盒"],
  "Brace": ["Schutz", "corset", "refuerzo", "护"],
  "Brambles": ["Dornen", "ronces", "zarzas", "荆棘"],
  "Bread": ["Brot", "pain", "pan", "面包"],
  "Breastplate": ["Brustplatte", "cuirasse", "coraza", "胸甲"],
  "Brittle": ["Spröder", "friable", "quebradizo", "脆"],
  "Bronze": ["Bronze", "bronze", "bronce", "青铜"],
  "Bundle": ["Bündel", "liasse", "manojo", "捆"],
  "Cabalist": ["Kabbalisten", "cabaliste", "cabalista", "秘术师"],
  "Cache": ["Vorrat", "cache", "alijo", "储物"],
  "Cake": ["Kuchen", "gâteau", "pastel", "蛋糕"],
  "Candied": ["Kandierte", "confit", "confitado", "蜜饯"],
  "Carnelian": ["Karneol", "cornaline", "cornalina", "红玉髓"],
  "Carrion": ["Aas-", "charognard", "carroña", "腐尸"],
  "Carrot": ["Karotten", "carotte", "zanahoria", "胡萝卜"],
  "Casing": ["Gehäuse", "boîtier", "carcasa", "外壳"],
  "Celestial": ["Himmlischer", "céleste", "celestial", "天界"],
  "Chain": ["Ketten", "mailles", "cota de malla", "锁链"],
  "Chest": ["Truhe", "coffre", "cofre", "箱"],
  "Chili": ["Chili", "chili", "chile", "辣酱"],
  "Chrysocola": ["Chrysokoll", "chrysocolle", "crisocola", "硅孔雀石"],
  "Cinder": ["Glut", "braise", "ascua", "炉渣"],
  "Citadel": ["Zitadelle", "citadelle", "ciudadela", "堡垒"],
  "Cleric's": ["Kleriker-", "de clerc", "de clérigo", "牧师"],
  "Coat": ["Mantel", "manteau", "abrigo", "外套"],
  "Coffer": ["Schatulle", "coffret", "arca", "宝匣"],
  "Commander's": ["Kommandeurs-", "de commandant", "de comandante", "指挥官"],
  "Coral": ["Koralle", "corail", "coral", "珊瑚"],
  "Core": ["Kern", "noyau", "núcleo", "核心"],
  "Crate": ["Kiste", "caisse", "cajón", "板条箱"],
  "Crumble": ["Streusel", "crumble", "crujiente", "酥"],
  "Cup": ["Tasse", "tasse", "taza", "杯"],
  "Dagger": ["Dolch", "dague", "daga", "匕首"],
  "Darksteel": ["Dunkelstahl", "acier noir", "acero oscuro", "暗钢"],
  "Dense": ["Dichter", "dense", "denso", "致密"],
  "Dire": ["Grausamer", "redoutable", "terrible", "凶恶"],
  "Duelist": ["Duellanten", "duelliste", "duelista", "决斗者"],
  "Dunes": ["Dünen", "dunes", "dunas", "沙丘"],
  "Echoes": ["Echos", "échos", "ecos", "回声"],
  "Elder": ["Alt", "ancestral", "ancestral", "古"],
  "Embers": ["Glut", "braises", "ascuas", "余火"],
  "Embroidered": ["Bestickter", "brodé", "bordado", "刺绣"],
  "Emerald": ["Smaragd", "émeraude", "esmeralda", "翡翠"],
  "Fiber": ["Faser", "fibre", "fibra", "纤维"],
  "Fillet": ["Filet", "filet", "filete", "鱼排"],
  "Fish": ["Fisch", "poisson", "pescado", "鱼"],
  "Focus": ["Fokus", "focus", "foco", "聚能器"],
  "Frost": ["Frost", "givre", "escarcha", "冰霜"],
  "Frosted": ["Bereifter", "givré", "escarchado", "霜冻"],
  "Garnet": ["Granat", "grenat", "granate", "石榴石"],
  "Gauntlets": ["Panzerhandschuhe", "gantelets", "guanteletes", "护手"],
  "Gladiator": ["Gladiatoren", "gladiateur", "gladiador", "角斗士"],
  "Glazed": ["Glasierte", "glacé", "glaseado", "糖霜"],
  "Glinting": ["Glitzernder", "scintillant", "centelleante", "闪烁"],
  "Gloves": ["Handschuhe", "gants", "guantes", "手套"],
  "Greatsword": ["Großschwert", "espadon", "mandoble", "巨剑"],
  "Greaves": ["Beinschienen", "grèves", "grebas", "胫甲"],
  "Grove": ["Hains", "bosquet", "arboleda", "林地"],
  "Guild": ["Gilden", "guilde", "clan", "公会"],
  "Haft": ["Schaft", "manche", "mango", "柄"],
  "Hammer": ["Hammer", "marteau", "martillo", "锤"],
  "Hard": ["Hart", "dur", "duro", "硬"],
  "Harpoon": ["Harpune", "harpon", "arpón", "鱼叉"],
  "Harrier's": ["Jäger-", "de busard", "de hostigador", "猎鹰"],
  "Haste": ["Eile", "hâte", "celeridad", "迅捷"],
  "Helm": ["Helm", "heaume", "yelmo", "头盔"],
  "Herb": ["Kräuter", "herbes", "hierbas", "草药"],
  "Hilt": ["Griff", "poignée", "empuñadura", "剑柄"],
  "Hollow": ["Hohler", "creux", "hueco", "空心"],
  "Husk": ["Hülse", "cosse", "cáscara", "壳"],
  "Inscription": ["Inschrift", "inscription", "inscripción", "铭文"],
  "Insignia": ["Insignie", "insigne", "insignia", "徽记"],
  "Iron": ["Eisen", "fer", "hierro", "铁"],
  "Jewel": ["Juwel", "joyau", "joya", "珠宝"],
  "Knight's": ["Ritter-", "de chevalier", "de caballero", "骑士"],
  "Lantern": ["Laterne", "lanterne", "farol", "灯笼"],
  "Lapis": ["Lapislazuli", "lapis", "lapislázuli", "青金石"],
  "Leather": ["Leder", "cuir", "cuero", "皮革"],
  "Leggings": ["Beinlinge", "jambières", "mallas", "护腿"],
  "Loaf": ["Laib", "miche", "hogaza", "条"],
  "Longbow": ["Langbogen", "arc long", "arco largo", "长弓"],
  "Luminous": ["Leuchtender", "lumineux", "luminoso", "发光"],
  "Lump": ["Klumpen", "morceau", "trozo", "块"],
  "Mace": ["Streitkolben", "masse", "maza", "锤矛"],
  "Magi's": ["Magier-", "de mage", "de mago", "法师"],
  "Major": ["Größere", "majeur", "mayor", "大"],
  "Mantle": ["Mantel", "mantelet", "manto", "披肩"],
  "Marauder": ["Plünderer-", "maraudeur", "merodeador", "掠夺者"],
  "Mask": ["Maske", "masque", "máscara", "面具"],
  "Masque": ["Larve", "loup", "antifaz", "假面"],
  "Mending": ["Heilung", "guérison", "curación", "修复"],
  "Minor": ["Schwache", "mineur", "menor", "小"],
  "Minstrel's": ["Barden-", "de ménestrel", "de juglar", "吟游诗人"],
  "Mithril": ["Mithril", "mithril", "mithril", "秘银"],
  "Murky": ["Trüber", "trouble", "turbio", "浑浊"],
  "Mushroom": ["Pilz", "champignons", "champiñones", "蘑菇"],
  "Mystic": ["Mystischer", "mystique", "místico", "神秘"],
  "Onion": ["Zwiebel", "oignon", "cebolla", "洋葱"],
  "Opal": ["Opal", "opale", "ópalo", "蛋白石"],
  "Orichalcum": ["Orichalcum", "orichalque", "oricalco", "山铜"],
  "Outlaw": ["Gesetzlosen", "hors-la-loi", "forajido", "亡命徒"],
  "Pack": ["Tornister", "paquetage", "petate", "背包"],
  "Pants": ["Hose", "pantalon", "pantalones", "长裤"],
  "Pauldrons": ["Schulterstücke", "spallières", "hombreras", "肩铠"],
  "Pebble": ["Kiesel", "caillou", "guijarro", "卵石"],
  "Peppered": ["Gepfefferte", "poivré", "con pimienta", "椒盐"],
  "Peridot": ["Peridot", "péridot", "peridoto", "橄榄石"],
  "Petal": ["Blütenblatt", "pétale", "pétalo", "花瓣"],
  "Pie": ["Kuchen", "tourte", "tarta", "派"],
  "Pile": ["Haufen", "tas", "montón", "堆"],
  "Pistol": ["Pistole", "pistolet", "pistola", "手枪"],
  "Plate": ["Teller", "assiette", "plato", "盘"],
  "Plated": ["Plattierter", "plaqué", "chapado", "板甲"],
  "Potato": ["Kartoffel", "pommes de terre", "patata", "土豆"],
  "Prowler": ["Herumtreiber", "rôdeur", "merodeador", "潜行者"],
  "Pumpkin": ["Kürbis", "citrouille", "calabaza", "南瓜"],
  "Quiet": ["Stillen", "paisibles", "tranquilas", "静"],
  "Quill": ["Feder", "plume", "pluma", "羽毛"],
  "Rabid": ["Tollwütiger", "enragé", "rabioso", "狂暴"],
  "Rampager's": ["Tobsüchtigen-", "de saccageur", "de arrasador", "暴徒"],
  "Resin": ["Harz", "résine", "resina", "树脂"],
  "Resonant": ["Widerhallender", "résonnant", "resonante", "共鸣"],
  "Rifle": ["Gewehr", "fusil", "rifle", "步枪"],
  "Ring": ["Ring", "anneau", "anillo", "戒指"],
  "Roasted": ["Geröstete", "rôti", "asado", "烤"],
  "Rogue": ["Schurken", "voleur", "pícaro", "盗贼"],
  "Ruby": ["Rubin", "rubis", "rubí", "红宝石"],
  "Rucksack": ["Rucksack", "sac à dos", "mochila", "行囊"],
  "Rug": ["Teppich", "tapis", "alfombra", "地毯"],
  "Ruin": ["Ruins", "ruine", "ruina", "毁灭"],
  "Rune": ["Rune", "rune", "runa", "符文"],
  "Sack": ["Sack", "sac", "saco", "袋"],
  "Salad": ["Salat", "salade", "ensalada", "沙拉"],
  "Sap": ["Saft", "sève", "savia", "树汁"],
  "Sapphire": ["Saphir", "saphir", "zafiro", "蓝宝石"],
  "Satchel": ["Umhängetasche", "besace", "morral", "挎包"],
  "Savory": ["Herzhafte", "savoureux", "sabroso", "咸香"],
  "Scale": ["Schuppen", "écailles", "escamas", "鳞甲"],
  "Scepter": ["Zepter", "sceptre", "cetro", "权杖"],
  "Seasoned": ["Abgelagerter", "affiné", "curado", "风干"],
  "Seer": ["Seher", "devin", "vidente", "先知"],
  "Sentinel's": ["Wächter-", "de sentinelle", "de centinela", "哨兵"],
  "Seraph": ["Seraphen-", "séraphin", "serafín", "炽天使"],
  "Shaman's": ["Schamanen-", "de chaman", "de chamán", "萨满"],
  "Shell": ["Schale", "coquille", "concha", "贝壳"],
  "Shield": ["Schild", "bouclier", "escudo", "盾"],
  "Shoes": ["Schuhe", "chaussures", "zapatos", "鞋"],
  "Short": ["Kurz", "court", "corto", "短"],
  "Shoulders": ["Schultern", "épaulières", "hombros", "护肩"],
  "Sigil": ["Sigill", "cachet", "sello", "符印"],
  "Silk": ["Seiden", "soie", "seda", "丝绸"],
  "Silt": ["Schlick", "limon", "limo", "淤泥"],
  "Sinister": ["Finsterer", "sinistre", "siniestro", "邪恶"],
  "Skewer": ["Spieß", "brochette", "brocheta", "串"],
  "Slice": ["Stück", "tranche", "porción", "片"],
  "Slot": ["Platz", "emplacements", "casillas", "格"],
  "Smoked": ["Geräucherte", "fumé", "ahumado", "烟熏"],
  "Smoldering": ["Schwelender", "fumant", "humeante", "阴燃"],
  "Soldier's": ["Soldaten-", "de soldat", "de soldado", "士兵"],
  "Soup": ["Suppe", "soupe", "sopa", "汤"],
  "Speargun": ["Harpunenschleuder", "fusil-harpon", "arpón submarino", "鱼枪"],
  "Spiced": ["Gewürzte", "épicé", "especiado", "香料"],
  "Spinel": ["Spinell", "spinelle", "espinela", "尖晶石"],
  "Splint": ["Schienen", "éclisses", "tablillas", "夹板"],
  "Splinter": ["Splitter", "écharde", "astilla", "碎片"],
  "Spore": ["Spore", "spore", "espora", "孢子"],
  "Staff": ["Stab", "bâton", "báculo", "法杖"],
  "Stalker": ["Pirscher", "traqueur", "acechador", "追踪者"],
  "Starlight": ["Sternenlichts", "lumière stellaire", "luz estelar", "星光"],
  "Statue": ["Statue", "statue", "estatua", "雕像"],
  "Steel": ["Stahl", "acier", "acero", "钢"],
  "Stew": ["Eintopf", "ragoût", "estofado", "炖菜"],
  "Storms": ["Stürme", "tempêtes", "tormentas", "风暴"],
  "Strongbox": ["Geldkassette", "coffre-fort", "caja fuerte", "保险箱"],
  "Sunstone": ["Sonnenstein", "pierre de soleil", "piedra solar", "日长石"],
  "Superior": ["Überlegene", "supérieur", "superior", "高级"],
  "Sweet": ["Süße", "sucré", "dulce", "甜"],
  "Sword": ["Schwert", "épée", "espada", "剑"],
  "Tallow": ["Talg", "suif", "sebo", "油脂"],
  "Tarnished": ["Angelaufener", "terni", "deslustrado", "失色"],
  "Tart": ["Tarte", "tarte", "tartaleta", "馅饼"],
  "Tassets": ["Beintaschen", "tassettes", "escarcelas", "腿甲"],
  "Thread": ["Faden", "fil", "hilo", "丝线"],
  "Thunderhead": ["Donnerkopfs", "cumulonimbus", "cumulonimbo", "雷云"],
  "Tides": ["Gezeiten", "marées", "mareas", "潮汐"],
  "Topaz": ["Topas", "topaze", "topacio", "黄玉"],
  "Torch": ["Fackel", "torche", "antorcha", "火炬"],
  "Trailblazer's": ["Wegbereiter-", "de pionnier", "de pionero", "开拓者"],
  "Trident": ["Dreizack", "trident", "tridente", "三叉戟"],
  "Valkyrie": ["Walküren-", "de valkyrie", "de valquiria", "女武神"],
  "Verdant": ["Grüner", "verdoyant", "verde", "翠绿"],
  "Vestments": ["Gewänder", "tenue", "vestiduras", "法袍"],
  "Vial": ["Phiole", "fiole", "vial", "瓶"],
  "Vigor": ["Lebenskraft", "vigueur", "vigor", "活力"],
  "Viper's": ["Vipern-", "de vipère", "de víbora", "毒蛇"],
  "Wanderer": ["Wanderers", "vagabond", "vagabundo", "流浪者"],
  "Wanderer's": ["Wanderer-", "de vagabond", "de vagabundo", "漫游者"],
  "Warhorn": ["Kriegshorn", "cor de guerre", "cuerno de guerra", "战号"],
  "Waters": ["Wasser", "eaux", "aguas", "水域"],
  "Zealot's": ["Eiferer-", "de zélote", "de fanático", "狂热者"],
  "Green": ["Grün", "vert", "verde", "青"],
  "Soft": ["Weich", "tendre", "blando", "软"],
};

/** "of", "the" and the like: dropped, or written the language's way. */
const LINKS: Readonly<Record<Other, { readonly of: string; readonly the: string }>> = {
  de: { of: "des", the: "" },
  fr: { of: "de", the: "" },
  es: { of: "de", the: "" },
  zh: { of: "", the: "" },
};

const COLUMN: Readonly<Record<Other, 0 | 1 | 2 | 3>> = { de: 0, fr: 1, es: 2, zh: 3 };

/** `word` with a capital first letter. */
function capital(word: string): string {
  return word.charAt(0).toLocaleUpperCase() + word.slice(1);
}

function translated(words: readonly string[], lang: Other): string[] {
  const column = COLUMN[lang];
  return words.map((word) => WORDS[word]?.[column] ?? word).filter((word) => word !== "");
}

/**
 * A plausible name in `lang` for a generated item called `english` (see the module).
 *
 * @example
 * ```ts
 * translateName("Superior Sigil of Embers", "fr"); // "Cachet supérieur de braises"
 * translateName("Berserker's Orichalcum Greatsword", "de"); // "Berserker-Orichalcum Großschwert"
 * ```
 */
export function translateName(english: string, lang: Other): string {
  const [head = "", tail] = english.split(/ of /u, 2);
  const headWords = head.split(" ").filter((word) => word !== "");
  const tailWords = tail === undefined
    ? []
    : tail.split(" ").filter((word) => word !== "" && word !== "the");
  const front = translated(headWords, lang);
  const back = translated(tailWords, lang);
  if (lang === "zh") return [...back, ...front].join("").replace(/:/gu, "：");
  if (lang === "de") {
    // German joins a compound's parts: a part ending in "-" runs into the next word.
    const joined = front.join(" ").replace(/- /gu, "-");
    const name = back.length === 0 ? joined : `${joined} ${LINKS.de.of} ${back.join(" ")}`;
    return capital(name);
  }
  // French and Spanish: the noun (the head's last word) first, then what described it.
  const noun = front.at(-1) ?? "";
  const described = [noun, ...front.slice(0, -1).reverse()].join(" ");
  const name = back.length === 0 ? described : `${described} ${LINKS[lang].of} ${back.join(" ")}`;
  const spaced = lang === "fr"
    ? name.replace(/ ?:/gu, "\u00a0:").replace(/de ([aeiouéh])/gu, "d'$1")
    : name;
  return capital(spaced);
}
