/**
 * `gw2_api`: a read of any other GW2 API v2 endpoint the API lists in its own `/v2.json` - the
 * long tail (masteries, skins, dyes, guilds, WvW, PvP, home nodes ...) at the cost of one tool.
 * The path is checked against that list before anything is sent (`src/gw2/api_path.ts`), the
 * player's key is used for endpoints that need one, and the answer is shaped by one rule for
 * every endpoint (`src/passthrough/api_shape.ts`).
 *
 * @module
 */

import { z } from "zod";
import {
  API_ANSWER_READ_MAX_BYTES,
  checkApiPath,
  Gw2ApiRefusedError,
  Gw2ApiTooLargeError,
  MAX_API_PATH,
} from "../gw2/api_path.ts";
import { Gw2NotFoundError, Gw2UpstreamError } from "../gw2/errors.ts";
import { shapeApiAnswer } from "../passthrough/api_shape.ts";
import { argumentsSchema, idListSchema, LangField, MAX_IDS, received } from "./inputs.ts";
import { defineTool, requireGw2Key, type ToolDeps, UPSTREAM_READ } from "./types.ts";

const pathError = (issue: { readonly input?: unknown }) =>
  `path must be a GW2 API v2 path as /v2.json lists it, 1 to ${MAX_API_PATH} characters, not ${
    received(issue.input)
  }`;
const pageError = "page must be a whole number from 0";
const quantityError = "quantity must be a positive whole number";

/**
 * The path of refused arguments, named as the gate's refusals name it (the contract: a call with
 * any parameter but these is refused naming the path); bounded, as it is the caller's text.
 */
function forPath(input: unknown): string | undefined {
  const path = typeof input === "object" && input !== null && "path" in input
    ? input.path
    : undefined;
  if (typeof path !== "string") return undefined;
  return `for the path ${JSON.stringify(path.length > 100 ? `${path.slice(0, 100)}\u2026` : path)}`;
}

const ApiInput = argumentsSchema({
  path: z.string({ error: pathError }).min(1, { error: pathError })
    .max(MAX_API_PATH, { error: pathError }),
  ids: idListSchema("record").optional(),
  page: z.number({ error: pageError }).int({ error: pageError }).min(0, { error: pageError })
    .optional(),
  lang: LangField,
  quantity: z.number({ error: quantityError }).int({ error: quantityError })
    .positive({ error: quantityError }).optional(),
}, forPath);

/** The `gw2_api` tool. */
export const gw2Api = defineTool({
  name: "gw2_api",
  title: "GW2 API read",
  description:
    `Official GW2 API: reads any other endpoint /v2.json lists (e.g. /v2/account/mastery/points, /v2/skins, /v2/guild/:id with the id in path) as JSON, icons and empty slots dropped, lists past 50 cut with more and next (the page continuing). Only ids (MAX_IDS = ${MAX_IDS}), page, lang, quantity (gem exchange); no query string. Keyed endpoints use X-GW2-Key. Prefer a dedicated tool.`,
  inputSchema: ApiInput,
  outputSchema: z.object({
    // An array (ids, names or records) or an object: spelt so every schema dialect reads it.
    data: z.union([
      z.array(z.union([z.number(), z.string(), z.looseObject({})])),
      z.looseObject({}),
    ]),
    more: z.number().optional(),
    next: z.number().optional(),
  }),
  annotations: UPSTREAM_READ,
  errorHints: { notFound: { hint: "Check the path (as /v2.json lists it) and the ids." } },
  async handle({ path, ids, page, lang, quantity }, deps) {
    const list = await deps.gw2.doc("apiList");
    const check = checkApiPath(path, {
      ...(ids === undefined ? {} : { ids }),
      ...(page === undefined ? {} : { page }),
      ...(lang === undefined ? {} : { lang }),
      ...(quantity === undefined ? {} : { quantity }),
    }, list.value.routes);
    if (!check.ok) throw new Gw2ApiRefusedError(check.reason);
    const { request } = check;
    const answer = await read(deps, request.auth, request.path, Object.entries(request.query))
      .catch((error: unknown) => {
        // Upstream's 404 names the path read (and the ids, when some were asked).
        if (error instanceof Gw2NotFoundError) {
          throw new Gw2NotFoundError(ids ?? [], `record at ${request.path}`);
        }
        // A 400 is the request's, not an outage: a page past the last, a parameter not read.
        // Past the bound its read stopped at (API_ANSWER_READ_MAX_BYTES): ask for less.
        if (error instanceof Gw2UpstreamError && error.reason === "too_large") {
          throw new Gw2ApiTooLargeError(request.path, API_ANSWER_READ_MAX_BYTES, true);
        }
        if (error instanceof Gw2UpstreamError && error.status === 400) {
          throw new Gw2ApiRefusedError(
            `the GW2 API answered 400 (bad request) for ${request.path}${
              page === undefined ? "" : ` page ${page}`
            }: a page past the last, or a parameter this endpoint does not take.`,
          );
        }
        throw error;
      });
    if (answer.json === undefined) throw new Gw2ApiTooLargeError(request.path, answer.bytes);
    const paging = page !== undefined && answer.pageTotal !== undefined
      ? {
        page,
        pageTotal: answer.pageTotal,
        ...(answer.resultTotal === undefined ? {} : { resultTotal: answer.resultTotal }),
      }
      : undefined;
    return shapeApiAnswer(answer.json, page ?? 0, paging);
  },
});

/** The read: with the player's key when the route needs one (cached under its HMAC). */
async function read(
  deps: ToolDeps,
  auth: boolean,
  path: string,
  query: readonly (readonly [string, string])[],
) {
  if (auth) {
    const key = requireGw2Key(deps);
    return (await deps.gw2.doc("apiAccount", { key, path, query })).value;
  }
  return (await deps.gw2.doc("apiPublic", { path, query })).value;
}
