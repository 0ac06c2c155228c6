/**
 * How the fake answers: a JSON {@linkcode Answer} (status, body, extra headers) rendered the
 * way the GW2 API renders it — bodies pretty-printed with two spaces, `application/json;
 * charset=utf-8`, `X-Rate-Limit-Limit: 600`, CORS open, a `Cache-Control`/`Expires` pair on
 * successful answers — plus the exact error texts.
 *
 * @module
 */

/** A JSON answer before rendering. */
export interface Answer {
  readonly status: number;
  /** Serialised with `JSON.stringify(body, null, 2)`. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent instead of the JSON body, as `text/html` (a gateway's error page). */
  readonly html?: string;
}

/** Error texts. Upstream-confirmed unless marked chosen (see docs/fake-gw2.md). */
export const TEXT = {
  noSuchId: "no such id",
  allIdsInvalid: "all ids provided are invalid",
  idListTooLong: "id list too long; this endpoint is limited to 200 ids at once",
  invalidAccessToken: "Invalid access token",
  tooManyRequests: "too many requests",
  notActive: "API not active",
  internal: "ErrInternal",
  /** Chosen: upstream answers 400 but its text is unrecorded. */
  allNotSupported: "ids=all is not supported by this endpoint",
  /** Chosen (a third-party mock uses it). */
  noSuchCharacter: "no such character",
  /** Chosen. */
  noSuchEndpoint: "no such endpoint",
  /** Chosen. */
  methodNotAllowed: "method not allowed",
  /** Chosen. */
  searchNeedsOneParameter: "exactly one of input or output is required",
} as const;

/** `requires scope <scope>`. */
export function requiresScope(scope: string): string {
  return `requires scope ${scope}`;
}

/** `page out of range. Use page values 0 - N.` */
export function pageOutOfRange(lastPage: number): string {
  return `page out of range. Use page values 0 - ${lastPage}.`;
}

/** Chosen text for a `page_size` outside 1–200. */
export function pageSizeOutOfRange(max: number): string {
  return `page_size out of range. Use page_size values 1 - ${max}.`;
}

/** A 200 answer. */
export function ok(body: unknown, headers?: Readonly<Record<string, string>>): Answer {
  return headers === undefined ? { status: 200, body } : { status: 200, body, headers };
}

/** An error answer `{"text": …}`. */
export function failure(status: number, text: string): Answer {
  return { status, body: { text } };
}

/** How the endpoint is cached and whether it is localised. */
export interface RenderOptions {
  /** `Cache-Control` of successful answers, e.g. `public, max-age=3600`. */
  readonly cacheControl: string;
  /** The language a localized answer (items, materials, currencies) is in: `Content-Language`. */
  readonly language?: string | undefined;
  /** The fake's clock (for `Expires`). */
  readonly now: number;
}

/** Headers every answer carries. */
export function baseHeaders(contentType = "application/json; charset=utf-8"): Headers {
  return new Headers({
    "Content-Type": contentType,
    "X-Rate-Limit-Limit": "600",
    "Access-Control-Allow-Origin": "*",
  });
}

/** Renders an answer as the GW2 API would. */
export function render(answer: Answer, options: RenderOptions): Response {
  const headers = baseHeaders(answer.html === undefined ? undefined : "text/html; charset=utf-8");
  if (answer.status >= 200 && answer.status < 300) {
    headers.set("Cache-Control", options.cacheControl);
    const maxAge = /max-age=(\d+)/u.exec(options.cacheControl)?.[1];
    if (maxAge !== undefined) {
      headers.set("Expires", new Date(options.now + Number(maxAge) * 1000).toUTCString());
    }
  } else {
    headers.set("Cache-Control", "no-cache");
  }
  if (options.language !== undefined) headers.set("Content-Language", options.language);
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers.set(name, value);
  const body = answer.html ?? JSON.stringify(answer.body, null, 2);
  return new Response(body, { status: answer.status, headers });
}

/** Renders an answer that bypasses endpoint semantics (faults, the bucket, unknown paths). */
export function renderBare(answer: Answer): Response {
  const headers = baseHeaders();
  headers.set("Cache-Control", "no-cache");
  return new Response(JSON.stringify(answer.body, null, 2), { status: answer.status, headers });
}
