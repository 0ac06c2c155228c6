/**
 * The player's holdings read on their own, for tests and benchmarks: `withHoldings` with no
 * work beside it (the scope check, then every source at once).
 *
 * @module
 */

import { withHoldings } from "../../src/account/holdings.ts";
import type { Holdings } from "../../src/account/tally.ts";
import type { Gw2Client } from "../../src/gw2/types.ts";

/** Reads and tallies what the player of `key` holds. */
export async function readHoldings(gw2: Gw2Client, key: string): Promise<Holdings> {
  return (await withHoldings(gw2, key, () => Promise.resolve())).holdings;
}
