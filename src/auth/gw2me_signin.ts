/**
 * Sign in with gw2.me, behind Priory's own authorization server (gw2.me has no dynamic
 * registration, and the MCP specification forbids passing its tokens through): the consent
 * page's "Sign in with gw2.me" sends the player to gw2.me with Priory's own authorization
 * request (code flow, PKCE S256, a fresh `state`), and gw2.me sends them back to
 * `/gw2me/callback`. There Priory takes the pending sign-in the `state` names - once, and only in
 * the browser that started it (a cookie bound to it; `SameSite=Lax`, since gw2.me's redirect is a
 * cross-site navigation) - checks gw2.me's `iss`, exchanges the code as a confidential client,
 * reads the player's shared GW2 account, mints a first subtoken and checks it with the GW2 API
 * as a pasted key is checked. Then the sign-in ends as a key sign-in does: a grant (holding
 * gw2.me's refresh token, sealed) and a code for the app. Anything gw2.me refuses shows the
 * consent page again with the reason, so the player can try again or paste a key; tokens already
 * issued by then are revoked at gw2.me.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import type { Logger } from "../log.ts";
import type { ConsentNotice, StopReason } from "./consent_page.ts";
import { stopPage } from "./consent_page.ts";
import { type ConsentLanguage, pickLanguage } from "./consent_text.ts";
import { type AuthSecrets, digest, randomId, sameText } from "./crypto.ts";
import type { Gw2meClient } from "./gw2me_client.ts";
import { GW2ME_PERMISSIONS, type Gw2meStart } from "./gw2me_keys.ts";
import type { Gw2mePending, PendingConsent } from "./gw2me_pending.ts";
import type { KeyCheck } from "./key_check.ts";
import { AUTH_PATHS } from "./metadata.ts";
import { cookiesOf, htmlPage, pageHeaders } from "./responses.ts";

/** How long the player may take at gw2.me. */
export const GW2ME_PENDING_MS = 10 * 60_000;

/** What the sign-in hands back to the consent flow. */
export interface ConsentResume {
  /** The consent page again for `request`, after `notice`. */
  again(
    lang: ConsentLanguage,
    request: PendingConsent,
    notice: ConsentNotice,
    cookies: readonly string[],
  ): Promise<Response>;
  /** Starts the grant of an allowed sign-in and answers the app's redirect with its code. */
  finish(
    lang: ConsentLanguage,
    request: PendingConsent,
    grant: {
      readonly key: string;
      readonly account: string;
      readonly permissions: readonly string[];
      readonly gw2me: Gw2meStart;
    },
    cookies: readonly string[],
  ): Promise<Response>;
}

/** What the sign-in needs. */
export interface Gw2meSignInDeps {
  readonly client: Gw2meClient;
  readonly pending: Gw2mePending;
  readonly secrets: AuthSecrets;
  /** Checks a subtoken as the consent page checks a pasted key (the key-check gate). */
  checkKey(key: string, clientAddress: string): Promise<KeyCheck>;
  /** `PRIORY_PUBLIC_URL`: whether the binding cookie is a `__Host-` one. */
  readonly publicUrl: string;
  readonly clock: Clock;
  readonly log: Logger;
}

/** The gw2.me sign-in. One per process. */
export class Gw2meSignIn {
  readonly #deps: Gw2meSignInDeps;
  readonly #secure: boolean;

  /** @param deps gw2.me, the pending store, secrets, the key check, the public URL, clock, log */
  constructor(deps: Gw2meSignInDeps) {
    this.#deps = deps;
    this.#secure = deps.publicUrl.startsWith("https:");
  }

  /** gw2.me's origin: the consent form's answer redirects there (its CSP names it). */
  get origin(): string {
    return this.#deps.client.origin;
  }

  /** The consent page's "Sign in with gw2.me": off to gw2.me, bound to this browser. */
  async start(request: PendingConsent, cookies: readonly string[]): Promise<Response> {
    const state = randomId();
    const verifier = randomId();
    const binding = randomId();
    const stateDigest = await digest(state);
    await this.#deps.pending.put(stateDigest, {
      request,
      verifier: await this.#deps.secrets.seal(verifier, pendingContext(stateDigest)),
      binding: await digest(binding),
      expiresAt: this.#deps.clock.now() + GW2ME_PENDING_MS,
    }, GW2ME_PENDING_MS);
    this.#deps.log.info("auth gw2me started", {});
    const headers = new Headers({
      location: this.#deps.client.authorizeUrl(state, await digest(verifier)),
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
    for (const cookie of cookies) headers.append("set-cookie", cookie);
    headers.append("set-cookie", this.#cookie(state, binding, GW2ME_PENDING_MS / 1000));
    return new Response(null, { status: 302, headers });
  }

  /** `GET /gw2me/callback`: gw2.me's answer; `clientAddress` for the subtoken's check. */
  async callback(
    request: Request,
    resume: ConsentResume,
    clientAddress: string,
  ): Promise<Response> {
    const lang = pickLanguage(request.headers.get("accept-language"));
    const params = new URL(request.url).searchParams;
    const state = params.get("state");
    if (state === null || state.length > 100 || params.getAll("state").length > 1) {
      return this.#stop(lang, 400, "forged", "state");
    }
    const stateDigest = await digest(state);
    const entry = await this.#deps.pending.peek(stateDigest);
    if (entry === undefined) return this.#stop(lang, 400, { kind: "expired" }, "unknown state");
    const { pending } = entry;
    const cookie = cookiesOf(request).get(this.#cookieName(state));
    // Only the browser that chose gw2.me may finish: a callback URL sent to another is refused.
    if (cookie === undefined || !sameText(await digest(cookie), pending.binding)) {
      return this.#stop(lang, 403, "forged", "binding cookie");
    }
    const iss = params.get("iss");
    if (iss !== null && iss !== this.#deps.client.origin) {
      return this.#stop(lang, 403, "forged", "iss");
    }
    if (this.#deps.clock.now() > pending.expiresAt) {
      return this.#stop(lang, 400, { kind: "expired" }, "expired");
    }
    if (!(await this.#deps.pending.take(entry))) return this.#stop(lang, 400, "used", "replayed");
    const cleared = [this.#cookie(state, "", 0)];
    const again = (notice: ConsentNotice, why: string) => {
      this.#deps.log.info("auth gw2me refused", { why });
      return resume.again(lang, pending.request, notice, cleared);
    };
    const error = params.get("error");
    const code = params.get("code");
    if (error !== null || code === null) {
      return await again(
        { kind: error === "access_denied" ? "gw2meDenied" : "gw2meFailed" },
        error ?? "no code",
      );
    }
    const verifier = await this.#deps.secrets.open(pending.verifier, pendingContext(stateDigest));
    if (verifier === undefined) return await again({ kind: "gw2meFailed" }, "verifier");
    const tokens = await this.#deps.client.exchangeCode(code, verifier);
    if (!tokens.ok) return await again({ kind: "gw2meFailed" }, `token ${tokens.detail}`);
    const finished = await this.#finish(
      lang,
      clientAddress,
      tokens,
      resume,
      pending.request,
      cleared,
    );
    if (finished.ok) return finished.response;
    // Nothing came of the tokens: end them at gw2.me rather than leave them live there.
    await Promise.all(
      [tokens.refresh, tokens.access].flatMap((token) =>
        token === undefined ? [] : [this.#deps.client.revoke(token)]
      ),
    );
    return await again(finished.notice, finished.why);
  }

  /** From gw2.me's tokens to a grant, or why not. */
  async #finish(
    lang: ConsentLanguage,
    clientAddress: string,
    tokens: {
      access: string;
      accessExpiresAt: number;
      refresh: string | undefined;
      permissions: readonly string[];
    },
    resume: ConsentResume,
    consent: PendingConsent,
    cleared: readonly string[],
  ): Promise<
    | { ok: true; response: Response }
    | { ok: false; notice: ConsentNotice; why: string }
  > {
    const { client } = this.#deps;
    if (tokens.refresh === undefined) {
      this.#deps.log.error(
        "gw2.me gave no refresh token: register Priory there as a confidential application (docs/deploy.md)",
        {},
      );
      return { ok: false, notice: { kind: "gw2meFailed" }, why: "no refresh token" };
    }
    const accounts = await client.accounts(tokens.access);
    if (!accounts.ok) {
      return { ok: false, notice: { kind: "gw2meFailed" }, why: `accounts ${accounts.detail}` };
    }
    const [account] = accounts.accounts;
    if (account === undefined) {
      return { ok: false, notice: { kind: "gw2meNoAccount" }, why: "no account" };
    }
    const permissions = GW2ME_PERMISSIONS.filter((permission) =>
      tokens.permissions.includes(permission)
    );
    const minted = await client.subtoken(tokens.access, account.id, permissions);
    if (!minted.ok) {
      const kind = minted.kind === "refused" ? "gw2meNoAccount" : "gw2meFailed";
      return { ok: false, notice: { kind }, why: `subtoken ${minted.detail}` };
    }
    const check = await this.#deps.checkKey(minted.subtoken, clientAddress);
    if (!check.ok) {
      // The gate's own refusals (too many checks, unchecked) say when to retry; a subtoken GW2
      // rejects is gw2.me's failure, not a key the player mistyped.
      const notice: ConsentNotice =
        check.reason === "keyRejected" || check.reason === "keyMalformed" ||
          check.reason === "keyMissing"
          ? { kind: "gw2meFailed" }
          : check.retryAfterMs === undefined
          ? { kind: check.reason }
          : { kind: check.reason, retryAfterMs: check.retryAfterMs };
      return { ok: false, notice, why: `subtoken check ${check.reason}` };
    }
    const response = await resume.finish(lang, consent, {
      key: tokens.refresh,
      account: check.account,
      permissions: check.permissions,
      gw2me: {
        account: account.id,
        access: tokens.access,
        accessExpiresAt: tokens.accessExpiresAt,
        subtoken: minted.subtoken,
        subtokenExpiresAt: minted.expiresAt,
      },
    }, cleared);
    return { ok: true, response };
  }

  #stop(lang: ConsentLanguage, status: number, reason: StopReason, why: string): Response {
    this.#deps.log.info("auth gw2me refused", { why });
    return htmlPage(status, stopPage(lang, reason), pageHeaders("'none'", lang));
  }

  /** One cookie per sign-in, so two tabs do not overwrite each other's. */
  #cookieName(state: string): string {
    return `${this.#secure ? "__Host-" : ""}priory_gw2me_${state.slice(0, 12)}`;
  }

  /**
   * The binding cookie (`maxAgeS` 0 clears it): `HttpOnly`, `SameSite=Lax` - gw2.me's redirect
   * back is a top-level navigation from another site, which `Strict` would strip it from; on
   * https a `__Host-` cookie, on loopback http scoped to the callback's path.
   */
  #cookie(state: string, value: string, maxAgeS: number): string {
    const scope = this.#secure ? "Path=/" : `Path=${AUTH_PATHS.gw2meCallback}`;
    return `${
      this.#cookieName(state)
    }=${value}; ${scope}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${
      this.#secure ? "; Secure" : ""
    }`;
  }
}

/** The sealing context of a pending sign-in's verifier. */
function pendingContext(stateDigest: string): string {
  return `gw2me-pending/${stateDigest}`;
}
