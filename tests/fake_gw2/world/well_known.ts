/**
 * Named ids of the fake world: the legendary-related items with their real GW2 ids, plus the
 * fake's own fixed points (an id nothing uses, the filler range). Tests and benchmarks refer to
 * these instead of magic numbers.
 *
 * @module
 */

/** Well-known item and recipe ids (real GW2 ids unless noted). */
export const WELL_KNOWN = {
  // Legendary-crafting materials.
  globOfEctoplasm: 19721,
  mysticClover: 19675,
  mysticCoin: 19976,
  obsidianShard: 19925,
  philosophersStone: 20796,
  bloodstoneShard: 20797,
  eldritchScroll: 20852,
  mysticCrystal: 20799,
  icyRunestone: 19676,
  // The four generic gifts.
  giftOfMastery: 19674,
  giftOfFortune: 19626,
  giftOfMight: 19672,
  giftOfMagic: 19673,
  giftOfMetal: 19621,
  giftOfWood: 19622,
  giftOfEnergy: 19623,
  // Tier 6 fine materials.
  vialOfPowerfulBlood: 24295,
  pileOfCrystallineDust: 24277,
  powerfulVenomSac: 24283,
  elaborateTotem: 24300,
  armoredScale: 24289,
  viciousClaw: 24351,
  ancientBone: 24358,
  viciousFang: 24357,
  // Refinement.
  orichalcumOre: 19701,
  orichalcumIngot: 19685,
  mithrilIngot: 19684,
  elderWoodPlank: 19709,
  /** Recipe 21: 2 Orichalcum Ore → 1 Orichalcum Ingot. */
  orichalcumIngotRecipe: 21,
  // Legendaries, precursors and named gifts used in examples.
  sunrise: 30703,
  twilight: 30704,
  eternity: 30689,
  frostfang: 30684,
  bolt: 30699,
  bifrost: 30698,
  predator: 30694,
  dawn: 29169,
  dusk: 29185,
  /** The Bifrost's precursor. */
  theLegend: 29180,
  /** The Predator's precursor (a rifle): the veteran wears one. */
  theHunter: 29175,
  giftOfSunrise: 19647,
  giftOfTwilight: 19648,
  // A legendary of every category beyond generation 1 (issue 14), real ids.
  /** Generation 2 (axe), account bound. */
  astralaria: 76158,
  /** Generation 3 (greatsword), tradeable. */
  aurenesBite: 96356,
  /** PvE legendary armor (heavy helm). */
  perfectedEnvoyHelmet: 80384,
  /** Obsidian armor: an id the 2023 snapshot predates, served with a stand-in record. */
  obsidianLightCrown: 101516,
  /** Trinket (accessory). */
  aurora: 81908,
  /** Back. */
  adInfinitum: 74155,
  legendaryRune: 91536,
  legendarySigil: 91505,
  /** A legendary no recipe makes (a reward): in the list, without a tree. */
  prismaticChampionsRegalia: 95380,
  /** Sold by coin vendors (10 for 1,496 coin) and on the Trading Post near that price. */
  thermocatalyticReagent: 46747,
  /** The only bag among the curated items (32 slots, account bound). */
  reinforcedOlmakhanBandolier: 87225,
  /** Fake-only: an item id that exists nowhere in the world. */
  absentItem: 1,
  /** Fake-only: a recipe id that exists nowhere in the world. */
  absentRecipe: 999_999,
} as const;

/** The 21 generation-1 legendary weapons, 30684–30704. */
export const GEN1_LEGENDARY_IDS: readonly number[] = range(30684, 30704);

/** Their 20 precursors, 29166–29185 (Eternity is made from Sunrise and Twilight instead). */
export const PRECURSOR_IDS: readonly number[] = range(29166, 29185);

/** The 20 named gifts ("Gift of Sunrise", …): 19625 and 19644–19662. */
export const NAMED_GIFT_IDS: readonly number[] = [19625, ...range(19644, 19662)];

/** The eight tier-6 fine materials that Gift of Might and Gift of Magic consume. */
export const T6_MATERIAL_IDS: readonly number[] = [
  24295,
  24277,
  24283,
  24300,
  24289,
  24351,
  24358,
  24357,
];

/** The seven lodestones the named gifts' second gifts consume (24305 Charged, … 24340). */
export const LODESTONE_IDS: readonly number[] = [24305, 24310, 24315, 24320, 24325, 24330, 24340];

/** The Superior Sigils the twenty named gifts consume, one id each (some gifts share one). */
export const NAMED_GIFT_SIGIL_IDS: readonly number[] = [
  24548,
  24554,
  24555,
  24561,
  24562,
  24570,
  24571,
  24572,
  24584,
  24592,
  24601,
  24607,
  24612,
  24615,
  24618,
  24632,
  24865,
];

/**
 * Items whose order books are thin in the fake (few units over a few steep levels), so a plan
 * walks past the first level or runs short: the precursors, the lodestones and the named gifts'
 * sigils. Their price records list as many units as their books hold.
 */
export const THIN_BOOK_IDS: readonly number[] = [
  ...PRECURSOR_IDS,
  ...LODESTONE_IDS,
  ...NAMED_GIFT_SIGIL_IDS,
];

/**
 * About fifty ids representative of a legendary-crafting session, for payload measurements:
 * the 21 gen-1 legendaries plus the named materials and gifts they consume.
 */
export const REPRESENTATIVE_IDS: readonly number[] = [
  ...GEN1_LEGENDARY_IDS,
  ...T6_MATERIAL_IDS,
  19721,
  19675,
  19976,
  19925,
  20796,
  20797,
  20852,
  20799,
  19676,
  19674,
  19626,
  19672,
  19673,
  19621,
  19622,
  19623,
  29169,
  29185,
  19647,
  19648,
  19701,
  19685,
];

/** First id of the generated filler items (an id range no real item uses). */
export const FILLER_FIRST_ID = 900_001;

/** How many filler items the world holds. */
export const FILLER_COUNT = 6_000;

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}
