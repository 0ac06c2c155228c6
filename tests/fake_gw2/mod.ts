/**
 * A faithful fake of the Guild Wars 2 API v2 for tests and benchmarks: the endpoints Priory
 * uses, their bulk, auth, schema-version and error rules, an upstream-like token bucket,
 * injectable faults and latency, a request log, and a deterministic world of real
 * legendary-crafting items plus generated filler. See docs/fake-gw2.md.
 *
 * ```ts
 * import { createFakeGw2, TEST_KEYS } from "./mod.ts";
 * const fake = createFakeGw2();
 * const response = await fake.fetch(new Request("http://gw2.test/v2/account", {
 *   headers: { Authorization: `Bearer ${TEST_KEYS.full}` },
 * }));
 * ```
 *
 * @module
 */

export {
  createFakeGw2,
  DEFAULT_RATE_BURST,
  DEFAULT_RATE_PER_SEC,
  type FakeGw2,
  type FakeGw2Options,
} from "./fake.ts";
export { type RunningFakeGw2, startFakeGw2, type StartFakeGw2Options } from "./serve.ts";
export {
  BOOK_STATES,
  type FakeBookState,
  type FakeControl,
  type FakeFault,
  type FakeRequestLog,
  FAULTS,
} from "./control.ts";
export { playerKey, type Scope, TEST_KEYS, UNKNOWN_KEY } from "./auth.ts";
export { DEFAULT_PAGE_SIZE, MAX_IDS, MAX_PAGE_SIZE } from "./bulk.ts";
export { SCHEMA } from "./schema_version.ts";
export { type FakeWorld, getWorld } from "./world/world.ts";
export { type ListingLevel, type ListingRecord } from "./world/listings.ts";
export { MARKET_TICK_MS, type MarketParams, MovingMarket } from "./world/market.ts";
export {
  CRAFT_MARKET,
  CRAFT_MARKET_RECIPE_IDS,
  CRAFT_MARKET_SCALE,
} from "./world/crafting_market.ts";
export {
  DAILY_CRAFTING,
  DUNGEONS,
  MAIN_PROGRESS,
  MAP_CHESTS,
  RAIDS,
  VETERAN_PROGRESS,
  WORLD_BOSSES,
} from "./world/resets.ts";
export { MAIN_VAULT, VAULT_LISTING, VAULT_SEASON, VETERAN_VAULT } from "./world/vault.ts";
export {
  FILLER_COUNT,
  FILLER_FIRST_ID,
  GEN1_LEGENDARY_IDS,
  LODESTONE_IDS,
  NAMED_GIFT_IDS,
  NAMED_GIFT_SIGIL_IDS,
  PRECURSOR_IDS,
  REPRESENTATIVE_IDS,
  T6_MATERIAL_IDS,
  THIN_BOOK_IDS,
  WELL_KNOWN,
} from "./world/well_known.ts";
export type * from "./world/types.ts";
