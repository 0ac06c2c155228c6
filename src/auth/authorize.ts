/**
 * The authorization endpoint: `GET /authorize` checks the request and shows the consent page;
 * `POST /authorize` takes the player's answer.
 *
 * The request is checked in an order that never sends anyone to an address the client did not
 * register: the client and its exact redirect URI first - a failure there is a page, never a
 * redirect - then the rest (`response_type=code`, PKCE S256, `resource`), whose failures go back
 * to the client as RFC 6749 errors: at once when the redirect stays on the player's device, else
 * from a link on a page that says what went wrong (RFC 9700 §4.11.2: no automatic redirect to a
 * web address a stranger may have registered). The page carries the checked request in a signed hidden field
 * (HMAC under `PRIORY_SECRET`, ten minutes) together with a CSRF token that must match a cookie
 * the page set (`SameSite=Strict`, `HttpOnly`, on https a `__Host-` cookie) and a nonce used up by
 * the first answer, so a forged, foreign or replayed POST is refused. On Allow the key is checked
 * with the GW2 API before anything is issued; a key GW2 rejects shows the page again with the
 * reason, and one missing permissions is explained first, then accepted if the player insists.
 * The answer is a `302` to the redirect URI with `code` (or `error=access_denied`), `state` and
 * `iss` (RFC 9207).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { Clock } from "../async/clock.ts";
import type { Gw2Client } from "../gw2/types.ts";
import type { Logger } from "../log.ts";
import type { Clients } from "./clients.ts";
import { type ConsentNotice, consentPage, stopPage, type StopReason } from "./consent_page.ts";
import { type ConsentLanguage, pickLanguage } from "./consent_text.ts";
import { randomId, sameText } from "./crypto.ts";
import type { AuthSecrets } from "./crypto.ts";
import { type Grants, sameResource } from "./grants.ts";
import { checkKey } from "./key_check.ts";
import { AUTH_PATHS, type AuthUrls } from "./metadata.ts";
import { formActionSource, redirectTarget, staysOnDevice, withParams } from "./redirect.ts";
import { cookiesOf, htmlPage, pageHeaders, redirectTo } from "./responses.ts";
import type { AuthStore } from "./store.ts";

/** How long a consent page may be answered. */
export const CONSENT_TTL_MS = 10 * 60_000;
/** The longest `state` accepted from a client. */
const MAX_STATE = 1_000;

/** What the endpoint needs. */
export interface AuthorizeDeps {
  readonly urls: AuthUrls;
  readonly clients: Clients;
  readonly grants: Grants;
  readonly store: AuthStore;
  readonly secrets: AuthSecrets;
  /** Checks the player's key (`/v2/tokeninfo`, `/v2/account`). */
  readonly gw2: Gw2Client;
  readonly clock: Clock;
  readonly log: Logger;
}

/** A checked authorization request, as the signed form state carries it. */
interface FormState {
  readonly clientId: string;
  readonly clientName?: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly resource: string;
  readonly state?: string;
  /** Used up by the first answer. */
  readonly nonce: string;
  /** Must equal the page's cookie. */
  readonly csrf: string;
  readonly expiresAt: number;
  /** The player was told which permissions the key lacks: the same answer now goes on. */
  readonly acknowledged: boolean;
}

/** The authorization endpoint. */
export class AuthorizeEndpoint {
  readonly #deps: AuthorizeDeps;
  readonly #issuerOrigin: string;
  readonly #secureCookie: boolean;

  /** @param deps addresses, clients, grants, store, secrets, GW2 client, clock and logger */
  constructor(deps: AuthorizeDeps) {
    this.#deps = deps;
    this.#issuerOrigin = new URL(deps.urls.issuer).origin;
    this.#secureCookie = deps.urls.issuer.startsWith("https:");
  }

  /** `GET /authorize`: the consent page, an error page, or an error redirect. */
  async show(request: Request): Promise<Response> {
    const lang = pickLanguage(request.headers.get("accept-language"));
    const params = new URL(request.url).searchParams;
    const single = (name: string): string | undefined | null => {
      const values = params.getAll(name);
      return values.length > 1 ? null : values[0];
    };
    const clientId = single("client_id");
    if (clientId === null || clientId === undefined || clientId === "") {
      return this.#stop(lang, 400, { kind: "badRequest", detail: "client_id is missing" });
    }
    const lookup = await this.#deps.clients.resolve(clientId);
    if (!lookup.ok) {
      this.#deps.log.info("auth authorize refused", { reason: lookup.reason });
      return lookup.reason === "unknown"
        ? this.#stop(lang, 400, "unknownClient")
        : this.#stop(lang, 400, { kind: "clientDocument", detail: lookup.detail });
    }
    const client = lookup.client;
    const redirectUri = single("redirect_uri");
    if (
      redirectUri === null || redirectUri === undefined ||
      !client.redirectUris.includes(redirectUri)
    ) {
      this.#deps.log.info("auth authorize refused", { reason: "redirect_uri" });
      return this.#stop(lang, 400, "badRedirect");
    }
    // From here the redirect URI is the client's own: errors go back to it (knowingly, when it
    // leaves the player's device).
    const state = single("state");
    const back = (error: string, description: string): Response => {
      const answer = this.#errorUrl(redirectUri, error, description, state ?? undefined);
      if (staysOnDevice(redirectUri)) return redirectTo(answer);
      this.#deps.log.info("auth authorize refused", { reason: error });
      return this.#stop(lang, 400, {
        kind: "badRequest",
        detail: description,
        back: { url: answer, target: redirectTarget(redirectUri) },
      });
    };
    if (state === null || (state !== undefined && state.length > MAX_STATE)) {
      return back(
        "invalid_request",
        "state must be given at most once, in at most 1000 characters",
      );
    }
    if (single("response_type") !== "code") {
      return back("unsupported_response_type", 'only response_type "code" is supported');
    }
    const challenge = single("code_challenge");
    const method = single("code_challenge_method");
    if (challenge === undefined || challenge === null || challenge === "") {
      return back("invalid_request", "code_challenge is required (PKCE with S256)");
    }
    if (method !== "S256") {
      return back("invalid_request", "code_challenge_method must be S256 (plain is not accepted)");
    }
    if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return back("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters)");
    }
    const resources = params.getAll("resource");
    const [resource = this.#deps.urls.resource] = resources;
    if (resources.length > 1 || !sameResource(resource, this.#deps.urls.resource)) {
      return back(
        "invalid_target",
        `this server issues tokens only for ${this.#deps.urls.resource}`,
      );
    }
    return await this.#page(lang, 200, {
      clientId,
      ...(client.name === undefined ? {} : { clientName: client.name }),
      redirectUri,
      challenge,
      resource: this.#deps.urls.resource,
      ...(state === undefined ? {} : { state }),
      acknowledged: false,
    });
  }

  /** `POST /authorize`: the player's answer. `body` is the bounded form body. */
  async answer(request: Request, body: Uint8Array): Promise<Response> {
    const lang = pickLanguage(request.headers.get("accept-language"));
    const origin = request.headers.get("origin");
    // A browser names the page that sent the form; it must be ours ("null" says nothing: some
    // privacy settings send it, and the cookie check below still holds).
    if (origin !== null && origin !== "null" && origin !== this.#issuerOrigin) {
      return this.#refuse(lang, 403, "forged", "origin");
    }
    const type = request.headers.get("content-type") ?? "";
    if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
      return this.#refuse(lang, 400, "forged", "content type");
    }
    const form = new URLSearchParams(new TextDecoder().decode(body));
    const form0 = await this.#readState(form.get("request"));
    if (form0 === undefined) return this.#refuse(lang, 403, "forged", "state");
    if (this.#deps.clock.now() > form0.expiresAt) {
      return this.#refuse(lang, 400, "expired", "expired");
    }
    const cookie = cookiesOf(request).get(cookieName(form0.nonce, this.#secureCookie));
    if (cookie === undefined || !sameText(cookie, form0.csrf)) {
      return this.#refuse(lang, 403, "forged", "csrf cookie");
    }
    if (!(await this.#deps.store.useNonce(form0.nonce, CONSENT_TTL_MS * 2))) {
      return this.#refuse(lang, 400, "used", "replayed");
    }
    const cleared = [consentCookie(form0.nonce, "", 0, this.#secureCookie)];
    const decision = form.get("decision");
    if (decision === "deny") {
      this.#deps.log.info("auth consent", { decision: "deny" });
      // The player saw where Deny sends them (the page names the host) and chose to go.
      return redirectTo(
        this.#errorUrl(form0.redirectUri, "access_denied", "the player denied access", form0.state),
        cleared,
      );
    }
    if (decision !== "allow") {
      return this.#page(lang, 400, form0, { kind: "keyMissing" }, cleared);
    }
    const key = (form.get("gw2_key") ?? "").trim();
    const check = await checkKey(this.#deps.gw2, key, this.#deps.clock);
    if (!check.ok) {
      this.#deps.log.info("auth consent", { decision: "allow", refused: check.reason });
      return this.#page(lang, 400, form0, { kind: check.reason }, cleared);
    }
    if (check.missing.length > 0 && !form0.acknowledged) {
      const notice: ConsentNotice = { kind: "missingPerms", missing: check.missing };
      return this.#page(lang, 200, { ...form0, acknowledged: true }, notice, cleared);
    }
    const code = await this.#deps.grants.begin({
      clientId: form0.clientId,
      redirectUri: form0.redirectUri,
      challenge: form0.challenge,
      resource: form0.resource,
      key,
      account: check.account,
      permissions: check.permissions,
    });
    this.#deps.log.info("auth consent", { decision: "allow", missing: check.missing.length });
    return redirectTo(
      withParams(form0.redirectUri, {
        code,
        ...(form0.state === undefined ? {} : { state: form0.state }),
        iss: this.#deps.urls.issuer,
      }),
      cleared,
    );
  }

  /** The consent page for `request` with a fresh nonce, CSRF token and cookie. */
  async #page(
    lang: ConsentLanguage,
    status: number,
    request: Omit<FormState, "nonce" | "csrf" | "expiresAt">,
    notice?: ConsentNotice,
    cookies: readonly string[] = [],
  ): Promise<Response> {
    const form: FormState = {
      ...request,
      nonce: randomId(18),
      csrf: randomId(),
      expiresAt: this.#deps.clock.now() + CONSENT_TTL_MS,
    };
    const signed = await this.#deps.secrets.sign(
      Buffer.from(JSON.stringify(form)).toString("base64url"),
    );
    const html = consentPage({
      lang,
      ...(form.clientName === undefined ? {} : { clientName: form.clientName }),
      redirectUri: form.redirectUri,
      request: signed,
      ...(notice === undefined ? {} : { notice }),
    });
    const headers = pageHeaders(`'self' ${formActionSource(form.redirectUri)}`, lang);
    for (const cookie of cookies) headers.append("set-cookie", cookie);
    headers.append(
      "set-cookie",
      consentCookie(form.nonce, form.csrf, CONSENT_TTL_MS / 1000, this.#secureCookie),
    );
    return htmlPage(status, html, headers);
  }

  /** The form state a page signed, or `undefined` when it is missing, altered or malformed. */
  async #readState(signed: string | null): Promise<FormState | undefined> {
    if (signed === null || signed.length > 20_000) return undefined;
    const payload = await this.#deps.secrets.unsign(signed);
    if (payload === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      return isFormState(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  #refuse(lang: ConsentLanguage, status: number, reason: StopReason, why: string): Response {
    this.#deps.log.info("auth consent refused", { reason: why });
    return this.#stop(lang, status, reason);
  }

  #stop(lang: ConsentLanguage, status: number, reason: StopReason): Response {
    return htmlPage(status, stopPage(lang, reason), pageHeaders("'none'", lang));
  }

  /** `redirectUri` with an RFC 6749 §4.1.2.1 error response (and RFC 9207 `iss`). */
  #errorUrl(
    redirectUri: string,
    error: string,
    description: string,
    state: string | undefined,
  ): string {
    return withParams(redirectUri, {
      error,
      error_description: description,
      ...(state === undefined ? {} : { state }),
      iss: this.#deps.urls.issuer,
    });
  }
}

/**
 * The name of a page's CSRF cookie: one per form, so two sign-ins in two tabs do not overwrite
 * each other. On https a `__Host-` cookie, which no other host - a sibling subdomain included -
 * can set or shadow; the prefix needs `Secure`, so a loopback `http:` origin (the dev server)
 * goes without it.
 */
function cookieName(nonce: string, secure: boolean): string {
  return `${secure ? "__Host-" : ""}priory_consent_${nonce.slice(0, 12)}`;
}

/**
 * The `Set-Cookie` value of a page's CSRF cookie (`maxAgeS` 0 clears it): `HttpOnly`,
 * `SameSite=Strict`; on https `Secure` with `Path=/` (as `__Host-` requires, no `Domain`), on
 * loopback http scoped to the page's path.
 */
function consentCookie(nonce: string, value: string, maxAgeS: number, secure: boolean): string {
  const scope = secure ? "Path=/" : `Path=${AUTH_PATHS.authorize}`;
  return `${
    cookieName(nonce, secure)
  }=${value}; ${scope}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

function isFormState(value: unknown): value is FormState {
  if (typeof value !== "object" || value === null) return false;
  const field = (name: string): unknown => Reflect.get(value, name);
  const text = (name: string) => typeof field(name) === "string";
  const optionalText = (name: string) => field(name) === undefined || text(name);
  return text("clientId") && text("redirectUri") && text("challenge") && text("resource") &&
    text("nonce") && text("csrf") && typeof field("expiresAt") === "number" &&
    typeof field("acknowledged") === "boolean" && optionalText("clientName") &&
    optionalText("state");
}
