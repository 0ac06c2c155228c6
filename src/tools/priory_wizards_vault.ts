/**
 * `priory_wizards_vault`: what the account's Astral Acclaim buys in the Wizard's Vault, best
 * value first. The work is the today room's (`src/today/vault_run.ts`, `vault.ts`).
 *
 * @module
 */

import { z } from "zod";
import { namingIn } from "../search/localize.ts";
import { runVault } from "../today/vault_run.ts";
import { argumentsSchema, LangField } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** Listings returned when `limit` is not given. */
export const DEFAULT_VAULT_LIMIT = 10;
/** The most listings a call may ask for. */
export const MAX_VAULT_LIMIT = 50;

const limitError = `limit must be a whole number from 1 to ${MAX_VAULT_LIMIT}`;

/** The `priory_wizards_vault` tool. */
export const prioryWizardsVault = defineTool({
  name: "priory_wizards_vault",
  title: "Wizard's Vault rewards",
  description:
    "Priory-computed: what your Astral Acclaim buys in this season's Wizard's Vault (key from the X-GW2-Key header, scopes progression, wallet), best value first: value = count \u00d7 best buy order \u221215% (copper), perAcclaim = value/cost; rewards that do not trade follow (value null). affordable: cost \u2264 acclaim and purchase limit not reached. purchased null: unknown (the API reports 0 for Normal listings).",
  inputSchema: argumentsSchema({
    limit: z.number({ error: limitError }).int({ error: limitError })
      .min(1, { error: limitError }).max(MAX_VAULT_LIMIT, { error: limitError })
      .default(DEFAULT_VAULT_LIMIT),
    lang: LangField,
  }),
  // Lean on purpose: the rows' fields are the description's and the contract's.
  outputSchema: z.looseObject({
    season: z.object({ title: z.string(), end: z.string() }),
    listings: z.array(z.looseObject({ id: z.number(), cost: z.number() })),
  }),
  annotations: UPSTREAM_READ,
  handle({ limit, lang }, deps) {
    const key = requireGw2Key(deps);
    return runVault(deps.gw2, { key, limit, naming: namingIn(deps.gw2, deps.names, lang) });
  },
});
