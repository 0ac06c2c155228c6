/**
 * Priory as a confidential client of gw2.me (`PRIORY_GW2ME_*`): the authorization URL (code flow,
 * PKCE S256, the `gw2:` scopes the tools use), the token endpoint (code exchange and refresh, with
 * HTTP Basic client authentication as gw2.me's own client sends it), `/api/accounts`, GW2
 * subtokens (`/api/accounts/{id}/subtoken`) and revocation. Every call is bounded in time and
 * size and its answer checked by a schema; a failure is one of three kinds, which decide what
 * the sign-in does: `refused` (gw2.me said no for good: the sign-in ends), `unauthorized` (the
 * access token is stale: refresh and retry) and `unavailable` (try again later). Besides the GW2
 * transport, the one module that calls `fetch`: gw2.me is the operator's configured origin, so no
 * address guard is needed (unlike a client's metadata document).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { z } from "zod";
import type { Clock } from "../async/clock.ts";
import { startDeadline } from "../async/deadline.ts";
import type { Gw2meConfig } from "../config.ts";

/** The scopes Priory asks gw2.me for: the GW2 permissions the tools use. */
export const GW2ME_SCOPES: readonly string[] = [
  "gw2:account",
  "gw2:inventories",
  "gw2:characters",
  "gw2:wallet",
  "gw2:tradingpost",
  "gw2:unlocks",
  "gw2:progression",
];

/** How long one call to gw2.me may take. */
export const GW2ME_CALL_MS = 10_000;
/** The largest answer read from gw2.me. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** A call that did not give what was asked. */
export interface Gw2meFailure {
  readonly ok: false;
  readonly kind: "refused" | "unauthorized" | "unavailable";
  /** For the log: the HTTP status, or what went wrong before one. */
  readonly detail: string;
}

/** Tokens from gw2.me's token endpoint. */
export interface Gw2meTokens {
  readonly ok: true;
  readonly access: string;
  /** Epoch ms. */
  readonly accessExpiresAt: number;
  /** The refresh token; gw2.me rotates it, so each one is used once. */
  readonly refresh: string | undefined;
  /** The GW2 permissions the granted scopes allow. */
  readonly permissions: readonly string[];
}

/** A GW2 subtoken of the player's account. */
export interface Gw2meSubtoken {
  readonly ok: true;
  readonly subtoken: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}

/** A request to gw2.me, answered (the global `fetch`, or a fake's). */
export type Gw2meFetch = (request: Request) => Promise<Response>;

/** Options of {@linkcode Gw2meClient}. */
export interface Gw2meClientOptions {
  readonly config: Gw2meConfig;
  /** Where gw2.me sends the player back (`<PRIORY_PUBLIC_URL>/gw2me/callback`). */
  readonly redirectUri: string;
  readonly clock: Clock;
  /** @default the global fetch */
  readonly fetch?: Gw2meFetch;
}

const TokenAnswer = z.object({
  access_token: z.string().min(1).max(2_000),
  expires_in: z.number().positive().optional(),
  refresh_token: z.string().min(1).max(2_000).optional(),
  scope: z.string().max(2_000).optional(),
});

const AccountsAnswer = z.object({
  accounts: z.array(z.object({ id: z.string().min(1).max(200), name: z.string().max(200) })),
});

const SubtokenAnswer = z.object({
  subtoken: z.string().min(20).max(4_000),
  expiresAt: z.string().max(200),
});

/** A subtoken whose expiry cannot be read is taken to live this long (gw2.me's documented 10 min). */
const SUBTOKEN_FALLBACK_MS = 10 * 60_000;
/** An access token without `expires_in` is taken to live this long (gw2.me's 7 days). */
const ACCESS_FALLBACK_S = 604_800;

/** gw2.me for one Priory server. */
export class Gw2meClient {
  readonly #config: Gw2meConfig;
  readonly #redirectUri: string;
  readonly #clock: Clock;
  readonly #fetch: Gw2meFetch;

  /** @param options the configuration, the callback URL, the clock and (for tests) a fetch */
  constructor(options: Gw2meClientOptions) {
    this.#config = options.config;
    this.#redirectUri = options.redirectUri;
    this.#clock = options.clock;
    this.#fetch = options.fetch ?? ((request) => fetch(request));
  }

  /** gw2.me's origin: the `iss` its answers must carry, and a CSP `form-action` source. */
  get origin(): string {
    return this.#config.url;
  }

  /** Where the player's browser goes to sign in with gw2.me. */
  authorizeUrl(state: string, challenge: string): string {
    const url = new URL("/oauth2/authorize", this.#config.url);
    url.search = new URLSearchParams({
      client_id: this.#config.clientId,
      response_type: "code",
      redirect_uri: this.#redirectUri,
      scope: GW2ME_SCOPES.join(" "),
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }).toString();
    return url.href;
  }

  /** Exchanges the code gw2.me sent back. */
  exchangeCode(code: string, verifier: string): Promise<Gw2meTokens | Gw2meFailure> {
    return this.#token({
      grant_type: "authorization_code",
      code,
      redirect_uri: this.#redirectUri,
      code_verifier: verifier,
    });
  }

  /** Uses a refresh token (once: keep the one the answer carries). */
  refresh(refreshToken: string): Promise<Gw2meTokens | Gw2meFailure> {
    return this.#token({ grant_type: "refresh_token", refresh_token: refreshToken });
  }

  /** The GW2 accounts the player shared with Priory. */
  async accounts(
    access: string,
  ): Promise<{ ok: true; accounts: { id: string; name: string }[] } | Gw2meFailure> {
    const answer = await this.#call(this.#api("/api/accounts", access), AccountsAnswer);
    return answer.ok ? { ok: true, accounts: answer.value.accounts } : answer;
  }

  /** A GW2 subtoken of `accountId` with `permissions`. */
  async subtoken(
    access: string,
    accountId: string,
    permissions: readonly string[],
  ): Promise<Gw2meSubtoken | Gw2meFailure> {
    const path = `/api/accounts/${encodeURIComponent(accountId)}/subtoken?permissions=${
      encodeURIComponent(permissions.join(","))
    }`;
    const answer = await this.#call(this.#api(path, access), SubtokenAnswer);
    if (!answer.ok) return answer;
    // gw2.me writes the expiry as a Date's toString() ("Mon Dec 14 2026 10:00:00 GMT+0000 ...").
    const parsed = Date.parse(answer.value.expiresAt);
    const now = this.#clock.now();
    return {
      ok: true,
      subtoken: answer.value.subtoken,
      expiresAt: Number.isFinite(parsed) && parsed > now ? parsed : now + SUBTOKEN_FALLBACK_MS,
    };
  }

  /** Revokes a token at gw2.me; whether gw2.me confirmed. */
  async revoke(token: string): Promise<boolean> {
    const answer = await this.#call(this.#form("/api/token/revoke", { token }), z.unknown());
    return answer.ok;
  }

  async #token(params: Record<string, string>): Promise<Gw2meTokens | Gw2meFailure> {
    const answer = await this.#call(this.#form("/api/token", params), TokenAnswer);
    if (!answer.ok) return answer;
    const scopes = (answer.value.scope ?? GW2ME_SCOPES.join(" ")).split(" ");
    return {
      ok: true,
      access: answer.value.access_token,
      accessExpiresAt: this.#clock.now() +
        (answer.value.expires_in ?? ACCESS_FALLBACK_S) * 1000,
      refresh: answer.value.refresh_token,
      permissions: scopes.filter((scope) => GW2ME_SCOPES.includes(scope)).map((scope) =>
        scope.slice("gw2:".length)
      ),
    };
  }

  /** A form POST as a confidential client: HTTP Basic, and `client_id` in the form. */
  #form(path: string, params: Record<string, string>): Request {
    const credentials = Buffer.from(`${this.#config.clientId}:${this.#config.clientSecret}`)
      .toString("base64");
    return new Request(new URL(path, this.#config.url), {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${credentials}`,
        accept: "application/json",
      },
      body: new URLSearchParams({ ...params, client_id: this.#config.clientId }).toString(),
    });
  }

  #api(path: string, access: string): Request {
    return new Request(new URL(path, this.#config.url), {
      headers: { authorization: `Bearer ${access}`, accept: "application/json" },
    });
  }

  /** Sends `request` within {@linkcode GW2ME_CALL_MS} and reads its JSON through `schema`. */
  async #call<T>(
    request: Request,
    schema: z.ZodType<T>,
  ): Promise<{ ok: true; value: T } | Gw2meFailure> {
    using deadline = startDeadline(this.#clock, GW2ME_CALL_MS);
    let response: Response;
    try {
      response = await this.#fetch(new Request(request, { signal: deadline.signal }));
    } catch {
      return failure("unavailable", deadline.signal.aborted ? "timeout" : "network");
    }
    const text = await readBounded(response);
    if (!response.ok) {
      if (response.status === 401 && !request.url.includes("/api/token")) {
        return failure("unauthorized", "401");
      }
      return failure(
        response.status >= 400 && response.status < 500 ? "refused" : "unavailable",
        String(response.status),
      );
    }
    if (text === undefined) return failure("unavailable", "answer too large");
    let json: unknown;
    try {
      json = text === "" ? {} : JSON.parse(text);
    } catch {
      return failure("unavailable", "not JSON");
    }
    const parsed = schema.safeParse(json);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : failure("unavailable", "unexpected answer");
  }
}

function failure(kind: Gw2meFailure["kind"], detail: string): Gw2meFailure {
  return { ok: false, kind, detail };
}

/** The body as text, or `undefined` past {@linkcode MAX_ANSWER_BYTES} (the rest is dropped). */
async function readBounded(response: Response): Promise<string | undefined> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(read.value);
    }
  } catch {
    return undefined;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
