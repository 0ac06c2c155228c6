/**
 * The sign-out endpoint: `GET /signout` shows the form, `POST /signout` takes a GW2 API key of
 * the account, learns whose account it is (`/v2/account`, through the same key-check gate as the
 * consent page: its limits per address and in total, its memory of rejected keys) and ends every
 * grant of that account - their sealed keys with them, and the gw2.me side of a gw2.me sign-in.
 * The key is used for that one check and never stored. The form is guarded as the consent page's
 * is (`form_guard.ts`): a forged, foreign, expired or replayed POST ends nothing, and gets a
 * fresh form with the reason.
 *
 * @module
 */

import { z } from "zod";
import type { OperatorConfig } from "../config.ts";
import type { Logger } from "../log.ts";
import { type ConsentLanguage, pickLanguage } from "./consent_text.ts";
import type { FormGuard } from "./form_guard.ts";
import type { KeyCheck } from "./key_check.ts";
import { htmlPage, pageHeaders } from "./responses.ts";
import { type SignOutNotice, signOutPage } from "./signout_page.ts";

/** The sign-out form's signed payload: it names its form, so no other form's field passes. */
export const SignOutFormSchema: z.ZodType<{ readonly form: "signout" }> = z.object({
  form: z.literal("signout"),
});

/** Whose account a key is, as the key-check gate answers. */
export type AccountOf =
  | { readonly ok: true; readonly account: string }
  | {
    readonly ok: false;
    readonly reason: "keyMissing" | "keyMalformed" | "keyRejected" | "keyUnchecked" | "limited";
    /** With `limited`: when to try again. */
    readonly retryAfterS?: number;
  };

/**
 * The sign-out's reading of a key check: the account, or why not (the gate's limits are one
 * reason here, "too many tries", with when to try again).
 */
export function accountOfCheck(check: KeyCheck): AccountOf {
  if (check.ok) return { ok: true, account: check.account };
  if (check.reason === "tooManyChecks" || check.reason === "checksBusy") {
    return {
      ok: false,
      reason: "limited",
      retryAfterS: Math.max(1, Math.ceil((check.retryAfterMs ?? 60_000) / 1000)),
    };
  }
  return { ok: false, reason: check.reason };
}

/** What the endpoint needs. */
export interface SignOutDeps {
  readonly forms: FormGuard<{ readonly form: "signout" }>;
  /** The account of `key` (`/v2/account`), through the key-check gate, for `clientAddress`. */
  accountOf(key: string, clientAddress: string): Promise<AccountOf>;
  /** Ends every grant of the GW2 account named `account`; how many ended. */
  endAccountGrants(account: string): Promise<number>;
  readonly operator?: OperatorConfig;
  /** Whether the gw2.me sign-in is offered (the page then says how those sign-ins end). */
  readonly gw2me: boolean;
  readonly log: Logger;
}

/** `/signout`. */
export class SignOutEndpoint {
  readonly #deps: SignOutDeps;

  /** @param deps the form guard, the key check, the end of an account's grants, the logger */
  constructor(deps: SignOutDeps) {
    this.#deps = deps;
  }

  /** `GET /signout`: a fresh form. */
  async show(request: Request): Promise<Response> {
    const lang = pickLanguage(request.headers.get("accept-language"));
    return await this.#form(lang, 200);
  }

  /**
   * `POST /signout`: `body` is the bounded form body; `clientAddress` the sender's address, which
   * the key check's limits count by.
   */
  async answer(request: Request, body: Uint8Array, clientAddress: string): Promise<Response> {
    const lang = pickLanguage(request.headers.get("accept-language"));
    const type = request.headers.get("content-type") ?? "";
    if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
      return await this.#refuse(lang, 400, "forged", "content type");
    }
    const form = new URLSearchParams(new TextDecoder().decode(body));
    const checked = await this.#deps.forms.check(request, form.get("request"));
    if (!checked.ok) {
      return await this.#refuse(
        lang,
        checked.reason === "forged" ? 403 : 400,
        checked.reason,
        checked.why,
      );
    }
    const cleared = [checked.cleared];
    const key = (form.get("gw2_key") ?? "").trim();
    const account = await this.#deps.accountOf(key, clientAddress);
    if (!account.ok) {
      this.#deps.log.info("auth signout refused", { reason: account.reason });
      const status = account.reason === "limited" ? 429 : 400;
      const retry = account.retryAfterS === undefined
        ? {}
        : { "retry-after": String(account.retryAfterS) };
      return await this.#form(lang, status, account.reason, cleared, retry);
    }
    const ended = await this.#deps.endAccountGrants(account.account);
    this.#deps.log.info("auth signout", { ended });
    const headers = this.#headers(lang, cleared);
    const html = signOutPage({
      lang,
      done: { account: account.account, ended },
      gw2me: this.#deps.gw2me,
      ...(this.#deps.operator === undefined ? {} : { operator: this.#deps.operator }),
    });
    return htmlPage(200, html, headers);
  }

  async #refuse(
    lang: ConsentLanguage,
    status: number,
    notice: SignOutNotice,
    why: string,
  ): Promise<Response> {
    this.#deps.log.info("auth signout refused", { reason: why });
    return await this.#form(lang, status, notice);
  }

  /** The page with a fresh form (and its cookie), after `notice` if any. */
  async #form(
    lang: ConsentLanguage,
    status: number,
    notice?: SignOutNotice,
    cookies: readonly string[] = [],
    extra: Readonly<Record<string, string>> = {},
  ): Promise<Response> {
    const issued = await this.#deps.forms.issue({ form: "signout" });
    const headers = this.#headers(lang, [...cookies, issued.cookie]);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    const html = signOutPage({
      lang,
      field: issued.field,
      gw2me: this.#deps.gw2me,
      ...(notice === undefined ? {} : { notice }),
      ...(this.#deps.operator === undefined ? {} : { operator: this.#deps.operator }),
    });
    return htmlPage(status, html, headers);
  }

  #headers(lang: ConsentLanguage, cookies: readonly string[]): Headers {
    const headers = pageHeaders("'self'", lang);
    for (const cookie of cookies) headers.append("set-cookie", cookie);
    return headers;
  }
}
