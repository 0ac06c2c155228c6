/**
 * The zod schema of `/v2.json`, the API's own list of its endpoints, which `gw2_api` checks every
 * path against (issue 30). `langs` and `schema_versions` are dropped: only the routes matter.
 *
 * @module
 */

import { z } from "zod";

/**
 * One route: a path with `:name` segments for its parameters (`/v2/guild/:id`), whether it needs
 * a key (`auth`), answers in a language (`lang`), and is switched on (`active`).
 */
export const ApiRouteSchema = z.object({
  path: z.string(),
  lang: z.boolean(),
  auth: z.boolean(),
  active: z.boolean(),
});
/** A validated route. */
export type ApiRoute = z.infer<typeof ApiRouteSchema>;

/** `/v2.json`. */
export const ApiListSchema = z.object({ routes: z.array(ApiRouteSchema) });
/** A validated endpoint list. */
export type ApiList = z.infer<typeof ApiListSchema>;
