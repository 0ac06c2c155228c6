/**
 * The front page as the HTTP edge answers it.
 *
 * @module
 */

import { pickLanguage } from "./consent_text.ts";
import { frontPage, type FrontView } from "./front_page.ts";
import { pageHeaders } from "./responses.ts";

/**
 * The front page (`GET /`, `HEAD /`) in the request's language: the same for everyone who asks
 * in that language, so shared caches may keep it a few minutes, per `Accept-Language`.
 */
export function frontResponse(request: Request, view: Omit<FrontView, "lang">): Response {
  const lang = pickLanguage(request.headers.get("accept-language"));
  const headers = pageHeaders("'none'", lang);
  headers.set("cache-control", "public, max-age=300");
  headers.set("vary", "Accept-Language");
  const html = request.method === "HEAD" ? null : frontPage({ ...view, lang });
  return new Response(html, { status: 200, headers });
}
