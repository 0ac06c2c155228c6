/**
 * The sign-out page (`/signout`): one form asking for a GW2 API key of the account, whose every
 * sign-in on this server then ends, and what came of it - how many sign-ins ended, or why none
 * could. In the player's language and the pages' style, no script; the form is the consent
 * page's kind (a signed hidden field, a cookie, one POST). Pure.
 *
 * @module
 */

import type { OperatorConfig } from "../config.ts";
import { keyLink } from "./consent_page.ts";
import { CONSENT_TEXT, type ConsentLanguage, type ConsentText } from "./consent_text.ts";
import { AUTH_PATHS } from "./metadata.ts";
import { escapeHtml, fill, htmlDocument, operatorLine } from "./page_html.ts";
import { PAGE_TEXT, type PageText } from "./page_text.ts";

/** What went wrong with an answer, shown above a fresh form. */
export type SignOutNotice =
  | "keyMissing"
  | "keyMalformed"
  | "keyRejected"
  | "keyUnchecked"
  | "limited"
  | "expired"
  | "used"
  | "forged";

/** The sign-out page: a form (`field`), or the outcome (`done`). */
export interface SignOutView {
  readonly lang: ConsentLanguage;
  /** The signed hidden field of a fresh form; absent once signed out. */
  readonly field?: string;
  readonly notice?: SignOutNotice;
  /** The outcome: the account (as GW2 names it) and how many sign-ins ended. */
  readonly done?: { readonly account: string; readonly ended: number };
  readonly operator?: OperatorConfig;
  /** Whether players may have signed in with gw2.me. */
  readonly gw2me: boolean;
}

/**
 * The sign-out page.
 *
 * @example
 * ```ts
 * signOutPage({ lang: "en", field: issued.field, gw2me: false });
 * ```
 */
export function signOutPage(view: SignOutView): string {
  const text = PAGE_TEXT[view.lang];
  const consent = CONSENT_TEXT[view.lang];
  const link = keyLink(consent);
  const form = view.field === undefined ? [] : [
    `<form method="post" action="${AUTH_PATHS.signout}">`,
    `<input type="hidden" name="request" value="${escapeHtml(view.field)}">`,
    `<label for="gw2_key">${escapeHtml(text.signoutKeyLabel)}</label>`,
    '<input id="gw2_key" name="gw2_key" type="password" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="2000">',
    `<p>${fill(escapeHtml(text.signoutKeyHelp), { link })}</p>`,
    view.gw2me ? `<p class="muted">${escapeHtml(text.signoutGw2me)}</p>` : "",
    '<div class="actions">',
    `<button type="submit" class="allow">${escapeHtml(text.signoutButton)}</button>`,
    "</div>",
    "</form>",
  ];
  return htmlDocument({
    lang: view.lang,
    title: text.signoutTitle,
    kind: "signout",
    body: [
      `<h1>${escapeHtml(text.signoutTitle)}</h1>`,
      view.done === undefined
        ? `<p>${escapeHtml(text.signoutLead)}</p>`
        : doneHtml(text, view.done),
      view.notice === undefined
        ? ""
        : `<p class="notice notice-error" role="alert">${
          noticeHtml(text, consent, view.notice, link)
        }</p>`,
      ...form,
      `<p><a href="${AUTH_PATHS.front}">${escapeHtml(text.aboutLink)}</a></p>`,
      `<p class="muted foot">${escapeHtml(consent.footer)}</p>`,
      operatorLine(text, view.operator),
    ],
  });
}

function doneHtml(text: PageText, done: { account: string; ended: number }): string {
  const words = done.ended === 0
    ? text.signoutDoneNone
    : done.ended === 1
    ? text.signoutDoneOne
    : text.signoutDoneMany;
  const html = fill(escapeHtml(words), {
    account: `<bdi class="account">${escapeHtml(done.account)}</bdi>`,
    count: `<span class="ended">${done.ended}</span>`,
  });
  return `<p class="notice notice-ok" role="status">${html}</p>`;
}

function noticeHtml(
  text: PageText,
  consent: ConsentText,
  notice: SignOutNotice,
  link: string,
): string {
  switch (notice) {
    case "keyMalformed":
    case "keyRejected":
      return fill(escapeHtml(consent[notice]), { link });
    case "keyMissing":
      return escapeHtml(text.signoutKeyMissing);
    case "keyUnchecked":
      return escapeHtml(text.signoutUnchecked);
    case "limited":
      return escapeHtml(text.signoutLimited);
    case "expired":
      return escapeHtml(text.signoutExpired);
    case "used":
      return escapeHtml(text.signoutUsed);
    case "forged":
      return escapeHtml(text.signoutForged);
  }
}
