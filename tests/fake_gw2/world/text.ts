/**
 * Generated text of the fake world: chat links (computed exactly as the game does), icon URLs
 * in the real render-service format, and fresh filler prose of a requested length so records
 * keep a realistic weight without carrying any upstream description.
 *
 * @module
 */

import { seeded } from "../../support/random.ts";

/** Item chat link: `[&` + base64(0x02, quantity 1, 3-byte little-endian id, 0x00) + `]`. */
export function itemChatLink(id: number): string {
  return chatLink([0x02, 0x01, id & 0xff, (id >>> 8) & 0xff, (id >>> 16) & 0xff, 0x00]);
}

/** Recipe chat link: `[&` + base64(0x09, 4-byte little-endian id) + `]`. */
export function recipeChatLink(id: number): string {
  return chatLink([0x09, id & 0xff, (id >>> 8) & 0xff, (id >>> 16) & 0xff, (id >>> 24) & 0xff]);
}

function chatLink(bytes: readonly number[]): string {
  return `[&${btoa(String.fromCharCode(...bytes))}]`;
}

/**
 * A render-service icon URL, `https://render.guildwars2.com/file/<40 hex>/<number>.png`,
 * derived from the record it decorates (e.g. `iconUrl("item", 19721)`).
 */
export function iconUrl(...seed: readonly (number | string)[]): string {
  const random = seeded("icon", ...seed);
  let signature = "";
  for (let word = 0; word < 5; word++) {
    signature += Math.floor(random.next() * 0x1_0000_0000).toString(16).toUpperCase().padStart(
      8,
      "0",
    );
  }
  return `https://render.guildwars2.com/file/${signature}/${random.int(60_000, 2_100_000)}.png`;
}

// Written for the fake; deliberately generic so no upstream prose is reproduced.
const SENTENCES: readonly string[] = [
  "Crafters across Tyria keep a few of these close at hand.",
  "It hums faintly when held near a crafting station.",
  "Traders in Lion's Arch argue endlessly about its worth.",
  "Used by artisans who refuse to settle for ordinary work.",
  "The surface is cool to the touch and oddly light.",
  "Old notes in the Durmand Priory archives mention it twice.",
  "Store it somewhere dry; it does not like the rain.",
  "Apprentices are warned not to waste it on practice pieces.",
  "A steady hand is needed to work it without cracking.",
  "Quartermasters count these carefully at the end of each day.",
  "Its glow fades slowly after it leaves the forge.",
  "Few adventurers remember where they first found one.",
  "Combine it with patience and the right materials.",
  "The markings on its side follow no known alphabet.",
  "Asura researchers have catalogued at least four variants.",
  "It smells faintly of ozone and old parchment.",
  "Merchants wrap it in cloth before handing it over.",
  "Some say it brings luck to the one who carries it.",
  "Heavier than it looks, and sturdier than it seems.",
  "A favourite of collectors who value careful work.",
  "Sylvari gardeners claim it grows warmer at dawn.",
  "Norn hunters trade stories about how they earned theirs.",
  "Charr engineers prefer it to anything the markets offer.",
  "It fits neatly in a pack without taking much room.",
  "Guild halls display the finest examples near the entrance.",
  "The edges were finished by someone who took their time.",
  "It was made to last through many long campaigns.",
  "Polish it now and then to keep the shine alive.",
  "Its weight settles comfortably after a few days of use.",
  "Scholars still debate how the first one was made.",
];

/** Opening sentences by item type, so descriptions read as if they belong to the record. */
const LEADS: Readonly<Record<string, string>> = {
  Weapon: "A weapon shaped for those who fight at the front.",
  Armor: "Protective gear fitted by a careful armorer.",
  Trophy: "A keepsake valued by collectors and crafters alike.",
  CraftingMaterial: "A material used in crafting.",
  UpgradeComponent: "An upgrade that can be slotted into equipment.",
  Consumable: "Use it to gain a temporary benefit.",
  Container: "Double-click to see what is inside.",
  Bag: "A bag that adds room to your inventory.",
  Trinket: "A trinket worn for its quiet strength.",
  Back: "Worn on the back, under the armor.",
  Currency: "A currency earned across the world.",
};

/**
 * Fresh prose of about `length` characters (never more): a lead for `kind` followed by generic
 * sentences, cut at a word boundary. `flavor` wraps it in the game's `<c=@flavor>` markup.
 */
export function writeProse(
  length: number,
  options: { readonly seed: readonly (number | string)[]; kind?: string; flavor?: boolean },
): string {
  if (length <= 0) return "";
  const open = "<c=@flavor>";
  const close = "</c>";
  if (options.flavor === true && length > open.length + close.length + 4) {
    const inner = writeProse(length - open.length - close.length, { ...options, flavor: false });
    return `${open}${inner}${close}`;
  }
  const random = seeded("prose", ...options.seed);
  const lead = options.kind === undefined ? undefined : LEADS[options.kind];
  let text = lead ?? random.pick(SENTENCES);
  while (text.length < length) text += ` ${random.pick(SENTENCES)}`;
  return cutAtWord(text, length);
}

function cutAtWord(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  // Prefer ending on a whole sentence; fall back to a word boundary.
  const sentenceEnd = cut.lastIndexOf(". ");
  if (sentenceEnd >= length * 0.6) return cut.slice(0, sentenceEnd + 1);
  const space = cut.lastIndexOf(" ");
  const words = (space > length / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/u, "");
  return words.length < length ? `${words}.` : words;
}
