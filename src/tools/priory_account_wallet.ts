/**
 * `priory_account_wallet`: the player's currencies with their names.
 *
 * @module
 */

import { z } from "zod";
import { settleAll } from "../async/concurrency.ts";
import { shapeWallet } from "../account/shape.ts";
import { argumentsSchema, LangField } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** The `priory_account_wallet` tool. */
export const prioryAccountWallet = defineTool({
  name: "priory_account_wallet",
  title: "GW2 wallet",
  description:
    "Priory-computed: your wallet (key from the X-GW2-Key header), each currency id joined with its name from /v2/currencies. Coin (id 1) is in copper: 10000 = 1 gold.",
  inputSchema: argumentsSchema({ lang: LangField }),
  outputSchema: z.object({
    wallet: z.array(z.object({ id: z.number(), name: z.string().nullable(), value: z.number() })),
  }),
  annotations: UPSTREAM_READ,
  async handle({ lang }, deps) {
    const key = requireGw2Key(deps);
    const [wallet, currencies] = await settleAll([
      deps.gw2.doc("accountWallet", { key }),
      deps.gw2.currencies(lang),
    ]);
    return { wallet: shapeWallet(wallet.value, currencies.value) };
  },
});
