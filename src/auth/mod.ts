/**
 * The public mode (`PRIORY_AUTH=oauth`): this server as its own OAuth 2.1 authorization server
 * and resource server on one origin. The HTTP edge hands it the paths it answers (discovery
 * documents, `/authorize`, `/token`, `/register`, `/revoke`) and asks it who each `/mcp` request
 * is from. The parts: `metadata.ts` (every published URL and document, from `PRIORY_PUBLIC_URL`),
 * `clients.ts` (registered and metadata-document clients), `authorize.ts` (the consent page and
 * its answer), `endpoints.ts` (token, registration, revocation), `grants.ts` (codes, tokens,
 * rotation, revocation), `store.ts` (KV), `crypto.ts`, `resource.ts` (the `/mcp` check) and
 * `call_rate.ts` and `call_slots.ts` (each player's rate of tool calls, and how many run at once:
 * a player is the GW2 account behind a grant, so several sign-ins of one account share them).
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import type { Gw2Client } from "../gw2/types.ts";
import type { Logger } from "../log.ts";
import type { PublicModeConfig } from "../config.ts";
import { AuthorizeEndpoint } from "./authorize.ts";
import { CallRate } from "./call_rate.ts";
import { CallSlots } from "./call_slots.ts";
import { Clients } from "./clients.ts";
import { deriveSecrets } from "./crypto.ts";
import { createDocumentFetcher, type DocumentFetcher } from "./document_fetch.ts";
import { registerEndpoint, revokeEndpoint, tokenEndpoint } from "./endpoints.ts";
import { Grants } from "./grants.ts";
import {
  AUTH_PATHS,
  authorizationServerMetadata,
  type AuthUrls,
  authUrls,
  protectedResourceMetadata,
} from "./metadata.ts";
import { createResourceGuard, type McpCaller } from "./resource.ts";
import { metadataJson, oauthError, preflight } from "./responses.ts";
import { AuthStore } from "./store.ts";

export type { McpCaller } from "./resource.ts";
export { SignedInPlayer } from "./grants.ts";

export { MAX_AUTH_BODY_BYTES } from "./body_limit.ts";

/** What the public mode needs from the process. */
export interface PublicAuthDeps {
  readonly config: PublicModeConfig;
  /** The static token operators may still use (empty: none). */
  readonly staticToken: string;
  readonly kv: Deno.Kv;
  /** The GW2 client, for the consent page's key check. */
  readonly gw2: Gw2Client;
  readonly clock: Clock;
  readonly log: Logger;
  /** How client metadata documents are fetched. @default the SSRF-guarded fetcher */
  readonly fetchDocument?: DocumentFetcher;
}

/** The public mode as the HTTP edge uses it. */
export interface PublicAuth {
  readonly urls: AuthUrls;
  /** Whether the public mode answers `pathname` (besides `/mcp`). */
  handles(pathname: string): boolean;
  /** Answers a request on one of its paths; `body` is the bounded body of a POST. */
  serve(request: Request, pathname: string, body: Uint8Array | undefined): Promise<Response>;
  /** Who an `/mcp` request is from, or the 401 to answer. */
  authenticate(request: Request): Promise<McpCaller | Response>;
  /**
   * Takes `calls` tool calls from a player's rate (`player`: {@linkcode SignedInPlayer.owner},
   * the account's pseudonym): 0 when admitted, else the milliseconds to wait (answered 429 with
   * `Retry-After`).
   */
  admitCalls(player: string, calls: number): number;
  /**
   * Waits until fewer than `PRIORY_GRANT_CALLS_AT_ONCE` calls of the player run, then takes a
   * slot; the returned function gives it back. Rejects when `signal` aborts first.
   */
  enterCall(player: string, signal: AbortSignal): Promise<() => void>;
}

const POST_ONLY = new Set<string>([AUTH_PATHS.token, AUTH_PATHS.register, AUTH_PATHS.revoke]);
const DOCUMENTS = new Set<string>([
  AUTH_PATHS.authorizationServerMetadata,
  AUTH_PATHS.resourceMetadata,
  AUTH_PATHS.resourceMetadataRoot,
]);

/**
 * Builds the public mode (once per process).
 *
 * @example
 * ```ts
 * const auth = await createPublicAuth({ config: config.publicMode, staticToken, kv, gw2, clock, log });
 * ```
 */
export async function createPublicAuth(deps: PublicAuthDeps): Promise<PublicAuth> {
  const urls = authUrls(deps.config.publicUrl);
  const secrets = await deriveSecrets(deps.config.secret);
  const store = new AuthStore(deps.kv);
  const grants = new Grants({
    store,
    secrets,
    clock: deps.clock,
    log: deps.log,
    resource: urls.resource,
  });
  const clients = new Clients(
    secrets,
    deps.fetchDocument ?? createDocumentFetcher({ clock: deps.clock }),
  );
  const authorize = new AuthorizeEndpoint({
    urls,
    clients,
    grants,
    store,
    secrets,
    gw2: deps.gw2,
    clock: deps.clock,
    log: deps.log,
  });
  const endpoints = { clients, grants, clock: deps.clock, log: deps.log };
  const guard = createResourceGuard({
    grants,
    urls,
    staticToken: deps.staticToken,
    log: deps.log,
  });
  const rate = new CallRate({
    burst: deps.config.callsBurst,
    perMinute: deps.config.callsPerMinute,
    clock: deps.clock,
  });
  const slots = new CallSlots(deps.config.callsAtOnce);
  const asMetadata = authorizationServerMetadata(urls);
  const prMetadata = protectedResourceMetadata(urls);

  async function serve(
    request: Request,
    pathname: string,
    body: Uint8Array | undefined,
  ): Promise<Response> {
    const method = request.method;
    if (DOCUMENTS.has(pathname)) {
      if (method === "OPTIONS") return preflight("GET, HEAD, OPTIONS");
      if (method !== "GET" && method !== "HEAD") {
        return oauthError("invalid_request", "use GET", "GET, HEAD, OPTIONS");
      }
      const document = pathname === AUTH_PATHS.authorizationServerMetadata
        ? asMetadata
        : prMetadata;
      const response = metadataJson(document);
      return method === "HEAD" ? new Response(null, { headers: response.headers }) : response;
    }
    if (pathname === AUTH_PATHS.authorize) {
      if (method === "GET" || method === "HEAD") return await authorize.show(request);
      if (method === "POST") return await authorize.answer(request, body ?? new Uint8Array());
      return new Response("Method not allowed\n", { status: 405, headers: { allow: "GET, POST" } });
    }
    if (method === "OPTIONS") return preflight("POST, OPTIONS");
    if (method !== "POST") return oauthError("invalid_request", "use POST");
    const read = body ?? new Uint8Array();
    if (pathname === AUTH_PATHS.token) return await tokenEndpoint(endpoints, request, read);
    if (pathname === AUTH_PATHS.register) return await registerEndpoint(endpoints, request, read);
    return await revokeEndpoint(endpoints, request, read);
  }

  return {
    urls,
    handles: (pathname) =>
      DOCUMENTS.has(pathname) || POST_ONLY.has(pathname) || pathname === AUTH_PATHS.authorize,
    serve,
    authenticate: guard,
    admitCalls: (player, calls) => rate.take(player, calls),
    enterCall: (player, signal) => slots.enter(player, signal),
  };
}
