/**
 * A page form that only its own page can answer, once: the signed hidden field and cookie pair
 * the public server's forms carry (the sign-out page's; the consent page keeps its own copy of
 * the same rules in `authorize.ts`). Issuing a form signs its payload with a nonce, a CSRF token
 * and an expiry (HMAC under `PRIORY_SECRET`) and sets a cookie holding the CSRF token
 * (`HttpOnly`, `SameSite=Strict`, on https a `__Host-` cookie). An answer is accepted when the
 * browser's `Origin` (if it names one) is this server, the field's signature holds, it has not
 * expired, the cookie matches, and the nonce was never used: the first answer uses it up. A form
 * sent again says so ("used") rather than looking forged: its cookie is cleared by the first
 * answer, so the nonce is looked at before the cookie, and only a matching cookie uses it up.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { z } from "zod";
import type { Clock } from "../async/clock.ts";
import { type AuthSecrets, randomId, sameText, type SignPurpose } from "./crypto.ts";
import { cookiesOf } from "./responses.ts";
import type { AuthStore } from "./store.ts";

/** Why an answer was refused. */
export type FormRefusal = "forged" | "expired" | "used";

/** The outcome of {@linkcode FormGuard.check}. */
export type FormCheck<T> =
  | { readonly ok: true; readonly payload: T; readonly cleared: string }
  | { readonly ok: false; readonly reason: FormRefusal; readonly why: string };

/** An issued form: the hidden field's value and the `Set-Cookie` value that goes with it. */
export interface IssuedForm {
  readonly field: string;
  readonly cookie: string;
}

/** Options of a {@linkcode FormGuard}. */
export interface FormGuardOptions<T> {
  readonly secrets: AuthSecrets;
  /** Whose HMAC key signs the form (one per kind of form: no form's field passes as another's). */
  readonly purpose: SignPurpose;
  readonly store: AuthStore;
  readonly clock: Clock;
  /** This server's origin (`PRIORY_PUBLIC_URL`): the only `Origin` an answer may name. */
  readonly origin: string;
  /** The path the form posts to: on loopback http the cookie is scoped to it. */
  readonly path: string;
  /** Distinguishes this form's cookies from other forms' (`priory_<name>_...`). */
  readonly name: string;
  /** How long a form may be answered. */
  readonly ttlMs: number;
  /** Checks a payload read back (a signed payload is still checked: it may come from an older release). */
  readonly schema: z.ZodType<T>;
}

interface Envelope {
  readonly p: unknown;
  readonly nonce: string;
  readonly csrf: string;
  readonly exp: number;
}

/** The longest hidden field accepted. */
const MAX_FIELD = 20_000;

/** Issues and checks one kind of form. */
export class FormGuard<T> {
  readonly #options: FormGuardOptions<T>;
  readonly #secure: boolean;

  /** @param options secrets, store, clock, origin, path, name, lifetime and payload schema */
  constructor(options: FormGuardOptions<T>) {
    this.#options = options;
    this.#secure = options.origin.startsWith("https:");
  }

  /** A fresh form carrying `payload`. */
  async issue(payload: T): Promise<IssuedForm> {
    const envelope: Envelope = {
      p: payload,
      nonce: randomId(18),
      csrf: randomId(),
      exp: this.#options.clock.now() + this.#options.ttlMs,
    };
    const field = await this.#options.secrets.sign(
      this.#options.purpose,
      Buffer.from(JSON.stringify(envelope)).toString("base64url"),
    );
    return {
      field,
      cookie: this.#cookie(envelope.nonce, envelope.csrf, this.#options.ttlMs / 1000),
    };
  }

  /** Checks an answer: its request (origin, cookie) and its form (`field` is the hidden value). */
  async check(request: Request, field: string | null): Promise<FormCheck<T>> {
    const origin = request.headers.get("origin");
    // "null" says nothing (some privacy settings send it); the cookie check still holds.
    if (origin !== null && origin !== "null" && origin !== this.#options.origin) {
      return refused("forged", "origin");
    }
    const envelope = await this.#read(field);
    if (envelope === undefined) return refused("forged", "signature");
    if (this.#options.clock.now() > envelope.exp) return refused("expired", "expired");
    const payload = this.#options.schema.safeParse(envelope.p);
    if (!payload.success) return refused("forged", "payload");
    const nonceKey = `${this.#options.name}:${envelope.nonce}`;
    const cookie = cookiesOf(request).get(this.#cookieName(envelope.nonce));
    if (cookie === undefined || !sameText(cookie, envelope.csrf)) {
      return (await this.#options.store.nonceUsed(nonceKey))
        ? refused("used", "sent again")
        : refused("forged", "csrf cookie");
    }
    if (!(await this.#options.store.useNonce(nonceKey, this.#options.ttlMs * 2))) {
      return refused("used", "replayed");
    }
    return { ok: true, payload: payload.data, cleared: this.#cookie(envelope.nonce, "", 0) };
  }

  async #read(field: string | null): Promise<Envelope | undefined> {
    if (field === null || field.length > MAX_FIELD) return undefined;
    const signed = await this.#options.secrets.unsign(this.#options.purpose, field);
    if (signed === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(Buffer.from(signed, "base64url").toString("utf8"));
      if (typeof value !== "object" || value === null) return undefined;
      const nonce: unknown = Reflect.get(value, "nonce");
      const csrf: unknown = Reflect.get(value, "csrf");
      const exp: unknown = Reflect.get(value, "exp");
      return typeof nonce === "string" && typeof csrf === "string" && typeof exp === "number"
        ? { p: Reflect.get(value, "p"), nonce, csrf, exp }
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** One cookie per form, so two tabs do not overwrite each other's. */
  #cookieName(nonce: string): string {
    return `${this.#secure ? "__Host-" : ""}priory_${this.#options.name}_${nonce.slice(0, 12)}`;
  }

  /**
   * The `Set-Cookie` value (`maxAgeS` 0 clears it): on https `Secure` with `Path=/` (as `__Host-`
   * requires, no `Domain`), on loopback http scoped to the form's path.
   */
  #cookie(nonce: string, value: string, maxAgeS: number): string {
    const scope = this.#secure ? "Path=/" : `Path=${this.#options.path}`;
    return `${
      this.#cookieName(nonce)
    }=${value}; ${scope}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${
      this.#secure ? "; Secure" : ""
    }`;
  }
}

function refused(
  reason: FormRefusal,
  why: string,
): { ok: false; reason: FormRefusal; why: string } {
  return { ok: false, reason, why };
}
