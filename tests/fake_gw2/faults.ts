/**
 * The answers of injected faults, as upstream sends them in the failure each one simulates
 * (see gw2-api.md §9): a JSON 500, the HTML 503 of an API-wide shutdown, the JSON 503 of a
 * switched-off endpoint, a 429, a 401 for a key deleted meanwhile, and a 200 whose JSON body is
 * cut in the middle. The hang is
 * not an answer; `fake.ts` implements it.
 *
 * @module
 */

import type { FakeFault } from "./control.ts";
import { baseHeaders, failure, renderBare, TEXT } from "./responses.ts";

/** The shutdown page (fresh text in upstream's `<h1>Status Code 503</h1><p>…</p>` shape). */
const SHUTDOWN_PAGE =
  "<h1>Status Code 503</h1><p>The API is resting while a new chapter is prepared. Please come back later.</p>";

/** The answer of a fault that replaces the real answer outright. */
export function faultResponse(fault: Exclude<FakeFault, "hang" | "truncated_json">): Response {
  switch (fault) {
    case "server_error":
      return renderBare(failure(500, TEXT.internal));
    case "not_active":
      return renderBare(failure(503, TEXT.notActive));
    case "rate_limited":
      return renderBare(failure(429, TEXT.tooManyRequests));
    case "invalid_key":
      return renderBare(failure(401, TEXT.invalidAccessToken));
    case "html_503": {
      const headers = baseHeaders("text/html; charset=utf-8");
      headers.set("Cache-Control", "no-cache");
      return new Response(SHUTDOWN_PAGE, { status: 503, headers });
    }
  }
}

/** The real answer's headers with status 200 and the first half of its body. */
export async function truncated(real: Response): Promise<Response> {
  const text = await real.text();
  return new Response(text.slice(0, Math.floor(text.length / 2)), {
    status: 200,
    headers: real.headers,
  });
}
