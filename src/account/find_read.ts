/**
 * The reads behind "where is it?" (`findItems`, `find.ts`): the holdings (the holdings reader,
 * part by part), the legendary armory, the Trading Post's delivery box and the account's current
 * sell listings - all at once, after one cached `/v2/tokeninfo` says which the key may read. A
 * part it may not is named in `unread` with the scope it needs, without a request; the rest
 * answers. Each read is cached five minutes under the key's HMAC, as every account read.
 *
 * @module
 */

import { settleAll } from "../async/concurrency.ts";
import type { Gw2Client } from "../gw2/types.ts";
import type { FindSources } from "./find.ts";
import { readHoldingParts } from "./holdings.ts";
import { readPermitted, type Unread, unreadOf, valueOf } from "./unread.ts";

/** What was read, and which parts were not (in the answer's place order). */
export interface FindRead {
  readonly sources: FindSources;
  readonly unread: readonly Unread[];
}

/**
 * Reads every place an item can lie that the key may read.
 *
 * @example
 * ```ts
 * const { sources, unread } = await readFindSources(gw2, key);
 * findItems([19976], sources, names, units);
 * ```
 * @throws a `Gw2Failure` other than a missing scope (a rejected key, an outage)
 */
export async function readFindSources(gw2: Gw2Client, key: string): Promise<FindRead> {
  const { value: token } = await gw2.doc("tokenInfo", { key });
  const { permissions } = token;
  const [held, armory, delivery, selling] = await settleAll([
    readHoldingParts(gw2, key, permissions),
    readPermitted(
      "armory",
      permissions,
      ["inventories", "unlocks"],
      async () => (await gw2.doc("accountLegendaryArmory", { key })).value,
    ),
    readPermitted(
      "delivery",
      permissions,
      ["tradingpost"],
      async () => (await gw2.doc("tpDelivery", { key })).value,
    ),
    readPermitted(
      "selling",
      permissions,
      ["tradingpost"],
      async () => (await gw2.doc("tpSelling", { key })).value,
    ),
  ]);
  const armoryRows = valueOf(armory);
  const box = valueOf(delivery);
  const listed = valueOf(selling);
  return {
    sources: {
      holdings: held.holdings.places,
      ...(armoryRows === undefined
        ? {}
        : { armory: new Map(armoryRows.map((row) => [row.id, row.count])) }),
      ...(box === undefined ? {} : { delivery: box.items }),
      ...(listed === undefined ? {} : { selling: listed }),
    },
    unread: [...held.unread, ...unreadOf([armory, delivery, selling])],
  };
}
