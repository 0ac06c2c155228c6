/**
 * The language a request to the fake asks for, as the GW2 API decides it: `?lang=` when it
 * names one of the five, else the first of the five in `Accept-Language` (the API "makes some
 * effort" with the header; `lang` wins over it), else English. The fake logs every request's
 * query, so a test can tell whether a client sent `lang` and whether it forwarded a caller's
 * `Accept-Language` (the header is recorded too, see `control.ts`).
 *
 * @module
 */

import { type Lang, LANGUAGES } from "../../src/gw2/types.ts";

const KNOWN: ReadonlySet<string> = new Set(LANGUAGES);

function isLang(value: string): value is Lang {
  return KNOWN.has(value);
}

/** The language of a request's answer. */
export function requestedLang(params: URLSearchParams, headers: Headers): Lang {
  const asked = params.get("lang")?.trim().toLowerCase();
  if (asked !== undefined && isLang(asked)) return asked;
  for (const part of (headers.get("accept-language") ?? "").split(",")) {
    const tag = part.split(";", 1)[0]?.trim().toLowerCase().split("-", 1)[0] ?? "";
    if (isLang(tag)) return tag;
  }
  return "en";
}
