/**
 * How the public mode answers: OAuth JSON (errors as RFC 6749 §5.2 words them, never cached),
 * CORS for the endpoints browser-based clients call (the metadata, token, registration and
 * revocation endpoints: every origin, no credentials - they carry no cookie and trust none), HTML
 * pages that cannot be framed, and redirects back to a client.
 *
 * @module
 */

/** CORS headers of the endpoints any web client may call. */
export function corsHeaders(methods: string): Record<string, string> {
  return {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": methods,
    "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
    "access-control-max-age": "600",
  };
}

/** The answer to a CORS preflight of an endpoint allowing `methods`. */
export function preflight(methods: string): Response {
  return new Response(null, { status: 204, headers: corsHeaders(methods) });
}

/** A JSON answer that no cache keeps (tokens, errors), with CORS for `methods`. */
export function oauthJson(status: number, body: unknown, methods = "POST, OPTIONS"): Response {
  return Response.json(body, {
    status,
    headers: { "cache-control": "no-store", pragma: "no-cache", ...corsHeaders(methods) },
  });
}

/**
 * An OAuth error; `invalid_client` is a 401 (RFC 6749 §5.2), which makes hosts such as Claude
 * register again.
 */
export function oauthError(error: string, description: string, methods?: string): Response {
  return oauthJson(error === "invalid_client" ? 401 : 400, {
    error,
    error_description: description,
  }, methods);
}

/** A public discovery document: JSON, cacheable for a few minutes, CORS for GET. */
export function metadataJson(body: unknown): Response {
  return Response.json(body, {
    headers: { "cache-control": "public, max-age=300", ...corsHeaders("GET, HEAD, OPTIONS") },
  });
}

/**
 * Headers of every HTML page: no framing, no caching, no sniffing, and a referrer only to this
 * origin (its own form POST then carries `Origin`; `no-referrer` would make it `null`).
 */
export function pageHeaders(formAction: string, lang: string): Headers {
  return new Headers({
    "content-type": "text/html; charset=utf-8",
    "content-language": lang,
    "content-security-policy":
      `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "cache-control": "no-store",
    "referrer-policy": "same-origin",
    "x-content-type-options": "nosniff",
  });
}

/** A 405 naming the methods a page allows. */
export function notAllowed(allow: string): Response {
  return new Response("Method not allowed\n", { status: 405, headers: { allow } });
}

/** An HTML page; `headers` from {@linkcode pageHeaders}. */
export function htmlPage(status: number, html: string, headers: Headers): Response {
  return new Response(html, { status, headers });
}

/** A `302` to `location`, never cached; `cookies` are `Set-Cookie` values. */
export function redirectTo(location: string, cookies: readonly string[] = []): Response {
  const headers = new Headers({
    location,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
  });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 302, headers });
}

/** The request's cookies by name (the last of a repeated name wins). */
export function cookiesOf(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}
