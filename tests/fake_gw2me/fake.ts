/**
 * A fake of gw2.me (GW2Treasures' OAuth 2 sign-in for Guild Wars 2 apps) for Priory's tests and a
 * manual try: the authorization page (one link per test player, and Deny), the token endpoint
 * (`authorization_code` with PKCE S256 and `refresh_token`, a confidential client authenticated
 * with HTTP Basic; refresh tokens single-use and rotated), `/api/accounts`, the subtoken endpoint
 * (a GW2 subtoken of the player's test key, which the fake GW2 API accepts as a key of that
 * account with the permissions asked) and revocation. Requests are logged, and a test can make
 * the next call of an endpoint fail.
 *
 * Simplified where Priory does not care: each code exchange makes its own authorization (gw2.me
 * keeps one per app and user), one GW2 account a player, no DPoP, PAR or FedCM.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { mintSubtoken } from "../fake_gw2/auth.ts";

/** The confidential client the fake knows by default. */
export const FAKE_GW2ME_CLIENT = {
  id: "priory-fake-client",
  secret: "fake-gw2me-client-secret",
} as const;

/** The fake's players: each with the GW2 accounts they shared (test-key label, account name). */
export const FAKE_GW2ME_USERS: Readonly<
  Record<string, readonly { readonly id: string; readonly name: string; readonly key: string }[]>
> = {
  tester: [{ id: "a5e1c0de-0001", name: "Priory Tester.4821", key: "full" }],
  veteran: [{ id: "a5e1c0de-0006", name: "Priory Veteran.1907", key: "veteran" }],
  /** Signed in to gw2.me with no GW2 account added. */
  nokey: [],
};

/** Access tokens live 7 days, as gw2.me's. */
export const ACCESS_TTL_S = 604_800;
/** Subtokens gw2.me makes live an hour (its code; its docs say 10 minutes). */
export const DEFAULT_SUBTOKEN_TTL_MS = 60 * 60_000;

/** The endpoints a test can make fail once. */
export type Gw2meEndpoint = "token" | "accounts" | "subtoken" | "revoke";

/** One request the fake served. */
export interface Gw2meRequestLog {
  readonly endpoint: Gw2meEndpoint | "authorize" | "decide" | "other";
  readonly status: number;
  /** For `token`: the grant type. */
  readonly grantType?: string;
}

/** Options of a fake gw2.me. */
export interface FakeGw2meOptions {
  /** Epoch ms. @default Date.now */
  readonly now?: () => number;
  readonly clientId?: string;
  readonly clientSecret?: string;
  /**
   * The client's registered redirect URIs (matched exactly). Absent: every loopback
   * `http://127.0.0.1:<port>/gw2me/callback` or `http://localhost:<port>/gw2me/callback`, for a
   * manual try against `deno task dev --public`.
   */
  readonly redirectUris?: readonly string[];
  readonly subtokenTtlMs?: number;
}

interface Authorization {
  readonly user: string;
  readonly scope: readonly string[];
  refresh: string;
  access: string;
  accessExpiresAt: number;
  revoked: boolean;
}

interface Code {
  readonly user: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly scope: readonly string[];
  readonly expiresAt: number;
}

/** A fake gw2.me, in process. */
export class FakeGw2me {
  readonly #now: () => number;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #redirectUris: readonly string[] | undefined;
  readonly #subtokenTtlMs: number;
  readonly #codes = new Map<string, Code>();
  readonly #authorizations: Authorization[] = [];
  readonly #failures = new Map<Gw2meEndpoint, number>();
  #lastGrantType = "";
  /** Every request served, in order. */
  readonly requests: Gw2meRequestLog[] = [];
  /** The tokens revoked through `/api/token/revoke`, as `refresh` or `access`. */
  readonly revocations: ("refresh" | "access" | "unknown")[] = [];
  /** Subtokens minted. */
  minted = 0;

  /** @param options clock, client and redirect URIs, subtoken lifetime */
  constructor(options: FakeGw2meOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#clientId = options.clientId ?? FAKE_GW2ME_CLIENT.id;
    this.#clientSecret = options.clientSecret ?? FAKE_GW2ME_CLIENT.secret;
    this.#redirectUris = options.redirectUris;
    this.#subtokenTtlMs = options.subtokenTtlMs ?? DEFAULT_SUBTOKEN_TTL_MS;
  }

  /** Whether the fake answers `pathname` (it shares a server with the fake GW2 API). */
  static handles(pathname: string): boolean {
    return pathname.startsWith("/oauth2/") || pathname.startsWith("/api/");
  }

  /** The next call of `endpoint` answers `status` (500: gw2.me down; 400/401: refused). */
  failNext(endpoint: Gw2meEndpoint, status: number): void {
    this.#failures.set(endpoint, status);
  }

  /** Every access token expires now (as gw2.me replacing them would). */
  expireAccessTokens(): void {
    for (const authorization of this.#authorizations) authorization.accessExpiresAt = 0;
  }

  /** The player removed the app on gw2.me: every authorization of `user` ends. */
  removeApp(user: string): void {
    for (const authorization of this.#authorizations) {
      if (authorization.user === user) authorization.revoked = true;
    }
  }

  /** Authorizations still live. */
  get live(): number {
    return this.#authorizations.filter((authorization) => !authorization.revoked).length;
  }

  /**
   * The link the fake's authorization page shows for `user` (or for Deny), from the
   * authorization URL the client sent the browser to: what a player's click does.
   */
  static decideUrl(authorizeUrl: string, user: string | "deny"): string {
    const url = new URL(authorizeUrl);
    url.pathname = "/oauth2/authorize/decide";
    url.searchParams.set("user", user);
    return url.href;
  }

  /** Serves one request (same call shape as `fetch`). */
  readonly fetch = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined
      ? input
      : new Request(input, init);
    const url = new URL(request.url);
    const [endpoint, answer] = await this.#route(request, url);
    this.requests.push({
      endpoint,
      status: answer.status,
      ...(endpoint === "token" ? { grantType: this.#lastGrantType } : {}),
    });
    return answer;
  };

  async #route(request: Request, url: URL): Promise<[Gw2meRequestLog["endpoint"], Response]> {
    const path = url.pathname;
    if (path === "/oauth2/authorize" && request.method === "GET") {
      return ["authorize", this.#authorizePage(url)];
    }
    if (path === "/oauth2/authorize/decide" && request.method === "GET") {
      return ["decide", this.#decide(url)];
    }
    const failing = (endpoint: Gw2meEndpoint): Response | undefined => {
      const status = this.#failures.get(endpoint);
      if (status === undefined) return undefined;
      this.#failures.delete(endpoint);
      return Response.json(
        status >= 500 ? { error: true } : { error: "invalid_grant", error_description: "refused" },
        { status },
      );
    };
    if (path === "/api/token" && request.method === "POST") {
      const form = new URLSearchParams(await request.text());
      this.#lastGrantType = form.get("grant_type") ?? "";
      return ["token", failing("token") ?? await this.#token(request, form)];
    }
    if (path === "/api/token/revoke" && request.method === "POST") {
      const form = new URLSearchParams(await request.text());
      return ["revoke", failing("revoke") ?? this.#revoke(request, form)];
    }
    if (path === "/api/accounts" && request.method === "GET") {
      return ["accounts", failing("accounts") ?? this.#accounts(request)];
    }
    const subtoken = /^\/api\/accounts\/([^/]+)\/subtoken$/.exec(path);
    if (subtoken?.[1] !== undefined && request.method === "GET") {
      return ["subtoken", failing("subtoken") ?? this.#subtoken(request, url, subtoken[1])];
    }
    return ["other", Response.json({ error: "not found" }, { status: 404 })];
  }

  /** Why an authorization request cannot be answered, or `undefined` when it can. */
  #refusal(params: URLSearchParams): string | undefined {
    if (params.get("client_id") !== this.#clientId) return "unknown client_id";
    if (!this.#redirectAllowed(params.get("redirect_uri") ?? "")) return "unknown redirect_uri";
    if (params.get("response_type") !== "code") return "response_type must be code";
    if (params.get("code_challenge_method") !== "S256" || !params.get("code_challenge")) {
      return "PKCE S256 is required";
    }
    return undefined;
  }

  #redirectAllowed(uri: string): boolean {
    if (this.#redirectUris !== undefined) return this.#redirectUris.includes(uri);
    return /^http:\/\/(127\.0\.0\.1|localhost):\d+\/gw2me\/callback$/.test(uri);
  }

  #authorizePage(url: URL): Response {
    const refusal = this.#refusal(url.searchParams);
    if (refusal !== undefined) return page(400, `<p>Cannot sign in: ${escape(refusal)}.</p>`);
    const links = Object.keys(FAKE_GW2ME_USERS).map((user) =>
      `<li><a href="${escape(FakeGw2me.decideUrl(url.href, user))}">Sign in as ${
        escape(user)
      }</a></li>`
    );
    return page(
      200,
      [
        `<h1>Fake gw2.me</h1><p>An app asks for ${
          escape(url.searchParams.get("scope") ?? "")
        }.</p>`,
        `<ul>${links.join("")}</ul>`,
        `<p><a href="${escape(FakeGw2me.decideUrl(url.href, "deny"))}">Deny</a></p>`,
      ].join(""),
    );
  }

  #decide(url: URL): Response {
    const params = url.searchParams;
    const refusal = this.#refusal(params);
    if (refusal !== undefined) return page(400, `<p>Cannot sign in: ${escape(refusal)}.</p>`);
    const back = new URL(params.get("redirect_uri") ?? "");
    const state = params.get("state");
    if (state !== null) back.searchParams.set("state", state);
    back.searchParams.set("iss", url.origin);
    const user = params.get("user") ?? "";
    if (user === "deny" || FAKE_GW2ME_USERS[user] === undefined) {
      back.searchParams.set("error", "access_denied");
    } else {
      const code = random();
      this.#codes.set(code, {
        user,
        redirectUri: params.get("redirect_uri") ?? "",
        challenge: params.get("code_challenge") ?? "",
        scope: (params.get("scope") ?? "").split(" ").filter((scope) => scope !== ""),
        expiresAt: this.#now() + 60_000,
      });
      back.searchParams.set("code", code);
    }
    return new Response(null, { status: 302, headers: { location: back.href } });
  }

  async #token(request: Request, form: URLSearchParams): Promise<Response> {
    const client = basicAuth(request) ?? {
      id: form.get("client_id") ?? "",
      secret: form.get("client_secret") ?? "",
    };
    if (client.id !== this.#clientId || client.secret !== this.#clientSecret) {
      return oauthError(401, "invalid_client", "Invalid client_id or client_secret");
    }
    const grantType = form.get("grant_type");
    if (grantType === "authorization_code") {
      const code = this.#codes.get(form.get("code") ?? "");
      this.#codes.delete(form.get("code") ?? "");
      if (code === undefined || code.expiresAt < this.#now()) {
        return oauthError(400, "invalid_grant", "Invalid code");
      }
      if (code.redirectUri !== form.get("redirect_uri")) {
        return oauthError(400, "invalid_grant", "Invalid redirect_url");
      }
      const verifier = form.get("code_verifier") ?? "";
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
      if (Buffer.from(digest).toString("base64url") !== code.challenge) {
        return oauthError(400, "invalid_request", "code challenge verification failed");
      }
      const authorization: Authorization = {
        user: code.user,
        scope: code.scope,
        refresh: random(),
        access: random(),
        accessExpiresAt: this.#now() + ACCESS_TTL_S * 1000,
        revoked: false,
      };
      this.#authorizations.push(authorization);
      return tokenAnswer(authorization);
    }
    if (grantType === "refresh_token") {
      const presented = form.get("refresh_token") ?? "";
      const authorization = this.#authorizations.find((item) =>
        !item.revoked && item.refresh === presented
      );
      if (authorization === undefined) {
        return oauthError(400, "invalid_grant", "Invalid refresh_token");
      }
      // Single use: the old refresh token stops working as the new one is issued.
      authorization.refresh = random();
      authorization.access = random();
      authorization.accessExpiresAt = this.#now() + ACCESS_TTL_S * 1000;
      return tokenAnswer(authorization);
    }
    return oauthError(400, "unsupported_grant_type", "Invalid grant_type");
  }

  #revoke(request: Request, form: URLSearchParams): Response {
    const client = basicAuth(request);
    if (client?.id !== this.#clientId || client.secret !== this.#clientSecret) {
      return oauthError(401, "invalid_client", "Invalid client");
    }
    const token = form.get("token") ?? "";
    const refresh = this.#authorizations.find((item) => item.refresh === token);
    const access = this.#authorizations.find((item) => item.access === token);
    const found = refresh ?? access;
    if (found !== undefined) found.revoked = true;
    this.revocations.push(
      refresh !== undefined ? "refresh" : access !== undefined ? "access" : "unknown",
    );
    return Response.json({});
  }

  /** The live authorization a bearer access token belongs to. */
  #bearer(request: Request): Authorization | undefined {
    const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    return this.#authorizations.find((item) =>
      !item.revoked && item.access === token && item.accessExpiresAt > this.#now()
    );
  }

  #accounts(request: Request): Response {
    const authorization = this.#bearer(request);
    if (authorization === undefined) return unauthorized();
    const accounts = (FAKE_GW2ME_USERS[authorization.user] ?? []).map(({ id, name }) => ({
      id,
      name,
      shared: false,
    }));
    return Response.json({ accounts });
  }

  #subtoken(request: Request, url: URL, accountId: string): Response {
    const authorization = this.#bearer(request);
    if (authorization === undefined) return unauthorized();
    const account = (FAKE_GW2ME_USERS[authorization.user] ?? []).find((item) =>
      item.id === decodeURIComponent(accountId)
    );
    if (account === undefined) {
      return Response.json({ error: true, error_description: "Account or token not found" }, {
        status: 404,
      });
    }
    const authorized = authorization.scope.filter((scope) => scope.startsWith("gw2:")).map((
      scope,
    ) => scope.slice(4));
    const asked = url.searchParams.get("permissions");
    const permissions = asked === null ? authorized : asked.split(",");
    if (permissions.some((permission) => !authorized.includes(permission))) {
      return Response.json({ error: true, error_description: "Invalid permissions" }, {
        status: 400,
      });
    }
    const expiresAt = this.#now() + this.#subtokenTtlMs;
    this.minted++;
    return Response.json({
      subtoken: mintSubtoken(account.key, permissions, this.#now(), expiresAt),
      // gw2.me answers the Date's toString(), not ISO 8601.
      expiresAt: new Date(expiresAt).toString(),
    });
  }
}

function tokenAnswer(authorization: Authorization): Response {
  return Response.json({
    access_token: authorization.access,
    issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
    token_type: "Bearer",
    expires_in: ACCESS_TTL_S,
    refresh_token: authorization.refresh,
    scope: authorization.scope.join(" "),
  }, { headers: { "cache-control": "no-store" } });
}

function basicAuth(request: Request): { id: string; secret: string } | undefined {
  const match = /^Basic (\S+)$/.exec(request.headers.get("authorization") ?? "");
  if (match?.[1] === undefined) return undefined;
  const decoded = atob(match[1]);
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function oauthError(status: number, error: string, description: string): Response {
  return Response.json({ error, error_description: description }, { status });
}

function unauthorized(): Response {
  return Response.json({ error: "invalid_token" }, { status: 401 });
}

function page(status: number, body: string): Response {
  return new Response(`<!doctype html><title>Fake gw2.me</title>${body}`, {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function random(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex");
}
