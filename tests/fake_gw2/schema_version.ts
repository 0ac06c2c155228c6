/**
 * Schema versions: `?v=<ISO datetime>` or the `X-Schema-Version` header (the query wins), with
 * `latest` meaning the newest. Without either, the API answers in its oldest ("classic")
 * shapes. A value that is not a date is treated as no version (upstream behaviour unconfirmed).
 *
 * @module
 */

/** The schema changes the fake implements. */
export const SCHEMA = {
  /** `last_modified` on /v2/account and characters. */
  lastModified: "2019-02-21T00:00:00.000Z",
  /** `type` on /v2/tokeninfo. */
  tokenType: "2019-05-22T00:00:00.000Z",
  /** `build_storage_slots` on /v2/account; `location` and `tabs` on characters' equipment. */
  buildStorage: "2019-12-19T00:00:00.000Z",
  /** Recipe ingredients become `{type, id, count}`; `guild_ingredients` is folded in. */
  recipeIngredients: "2022-03-09T02:00:00.000Z",
  /** /v2/account's `wvw_rank` is replaced by `wvw: {team_id, rank}`. */
  accountWvw: "2024-07-20T01:00:00.000Z",
} as const;

/** The requested schema as epoch ms: -Infinity when none, +Infinity for `latest`. */
export function requestedSchema(params: URLSearchParams, headers: Headers): number {
  const raw = params.get("v") ?? headers.get("x-schema-version");
  if (raw === null || raw === "") return -Infinity;
  if (raw.trim().toLowerCase() === "latest") return Infinity;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? -Infinity : time;
}

/** Whether the requested schema includes the change dated `version`. */
export function schemaAtLeast(schema: number, version: string): boolean {
  return schema >= Date.parse(version);
}
