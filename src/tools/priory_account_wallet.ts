/**
 * `priory_account_wallet`: the player's currencies with their names, and what its gems and coins
 * exchange for now (the gem exchange; an exchange failure leaves those figures out).
 *
 * @module
 */

import { z } from "zod";
import { settleAll } from "../async/concurrency.ts";
import { readExchange } from "../account/exchange.ts";
import { shapeWallet } from "../account/shape.ts";
import { describeError } from "../log.ts";
import { argumentsSchema, LangField } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** The `priory_account_wallet` tool. */
export const prioryAccountWallet = defineTool({
  name: "priory_account_wallet",
  title: "GW2 wallet",
  description:
    "Priory-computed: your wallet (key from the X-GW2-Key header), each currency id joined with its name from /v2/currencies. Coin (id 1) is in copper: 10000 = 1 gold. Gem exchange now: Gem row coins = what its gems sell for, Coin row gems = what its coins buy.",
  inputSchema: argumentsSchema({ lang: LangField }),
  outputSchema: z.object({
    wallet: z.array(z.object({
      id: z.number(),
      name: z.string().nullable(),
      value: z.number(),
      coins: z.number().optional(),
      gems: z.number().optional(),
    })),
  }),
  annotations: UPSTREAM_READ,
  async handle({ lang }, deps) {
    const key = requireGw2Key(deps);
    // The quotes need the wallet's amounts; the currencies' names are read meanwhile.
    const [[wallet, exchange], currencies] = await settleAll([
      deps.gw2.doc("accountWallet", { key }).then(async (read) =>
        [
          read,
          await readExchange(deps.gw2, read.value, (error) =>
            deps.log.info("gem exchange unread", { error: describeError(error) })),
        ] as const
      ),
      deps.gw2.currencies(lang),
    ]);
    return { wallet: shapeWallet(wallet.value, currencies.value, exchange) };
  },
});
