/**
 * `gw2_api`'s gate: a caller's path and parameters checked against the API's own list of its
 * endpoints (`/v2.json`) before anything is sent upstream. Pure. A request passes only when:
 *
 * - the path is a plain `/v2/...` path: no query string or fragment (`?access_token=` is never
 *   taken from a caller: parameters are the tool's own), no `//` (so no `//host`), no `.` or `..`
 *   segment (no traversal), no backslash, no control character, at most 200 characters;
 * - it matches a listed route segment by segment, a route's `:name` segment standing for one
 *   segment of the caller's (a literal route wins over one with a parameter: `/v2/guild/search`
 *   is not `/v2/guild/:id`); the route is active;
 * - it is not one that hands out a credential: `/v2/tokeninfo` answers the first half of the
 *   player's key as its `id`, `/v2/createsubtoken` mints a new token;
 * - a parameter segment's value (decoded) holds no `/`, `\`, `?`, `#`, `%` or control character:
 *   no character name or guild id does, and none then names another path to a server or proxy
 *   upstream that decodes `%2F` before routing (`/v2/characters/..%2Ftokeninfo%3F/inventory`);
 * - the parameters fit: `ids` or `page`, not both; `quantity` only where the API reads it (the
 *   gem exchange).
 *
 * What passes is the upstream path to request (each parameter segment percent-encoded, so a
 * space or a letter outside ASCII in a character's name stays inside it) and its query. It sits
 * in the client's room because it builds upstream paths, which nothing outside the client does.
 *
 * @module
 */

import type { ApiRoute } from "./schemas_api.ts";
import type { Lang } from "./types.ts";

/** The longest path accepted. */
export const MAX_API_PATH = 200;
/**
 * The most of an answer read off the connection, in bytes as sent: past it the read stops before
 * anything is parsed, so no answer costs more memory than this. Four times the 2 MB of compact
 * JSON `gw2_api` keeps (`API_ANSWER_MAX_BYTES`): upstream indents its JSON, which compacts to a
 * half or a third.
 */
export const API_ANSWER_READ_MAX_BYTES = 8_000_000;
/** Entries a page holds, when the tool pages (`page_size`). */
export const API_PAGE_SIZE = 50;

/** Routes that would put a credential in the answer. */
const CREDENTIAL_ROUTES: ReadonlyMap<string, string> = new Map([
  ["/v2/tokeninfo", "it answers part of the key itself (priory_account gives its permissions)"],
  ["/v2/createsubtoken", "it creates a new key"],
]);

/** Routes that read `quantity`. */
const QUANTITY_ROUTES = new Set(["/v2/commerce/exchange/coins", "/v2/commerce/exchange/gems"]);

/** The tool's parameters besides the path. */
export interface ApiArguments {
  readonly ids?: readonly number[];
  readonly page?: number;
  readonly lang?: Lang;
  readonly quantity?: number;
}

/** A request that passed: what to ask upstream. */
export interface ApiRequest {
  /** The path to request, parameter segments percent-encoded. */
  readonly path: string;
  /** The listed route it matched (`/v2/guild/:id`). */
  readonly route: string;
  /** Whether the route needs the player's key. */
  readonly auth: boolean;
  /** The query to send (`ids`, `page` with `page_size`, `lang`, `quantity`). */
  readonly query: Readonly<Record<string, string>>;
}

/** The outcome: the request, or why it is refused. */
export type ApiCheck =
  | { readonly ok: true; readonly request: ApiRequest }
  | { readonly ok: false; readonly reason: string };

function refuse(reason: string): ApiCheck {
  return { ok: false, reason };
}

/** Why `path` is not a plain `/v2/...` path, or undefined when it is one. */
function malformed(path: string): string | undefined {
  if (path.length > MAX_API_PATH) return `is longer than ${MAX_API_PATH} characters`;
  if (!path.startsWith("/v2/")) return "does not start with /v2/";
  if (/[?#]/u.test(path)) {
    return "carries a query string: pass ids, page, lang, quantity instead";
  }
  if (path.includes("//")) return "contains // (only the GW2 API's own host is read)";
  if ([...path].some((c) => c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return "contains a backslash or control character";
  }
  const segments = path.slice(1).split("/").map(decoded);
  if (segments.some((segment) => segment === "." || segment === "..")) {
    return "contains a . or .. segment";
  }
  if (segments.at(-1) === "") return "ends with /";
  return undefined;
}

/**
 * A segment as the caller meant it: percent-decoded when it decodes (a name given encoded or
 * not reads the same), as given otherwise. `%2E%2E` is `..` here, and refused as such.
 */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Whether a parameter segment's value (as the caller meant it, decoded) may be sent: encoded, a
 * `/`, `\`, `?`, `#` or `%` would stay inside the segment here, but a server or proxy upstream
 * that decodes before routing would read `..%2Ftokeninfo` as another path. No character name or
 * guild id holds one.
 */
function isPlainParameter(value: string): boolean {
  return !/[/\\?#%\p{Cc}]/u.test(value);
}

/** The listed route `path` names, literal segments winning over parameters. */
function matchRoute(
  path: string,
  routes: readonly ApiRoute[],
):
  | {
    readonly route: ApiRoute;
    readonly segments: readonly string[];
    /** The parameter segments' values, decoded. */
    readonly parameters: readonly string[];
  }
  | undefined {
  const asked = path.slice(1).split("/");
  let best: { route: ApiRoute; literals: number } | undefined;
  for (const route of routes) {
    const listed = route.path.replace(/^\//u, "").split("/");
    if (listed.length !== asked.length) continue;
    let literals = 0;
    const fits = listed.every((segment, index) => {
      if (segment.startsWith(":")) return true;
      literals++;
      return segment === asked[index];
    });
    // The route with more literal segments wins: `/v2/guild/search` over `/v2/guild/:id`.
    if (fits && (best === undefined || literals > best.literals)) best = { route, literals };
  }
  if (best === undefined) return undefined;
  const listed = best.route.path.replace(/^\//u, "").split("/");
  const isParameter = (index: number) => listed[index]?.startsWith(":") === true;
  const segments = asked.map((segment, index) =>
    isParameter(index) ? encodeURIComponent(decoded(segment)) : segment
  );
  const parameters = asked.filter((_, index) => isParameter(index)).map(decoded);
  return { route: best.route, segments, parameters };
}

/**
 * Checks `path` and `args` against `routes` (the API's `/v2.json`) and builds the upstream
 * request, or says why not (a sentence naming the path).
 */
export function checkApiPath(
  path: string,
  args: ApiArguments,
  routes: readonly ApiRoute[],
): ApiCheck {
  const shown = JSON.stringify(path.slice(0, 80));
  const bad = malformed(path);
  if (bad !== undefined) return refuse(`the path ${shown} ${bad}.`);
  const matched = matchRoute(path, routes);
  if (matched === undefined) {
    return refuse(
      `the path ${shown} is not an endpoint the GW2 API lists in /v2.json; for one record of a bulk endpoint pass ids instead of /ID.`,
    );
  }
  const { route } = matched;
  if (!matched.parameters.every(isPlainParameter)) {
    return refuse(
      `the path ${shown} has a /, \\, ?, #, % or control character in a parameter (as ${route.path} names it); give the name or id as it is.`,
    );
  }
  if (!route.active) return refuse(`the GW2 API lists ${route.path} as switched off.`);
  const credential = CREDENTIAL_ROUTES.get(route.path);
  if (credential !== undefined) return refuse(`${route.path} is not read: ${credential}.`);
  if (args.ids !== undefined && args.page !== undefined) {
    return refuse(`give ids or page for ${route.path}, not both.`);
  }
  if (args.quantity !== undefined && !QUANTITY_ROUTES.has(route.path)) {
    return refuse(
      `quantity is read only by /v2/commerce/exchange/coins and /gems, not ${route.path}.`,
    );
  }
  const query: Record<string, string> = {};
  if (args.ids !== undefined) query.ids = args.ids.join(",");
  if (args.page !== undefined) {
    query.page = String(args.page);
    query.page_size = String(API_PAGE_SIZE);
  }
  // Always named on a localized route: without it the API guesses from the server's address.
  if (route.lang) query.lang = args.lang ?? "en";
  if (args.quantity !== undefined) query.quantity = String(args.quantity);
  return {
    ok: true,
    request: { path: `/${matched.segments.join("/")}`, route: route.path, auth: route.auth, query },
  };
}

/** `gw2_api` refused a request before asking upstream: the reason names the path. */
export class Gw2ApiRefusedError extends Error {
  readonly reason: string;
  /** @param reason the sentence {@linkcode checkApiPath} gave */
  constructor(reason: string) {
    super(reason);
    this.name = "Gw2ApiRefusedError";
    this.reason = reason;
  }
}

/** An endpoint's answer was too large to keep (a whole id list of a large collection). */
export class Gw2ApiTooLargeError extends Error {
  readonly path: string;
  readonly bytes: number;
  /** Whether `bytes` is only the bound the read stopped at: the answer is larger still. */
  readonly atLeast: boolean;
  /**
   * @param path the path read; @param bytes the answer's size in bytes of JSON
   * @param atLeast the read stopped at `bytes`, the answer was larger
   */
  constructor(path: string, bytes: number, atLeast = false) {
    super(`The answer of ${path} is too large (${atLeast ? "over " : ""}${bytes} bytes)`);
    this.name = "Gw2ApiTooLargeError";
    this.path = path;
    this.bytes = bytes;
    this.atLeast = atLeast;
  }
}
