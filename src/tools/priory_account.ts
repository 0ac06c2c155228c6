/**
 * `priory_account`: the player's account facts, with the key's permissions.
 *
 * @module
 */

import { z } from "zod";
import { settleAll } from "../async/concurrency.ts";
import { shapeAccount } from "../account/shape.ts";
import { argumentsSchema } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** The `priory_account` tool. */
export const prioryAccount = defineTool({
  name: "priory_account",
  title: "GW2 account",
  description:
    "Priory-computed: your GW2 account (key from the X-GW2-Key header) with hours_played from its age, fractal_level and wvw_rank when the key has the progression scope, and key_permissions (/v2/tokeninfo): which account tools this key can serve.",
  inputSchema: argumentsSchema({}),
  outputSchema: z.object({
    name: z.string(),
    world: z.number(),
    created: z.string(),
    hours_played: z.number(),
    access: z.array(z.string()),
    commander: z.boolean(),
    fractal_level: z.number().optional(),
    wvw_rank: z.number().optional(),
    key_permissions: z.array(z.string()),
  }),
  annotations: UPSTREAM_READ,
  async handle(_input, deps) {
    const key = requireGw2Key(deps);
    const [account, token] = await settleAll([
      deps.gw2.doc("account", { key }),
      deps.gw2.doc("tokenInfo", { key }),
    ]);
    return shapeAccount(account.value, token.value);
  },
});
