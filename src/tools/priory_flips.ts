/**
 * `priory_flips`: the best Trading Post flips now, from the latest snapshot and the running
 * volumes of this server's price history. The work is the history room's; this module is the
 * tool's contract.
 *
 * @module
 */

import { z } from "zod";
import { pickFlips, shapeFlips } from "../history/shape.ts";
import { argumentsSchema, LangField, received } from "./inputs.ts";
import { historyNames } from "./priory_price_history.ts";
import { defineTool, requireHistory, UPSTREAM_READ } from "./types.ts";

/** Rows when `limit` is not given, and the most a call may ask for. */
export const DEFAULT_FLIPS_LIMIT = 10;
const MAX_FLIPS_LIMIT = 25;
/** Units a day a flip needs when `minVolume` is not given: fewer rarely fills in a day. */
export const DEFAULT_MIN_VOLUME = 10;

const limitError = `limit must be a whole number from 1 to ${MAX_FLIPS_LIMIT}`;
const LimitField = z.number({ error: limitError }).int({ error: limitError }).min(1, {
  error: limitError,
}).max(MAX_FLIPS_LIMIT, { error: limitError }).default(DEFAULT_FLIPS_LIMIT);

/** A non-negative amount (units a day, copper). */
function amount(what: string): z.ZodNumber {
  return z.number({
    error: (issue) => `${what} must be a number \u2265 0, not ${received(issue.input)}`,
  })
    .min(0, { error: `${what} must be \u2265 0` });
}

/**
 * The filters. A price band upside down would silently match nothing: it is refused, naming both
 * bounds (a refinement: JSON Schema as published cannot say it, the SDK enforces it).
 */
const FlipsInput = argumentsSchema({
  limit: LimitField,
  minVolume: amount("minVolume").default(DEFAULT_MIN_VOLUME),
  minPrice: amount("minPrice").optional(),
  maxPrice: amount("maxPrice").optional(),
  lang: LangField,
}).refine(
  (filter) =>
    filter.minPrice === undefined || filter.maxPrice === undefined ||
    filter.minPrice <= filter.maxPrice,
  {
    error: (issue) => {
      const bound = (name: string) =>
        typeof issue.input === "object" && issue.input !== null
          ? String(Reflect.get(issue.input, name))
          : "?";
      return `minPrice (${bound("minPrice")}) is above maxPrice (${
        bound("maxPrice")
      }): the band matches no buy price; swap them or drop one`;
    },
  },
);

/** The `priory_flips` tool. */
export const prioryFlips = defineTool({
  name: "priory_flips",
  title: "Flips",
  description:
    `Priory-computed: best Trading Post flips now, from this server's snapshots: order at buy +1c, list at sell -1c, 15% fee. perDay: min(sold, bought) units a day, cancellations counted; profit = margin × perDay. minVolume: units/day (default ${DEFAULT_MIN_VOLUME}); minPrice/maxPrice bound buy. Empty, saying why, before an hour of history.`,
  inputSchema: FlipsInput,
  outputSchema: z.object({
    // Rows are self-describing and named in the description; listing fields here costs every
    // connection tokens and tells a model nothing more.
    flips: z.array(z.looseObject({})),
  }).catchall(z.unknown()),
  annotations: UPSTREAM_READ,
  async handle({ limit, minVolume, minPrice, maxPrice, lang }, deps) {
    const history = requireHistory(deps);
    const read = await history.flips();
    const picked = read.ready
      ? pickFlips(read.candidates, { limit, minVolume, minPrice, maxPrice })
      : [];
    const names = await historyNames(deps, picked.map((flip) => flip.id), lang);
    const ready = read.ready ? undefined : await history.flipsReadyBy();
    return shapeFlips(read, picked, names, history.nextSnapshot(read.latest), ready);
  },
});
