/**
 * Redirect URIs: which ones a client may register, how the consent page names where a player
 * will be sent, and how an answer is appended to one. A redirect URI is where an authorization
 * code goes, so a loose rule here is a stolen code: registration accepts only `https:`, `http:`
 * on a loopback host (RFC 8252's native-app loopback redirect), and an app's own private-use
 * scheme - a reverse-domain scheme (`com.example.app:/callback`, RFC 8252 §7.1) or one of the
 * few MCP hosts' schemes listed below. `javascript:`, `data:`, `file:` and every other scheme are
 * refused, as are fragments, credentials and a host that is neither a DNS name nor an IP address;
 * the authorization and token endpoints then compare the URI with the registered ones exactly,
 * character for character. Pure.
 *
 * @module
 */

import { isIpLiteral, isLoopbackHost } from "./address.ts";

/** The longest redirect URI accepted. */
export const MAX_REDIRECT_URI_LENGTH = 2_000;

/** Private-use schemes of MCP hosts that do not use a reverse-domain scheme. */
export const APP_SCHEMES: readonly string[] = [
  "cursor",
  "vscode",
  "vscode-insiders",
  "windsurf",
  "claude",
  "zed",
];

/** A DNS name: dot-separated labels of letters, digits and inner hyphens, 253 characters at most. */
const DNS_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Why a redirect URI cannot be registered, in words for the client's developer. */
export type RedirectCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const RULE =
  "a redirect URI must be https://\u2026, http:// on a loopback host (localhost, 127.0.0.1, [::1]), or an app's own scheme (reverse domain such as com.example.app:/callback, or cursor://, vscode://)";

/**
 * Whether `uri` may be registered as a redirect URI.
 *
 * @example
 * ```ts
 * checkRedirectUri("https://claude.ai/api/mcp/auth_callback"); // { ok: true }
 * checkRedirectUri("javascript:alert(1)"); // { ok: false, reason: "..." }
 * ```
 */
export function checkRedirectUri(uri: string): RedirectCheck {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) {
    return { ok: false, reason: `longer than ${MAX_REDIRECT_URI_LENGTH} characters` };
  }
  // Controls and spaces never belong in a URI; the URL parser would quietly strip some of them.
  if (/[\p{Cc}\s]/u.test(uri)) {
    return { ok: false, reason: "contains spaces or controls" };
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { ok: false, reason: `not an absolute URI; ${RULE}` };
  }
  if (uri.includes("#")) return { ok: false, reason: "a redirect URI must not have a fragment" };
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "a redirect URI must not carry credentials" };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  // A host is a DNS name or an IP address: the URL parser lets through characters such as
  // `"`, `;` and `,`, which would reach the consent page's Content-Security-Policy header.
  if (url.hostname !== "" && !isIpLiteral(url.hostname) && !DNS_NAME.test(url.hostname)) {
    return {
      ok: false,
      reason: "its host must be a DNS name (letters, digits, hyphens, dots) or an IP address",
    };
  }
  if (scheme === "https") {
    return url.hostname === "" ? { ok: false, reason: "no host" } : { ok: true };
  }
  if (scheme === "http") {
    return isLoopbackHost(url.hostname)
      ? { ok: true }
      : { ok: false, reason: `http:// is accepted only on a loopback host; ${RULE}` };
  }
  if (scheme.includes(".") || APP_SCHEMES.includes(scheme)) return { ok: true };
  return { ok: false, reason: `the scheme "${scheme}:" is not accepted; ${RULE}` };
}

/**
 * Where a redirect sends the player, for the consent page: the host (and port) of a web or
 * loopback URI, else the app's scheme with its host, if any.
 *
 * @example
 * ```ts
 * redirectTarget("https://claude.ai/api/mcp/auth_callback"); // "claude.ai"
 * redirectTarget("cursor://anysphere.cursor-mcp/oauth/callback"); // "cursor://anysphere.cursor-mcp"
 * ```
 */
export function redirectTarget(uri: string): string {
  const url = new URL(uri);
  if (url.protocol === "https:" || url.protocol === "http:") return url.host;
  return url.host === "" ? url.protocol : `${url.protocol}//${url.host}`;
}

/**
 * Whether `uri` is a web address (`https:`, or `http:` on a loopback host): a browser loads it
 * as a page. Any other is an app's own link, which a browser hands to the app.
 */
export function isWebRedirect(uri: string): boolean {
  const protocol = new URL(uri).protocol;
  return protocol === "https:" || protocol === "http:";
}

/** Whether the redirect goes back to this machine (a loopback host): the page says so. */
export function isLocalRedirect(uri: string): boolean {
  const url = new URL(uri);
  return url.protocol === "http:" && isLoopbackHost(url.hostname);
}

/**
 * The CSP `form-action` source that lets the consent form's answer redirect to `uri` (browsers
 * apply `form-action` to the redirect after a submission too).
 */
export function formActionSource(uri: string): string {
  const url = new URL(uri);
  if (url.protocol === "https:" || url.protocol === "http:") return url.origin;
  return url.protocol;
}

/**
 * `uri` with the authorization response's parameters added to its query (RFC 6749 §4.1.2),
 * keeping any query it has.
 *
 * @example
 * ```ts
 * withParams("https://app.example/cb?x=1", { code: "c", state: "s" });
 * // "https://app.example/cb?x=1&code=c&state=s"
 * ```
 */
export function withParams(uri: string, params: Readonly<Record<string, string>>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url.href;
}
