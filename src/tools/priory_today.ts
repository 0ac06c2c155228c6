/**
 * `priory_today`: what is done and left since the last resets, corrected for data that predates
 * them. The work is the today room's (`src/today/run.ts`); this module is the tool's contract
 * (the contract's "The whole account").
 *
 * @module
 */

import { z } from "zod";
import { systemClock } from "../async/clock.ts";
import { namingIn } from "../search/localize.ts";
import { runToday } from "../today/run.ts";
import { TODAY_VIEW_URI } from "../views/uris.ts";
import { argumentsSchema, LangField } from "./inputs.ts";
import { defineTool, requireGw2Key, UPSTREAM_READ } from "./types.ts";

/** The `priory_today` tool. */
export const prioryToday = defineTool({
  name: "priory_today",
  title: "Today in GW2",
  description:
    "Priory-computed: done and left since the resets (daily 00:00 UTC, weekly Monday 07:30 UTC; key from the X-GW2-Key header, scopes progression, wallet): daily crafting (profit: one craft's sell \u2212 cost now, copper; via: sold as that item), world bosses, map chests, dungeon paths, raids by wing, Wizard's Vault objectives, Astral Acclaim. stale: not played since a reset, so that period counts as not done. unread: parts the key cannot read.",
  inputSchema: argumentsSchema({ lang: LangField }),
  // Lean on purpose: the parts' fields are the description's and the contract's.
  outputSchema: z.looseObject({
    resets: z.object({ daily: z.string(), weekly: z.string() }),
    stale: z.boolean(),
  }),
  annotations: UPSTREAM_READ,
  view: TODAY_VIEW_URI,
  handle({ lang }, deps) {
    const key = requireGw2Key(deps);
    return runToday(deps.gw2, {
      // The server always wires the call's clock; a handler called bare reads the real one.
      clock: deps.clock ?? systemClock,
      sheets: deps.sheets,
      scanner: deps.crafting,
      signal: deps.signal,
    }, { key, naming: namingIn(deps.gw2, deps.names, lang) });
  },
});
