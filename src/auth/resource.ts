/**
 * The resource server's check of an `/mcp` request in the public mode. No bearer: 401 with
 * `WWW-Authenticate: Bearer resource_metadata="..."`, which starts a client's OAuth discovery (no
 * `error`, as RFC 6750 §3.1 asks of a request that sent no credentials). The static token, when
 * the operator set one: the token mode's caller, `X-GW2-Key` included. Anything else must be an
 * access token this server issued, unexpired, unrevoked and for this resource (RFC 8707: a token
 * for another audience is refused, and no token is ever passed on upstream); else 401
 * `invalid_token` with the same challenge, built by the SDK's `bearerAuthChallengeResponse`.
 *
 * @module
 */

import {
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
} from "@modelcontextprotocol/server";
import type { Logger } from "../log.ts";
import { sameText } from "./crypto.ts";
import { type Grants, sameResource, type SignedInPlayer } from "./grants.ts";
import { Gw2meUnavailableError } from "./gw2me_keys.ts";
import type { AuthUrls } from "./metadata.ts";

/** Who an `/mcp` request is from. */
export type McpCaller =
  | { readonly kind: "static" }
  | { readonly kind: "player"; readonly player: SignedInPlayer };

/** Checks one `/mcp` request: its caller, or the 401 to answer. */
export type ResourceGuard = (request: Request) => Promise<McpCaller | Response>;

/** What the guard needs. */
export interface ResourceGuardDeps {
  readonly grants: Grants;
  readonly urls: AuthUrls;
  /** The operators' static token; empty: none is accepted. Never logged. */
  readonly staticToken: string;
  readonly log: Logger;
}

/**
 * Builds the guard.
 *
 * @example
 * ```ts
 * const caller = await guard(request);
 * if (caller instanceof Response) return caller;
 * ```
 */
export function createResourceGuard(deps: ResourceGuardDeps): ResourceGuard {
  const challenge = `Bearer resource_metadata="${deps.urls.resourceMetadata}"`;
  const refuse = (description: string): Response => {
    deps.log.info("mcp request refused", { reason: "invalid_token", status: 401 });
    return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, description), {
      resourceMetadataUrl: deps.urls.resourceMetadata,
    });
  };
  return async (request) => {
    const header = request.headers.get("authorization");
    const token = /^Bearer +(\S+) *$/i.exec(header ?? "")?.[1];
    if (header === null || header.trim() === "") {
      deps.log.info("mcp request refused", { reason: "missing_token", status: 401 });
      return new Response(
        `Unauthorized: sign in to use this server (OAuth 2.1; see ${deps.urls.resourceMetadata})\n`,
        {
          status: 401,
          headers: { "content-type": "text/plain; charset=utf-8", "www-authenticate": challenge },
        },
      );
    }
    if (token === undefined) {
      return refuse("send the access token as Authorization: Bearer <token>");
    }
    if (deps.staticToken !== "" && sameText(token, deps.staticToken)) return { kind: "static" };
    let player: SignedInPlayer | undefined;
    try {
      player = await deps.grants.verifyAccess(token);
    } catch (error) {
      if (!(error instanceof Gw2meUnavailableError)) throw error;
      // A gw2.me sign-in whose next GW2 subtoken could not be had: nothing is wrong with the
      // token, so no 401 (which would start a new sign-in); try again shortly.
      deps.log.warn("mcp request refused", { reason: "gw2me_unavailable", status: 503 });
      return new Response(
        "Service unavailable: gw2.me, where this sign-in's GW2 access comes from, is not answering. Retry in a minute.\n",
        {
          status: 503,
          headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "30" },
        },
      );
    }
    if (player === undefined) return refuse("the access token is unknown, expired or revoked");
    if (!sameResource(player.resource, deps.urls.resource)) {
      return refuse("the access token was not issued for this resource");
    }
    return { kind: "player", player };
  };
}
