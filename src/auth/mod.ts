/**
 * The public mode (`PRIORY_AUTH=oauth`): this server as its own OAuth 2.1 authorization server
 * and resource server on one origin. The HTTP edge hands it the paths it answers (discovery
 * documents, `/authorize`, `/token`, `/register`, `/revoke`) and asks it who each `/mcp` request
 * is from. The parts: `metadata.ts` (every published URL and document, from `PRIORY_PUBLIC_URL`),
 * `clients.ts` (registered and metadata-document clients), `authorize.ts` (the consent page and
 * its answer), `endpoints.ts` (token, registration, revocation), `grants.ts` (codes, tokens,
 * rotation, revocation), `store.ts` (KV), `crypto.ts`, `resource.ts` (the `/mcp` check) and
 * `call_rate.ts` and `call_slots.ts` (each player's rate of tool calls, and how many run at once:
 * a player is the GW2 account behind a grant, so several sign-ins of one account share them),
 * `key_check.ts` (the one gate every key check of a page goes through: limits per client address
 * and in total, its own share of the upstream budget). The players' pages: `front_page.ts` (`/`),
 * `signout.ts` (`/signout`), and the sign-in with gw2.me (`gw2me_*.ts`, when configured).
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import type { Gw2Client } from "../gw2/types.ts";
import type { Logger } from "../log.ts";
import type { PublicModeConfig } from "../config.ts";
import { AuthorizeEndpoint, CONSENT_TTL_MS } from "./authorize.ts";
import { CallRate } from "./call_rate.ts";
import { CallSlots } from "./call_slots.ts";
import { Clients } from "./clients.ts";
import { type AuthSecrets, deriveSecrets } from "./crypto.ts";
import { FormGuard } from "./form_guard.ts";
import { createDocumentFetcher, type DocumentFetcher } from "./document_fetch.ts";
import { registerEndpoint, revokeEndpoint, tokenEndpoint } from "./endpoints.ts";
import { Grants, grantTtlMs, type SignedInPlayer } from "./grants.ts";
import { Gw2meClient, type Gw2meFetch } from "./gw2me_client.ts";
import { Gw2meKeys } from "./gw2me_keys.ts";
import { Gw2mePending } from "./gw2me_pending.ts";
import { Gw2meSignIn } from "./gw2me_signin.ts";
import { KEY_CHECK_SHARE_KEY, KeyCheckGate, keyCheckShare, type ShareBucket } from "./key_check.ts";
import {
  AUTH_PATHS,
  authorizationServerMetadata,
  type AuthUrls,
  authUrls,
  protectedResourceMetadata,
} from "./metadata.ts";
import { clientAddress } from "./address.ts";
import { createResourceGuard, type McpCaller } from "./resource.ts";
import { frontResponse } from "./front.ts";
import { metadataJson, notAllowed, oauthError, preflight } from "./responses.ts";
import { accountOfCheck, SignOutEndpoint, SignOutFormSchema } from "./signout.ts";
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
  /** The GW2 client, for the pages' key checks. */
  readonly gw2: Gw2Client;
  /** The upstream budget (`GW2_RATE_BURST`, `GW2_RATE_PER_SEC`): key checks get a share of it. */
  readonly budget: { readonly burst: number; readonly perSec: number };
  /**
   * Builds a token bucket in the process's KV (the GW2 client's kind, which only the process
   * wiring may build): where the key checks' share of the budget is counted.
   */
  readonly bucket: (
    spec: { readonly key: Deno.KvKey; readonly burst: number; readonly perSec: number },
  ) => ShareBucket;
  readonly clock: Clock;
  readonly log: Logger;
  /** How client metadata documents are fetched. @default the SSRF-guarded fetcher */
  readonly fetchDocument?: DocumentFetcher;
  /** How gw2.me is reached (a fake in tests). @default the global fetch */
  readonly gw2meFetch?: Gw2meFetch;
}

/** The public mode as the HTTP edge uses it. */
export interface PublicAuth {
  readonly urls: AuthUrls;
  /** Whether the public mode answers `pathname` (besides `/mcp`). */
  handles(pathname: string): boolean;
  /**
   * Answers a request on one of its paths; `body` is the bounded body of a POST, `clientAddress`
   * the TCP peer's address (any text when unknown). The limits per client address count by it,
   * or by `PRIORY_CLIENT_ADDRESS_HEADER`'s when the operator set one.
   */
  serve(
    request: Request,
    pathname: string,
    body: Uint8Array | undefined,
    clientAddress: string,
  ): Promise<Response>;
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
  /**
   * GW2 rejected `player`'s key during a tool call: ends that sign-in (its grant and sealed
   * key), so the app's next request is refused and it signs in again - `mcp-remote`, which
   * otherwise keeps using its saved sign-in, included.
   */
  keyRejected(player: SignedInPlayer): Promise<void>;
}

const POST_ONLY = new Set<string>([AUTH_PATHS.token, AUTH_PATHS.register, AUTH_PATHS.revoke]);
/** The pages a browser opens (GET, and POST for their forms). */
const PAGES = new Set<string>([AUTH_PATHS.authorize, AUTH_PATHS.front, AUTH_PATHS.signout]);
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
 * const bucket = (spec) => new TokenBucket({ kv, clock, log, ...spec });
 * const auth = await createPublicAuth({ config: config.publicMode, staticToken, kv, gw2, budget, bucket, clock, log });
 * ```
 */
export async function createPublicAuth(deps: PublicAuthDeps): Promise<PublicAuth> {
  const urls = authUrls(deps.config.publicUrl);
  const secrets = await deriveSecrets(deps.config.secret);
  const store = new AuthStore(deps.kv);
  const keys = new KeyCheckGate({
    gw2: deps.gw2,
    share: deps.bucket({ key: KEY_CHECK_SHARE_KEY, ...keyCheckShare(deps.budget) }),
    clock: deps.clock,
    log: deps.log,
    tag: (key) => secrets.keyTag(key),
  });
  const gw2me = gw2meParts(deps, { urls, store, secrets, keys });
  const grants = new Grants({
    store,
    secrets,
    clock: deps.clock,
    log: deps.log,
    resource: urls.resource,
    ...(gw2me === undefined ? {} : {
      gw2me: gw2me.keys,
      // A gw2.me sign-in ends at gw2.me too, however it ends here.
      onEnded: (grant) => gw2me.keys.revoke(grant),
    }),
  });
  const clients = new Clients(
    secrets,
    deps.fetchDocument ?? createDocumentFetcher({ clock: deps.clock }),
    deps.clock,
  );
  const authorize = new AuthorizeEndpoint({
    urls,
    clients,
    grants,
    store,
    secrets,
    keys,
    clock: deps.clock,
    log: deps.log,
    ...(gw2me === undefined ? {} : { gw2me: gw2me.signIn }),
    ...(deps.config.operator === undefined ? {} : { operator: deps.config.operator }),
  });
  const signOut = new SignOutEndpoint({
    forms: new FormGuard({
      secrets,
      purpose: "signout",
      store,
      clock: deps.clock,
      origin: new URL(urls.issuer).origin,
      path: AUTH_PATHS.signout,
      name: "signout",
      ttlMs: CONSENT_TTL_MS,
      schema: SignOutFormSchema,
    }),
    accountOf: async (key, clientAddress) => accountOfCheck(await keys.check(key, clientAddress)),
    endAccountGrants: (account) => grants.endAccountGrants(account, "signed out"),
    gw2me: gw2me !== undefined,
    log: deps.log,
    ...(deps.config.operator === undefined ? {} : { operator: deps.config.operator }),
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
    peer: string,
  ): Promise<Response> {
    const method = request.method;
    const header = deps.config.clientAddressHeader;
    const from = header === undefined ? peer : clientAddress(peer, request.headers.get(header));
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
    if (pathname === AUTH_PATHS.front) {
      if (method !== "GET" && method !== "HEAD") return notAllowed("GET");
      return frontResponse(request, {
        resource: urls.resource,
        gw2me: gw2me !== undefined,
        ...(deps.config.operator === undefined ? {} : { operator: deps.config.operator }),
      });
    }
    if (pathname === AUTH_PATHS.authorize) {
      if (method === "GET" || method === "HEAD") return await authorize.show(request);
      if (method === "POST") {
        return await authorize.answer(request, body ?? new Uint8Array(), from);
      }
      return notAllowed("GET, POST");
    }
    if (pathname === AUTH_PATHS.signout) {
      if (method === "GET" || method === "HEAD") return await signOut.show(request);
      if (method === "POST") {
        return await signOut.answer(request, body ?? new Uint8Array(), from);
      }
      return notAllowed("GET, POST");
    }
    if (pathname === AUTH_PATHS.gw2meCallback && gw2me !== undefined) {
      if (method !== "GET") return notAllowed("GET");
      return await gw2me.signIn.callback(request, authorize, from);
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
      DOCUMENTS.has(pathname) || POST_ONLY.has(pathname) || PAGES.has(pathname) ||
      (pathname === AUTH_PATHS.gw2meCallback && gw2me !== undefined),
    serve,
    authenticate: guard,
    admitCalls: (player, calls) => rate.take(player, calls),
    enterCall: (player, signal) => slots.enter(player, signal),
    keyRejected: async (player) => {
      await grants.revokeGrant(player.grantId, "GW2 rejected its key");
    },
  };
}

/** The gw2.me sign-in's parts, when the operator configured it. */
function gw2meParts(
  deps: PublicAuthDeps,
  shared: {
    urls: AuthUrls;
    store: AuthStore;
    secrets: AuthSecrets;
    keys: KeyCheckGate;
  },
): { keys: Gw2meKeys; signIn: Gw2meSignIn } | undefined {
  const config = deps.config.gw2me;
  if (config === undefined) return undefined;
  const client = new Gw2meClient({
    config,
    redirectUri: `${shared.urls.issuer}${AUTH_PATHS.gw2meCallback}`,
    clock: deps.clock,
    ...(deps.gw2meFetch === undefined ? {} : { fetch: deps.gw2meFetch }),
  });
  const keys = new Gw2meKeys({
    client,
    store: shared.store,
    secrets: shared.secrets,
    clock: deps.clock,
    log: deps.log,
    ttlMs: grantTtlMs,
  });
  const signIn = new Gw2meSignIn({
    client,
    pending: new Gw2mePending(deps.kv),
    secrets: shared.secrets,
    checkKey: (key, clientAddress) => shared.keys.check(key, clientAddress),
    publicUrl: shared.urls.issuer,
    clock: deps.clock,
    log: deps.log,
  });
  return { keys, signIn };
}
