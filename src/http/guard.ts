/**
 * The guard in front of the MCP endpoint, in the contract's order: `Host` (when restricted) and
 * a present, unlisted `Origin` -> 403 (DNS-rebinding defence); then the static bearer token,
 * compared in constant time -> a bare 401. An absent `Origin` passes: native MCP clients send
 * none, and browsers - the attack vector - always do.
 *
 * The 401 never carries `WWW-Authenticate` and nothing here mentions OAuth: a client that sees
 * an OAuth hint may abandon its configured bearer header for a discovery flow.
 *
 * @module
 */

import { sameText } from "../auth/crypto.ts";
import type { Logger } from "../log.ts";
import { textResponse } from "./responses.ts";

/** The guard's configuration (a subset of `Config`). */
export interface GuardPolicy {
  /** The static bearer token. Never logged. */
  readonly authToken: string;
  /** Allowed browser origins; an entry may end in `:*` for any port. */
  readonly allowedOrigins: readonly string[];
  /** Allowed `Host` values (host or host:port, lower case); `undefined` accepts any Host. */
  readonly allowedHosts: readonly string[] | undefined;
}

/** Why a request was refused (logged; never the token). */
export type GuardRefusal = "host" | "origin" | "missing_token" | "wrong_token";

/** Checks one request; `undefined` means it may proceed. */
export type Guard = (request: Request) => Response | undefined;

/**
 * Builds the guard. Each request's candidate token is compared with {@linkcode tokenMatches},
 * whose time depends on neither the content nor the length of the configured token.
 *
 * @example
 * ```ts
 * const guard = createGuard(config, log);
 * const refused = guard(request);
 * if (refused) return refused;
 * ```
 */
export function createGuard(policy: GuardPolicy, log: Logger): Guard {
  const refuse = refuser(log);
  const placeOk = createPlaceGuard(policy, log, { origin: true });
  return (request) => {
    const misplaced = placeOk(request);
    if (misplaced !== undefined) return misplaced;
    const token = bearerToken(request.headers.get("authorization"));
    if (token === undefined) {
      return refuse(
        "missing_token",
        textResponse(401, 'Unauthorized: send the header "Authorization: Bearer <MCP_AUTH_TOKEN>"'),
      );
    }
    if (!tokenMatches(token, policy.authToken)) {
      return refuse(
        "wrong_token",
        textResponse(
          401,
          "Unauthorized: the bearer token is wrong (if the client configuration uses ${VAR}, check that it was expanded)",
        ),
      );
    }
    return undefined;
  };
}

/**
 * The guard's first half, alone: `Host` (when restricted) and, with `origin`, a present unlisted
 * `Origin` -> 403. The public mode puts it in front of its own token check on `/mcp`, and the
 * `Host` check in front of its OAuth endpoints (which any web origin may call).
 */
export function createPlaceGuard(
  policy: Pick<GuardPolicy, "allowedHosts" | "allowedOrigins">,
  log: Logger,
  check: { readonly origin: boolean },
): Guard {
  const hostOk = hostMatcher(policy.allowedHosts);
  const refuse = refuser(log);
  return (request) => {
    if (!hostOk(requestHost(request))) {
      return refuse(
        "host",
        textResponse(403, "Forbidden: this Host is not allowed; add it to MCP_ALLOWED_HOSTS"),
      );
    }
    const origin = check.origin ? request.headers.get("origin") : null;
    if (origin !== null && !originAllowed(origin, policy.allowedOrigins)) {
      return refuse(
        "origin",
        textResponse(403, "Forbidden: this Origin is not allowed; add it to MCP_ALLOWED_ORIGINS"),
      );
    }
    return undefined;
  };
}

function refuser(log: Logger): (reason: GuardRefusal, response: Response) => Response {
  return (reason, response) => {
    log.info("mcp request refused", { reason, status: response.status });
    return response;
  };
}

/**
 * Whether `candidate` equals `expected` (never when no token is configured), in a time that
 * depends only on the candidate's length (which its sender knows): {@linkcode sameText}.
 */
export function tokenMatches(candidate: string, expected: string): boolean {
  return expected.length !== 0 && sameText(candidate, expected);
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive). */
export function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return match?.[1];
}

/** The request's Host: the header, else the URL's host (in-process requests have no header). */
function requestHost(request: Request): string {
  return request.headers.get("host") ?? new URL(request.url).host;
}

/**
 * Whether a `Host` value is allowed: an exact match (host:port), or a port-less entry matching
 * the host part, so `localhost` admits `localhost:8000`. The list is compiled once (into sets),
 * so the per-request check is two set lookups, not a regular expression per entry; no list
 * admits any Host.
 */
export function hostMatcher(allowed: readonly string[] | undefined): (host: string) => boolean {
  if (allowed === undefined) return () => true;
  const exact = new Set(allowed);
  const portless = new Set(allowed.filter((entry) => !hasPort(entry)));
  return (host) => {
    const value = host.trim().toLowerCase();
    return exact.has(value) || portless.has(value.replace(/:\d+$/, ""));
  };
}

function hasPort(entry: string): boolean {
  return /\]:\d+$/.test(entry) || /^[^[\]:]+:\d+$/.test(entry);
}

/**
 * Whether a browser `Origin` is allowed: its serialised origin is listed, or an entry
 * `scheme://host:*` covers it on any port. The opaque origin `null` never is.
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === "null") return false;
  const anyPort = `${url.protocol}//${url.hostname}:*`;
  return allowed.some((entry) => entry === url.origin || entry === anyPort);
}
