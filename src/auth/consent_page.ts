/**
 * The consent page a player sees when their chat app sends them to sign in, the page that says
 * why a sign-in cannot go on, and the page shown after Allow when the answer goes to an app's own
 * link (`cursor://...`), which a browser hands to the app and otherwise leaves the page as it was.
 * Self-contained HTML in the pages' style (`page_html.ts`: nothing fetched, no script), readable
 * on a phone, in the player's language. Every string a client chose (its name, its redirect) and
 * every text with a placeholder is escaped here, at the one place it becomes HTML, and set in a
 * `<bdi>` so a right-to-left name cannot reorder the sentence around it. The form: one
 * `<form method="post">` with the signed request in a hidden field, the key field `gw2_key`, and
 * the buttons `decision=allow|deny` (and `gw2me` when the sign-in with gw2.me is offered). Pure.
 *
 * @module
 */

import type { OperatorConfig } from "../config.ts";
import {
  CONSENT_TEXT,
  type ConsentLanguage,
  type ConsentText,
  TOOL_FAMILIES,
} from "./consent_text.ts";
import type { KeyRefusal } from "./key_check.ts";
import { AUTH_PATHS } from "./metadata.ts";
import { escapeHtml, fill, htmlDocument, operatorLine } from "./page_html.ts";
import { PAGE_TEXT, type PageText } from "./page_text.ts";
import { isLocalRedirect, redirectTarget } from "./redirect.ts";

/** Where players create GW2 API keys. */
export const KEY_PAGE_URL = "https://account.arena.net/applications";

/** A message above the form, after a first answer could not be used. */
export type ConsentNotice =
  | {
    readonly kind: KeyRefusal | "tooManySignIns";
    /** When a limit said when to come back. */
    readonly retryAfterMs?: number;
  }
  | { readonly kind: "missingPerms"; readonly missing: readonly string[] }
  | { readonly kind: Gw2meNotice };

/** Why a sign-in with gw2.me came back without one (the words are in `page_text.ts`). */
export type Gw2meNotice = "gw2meDenied" | "gw2meFailed" | "gw2meNoAccount";

/** What the consent page shows. */
export interface ConsentView {
  readonly lang: ConsentLanguage;
  /** The client's self-given name (cleaned, not yet escaped), if it gave one. */
  readonly clientName?: string;
  /**
   * Where a metadata-document client's description was fetched from (its host): the one part of
   * its identity that is checked.
   */
  readonly clientDomain?: string;
  /** Where the answer goes. */
  readonly redirectUri: string;
  /** The signed request, for the hidden field. */
  readonly request: string;
  readonly notice?: ConsentNotice;
  /** Whether to offer signing in with gw2.me (a third button, `decision=gw2me`). */
  readonly gw2me?: boolean;
  /** Who runs the server, for the footer. */
  readonly operator?: OperatorConfig;
}

const CONSENT_CSS = String.raw`
.app { font-weight: 600; overflow-wrap: anywhere; }
.target { font-weight: 600; overflow-wrap: anywhere; }
.kept { font-weight: 500; }
.chip { display: inline-block; margin-left: 4px; }
.gw2me { border-top: 1px solid var(--line); margin-top: 14px; padding-top: 6px; }
`;

/**
 * The consent page.
 *
 * @example
 * ```ts
 * const html = consentPage({ lang: "en", clientName: "Claude", redirectUri, request });
 * ```
 */
export function consentPage(view: ConsentView): string {
  const text = CONSENT_TEXT[view.lang];
  const target = redirectTarget(view.redirectUri);
  const app = isolated("app", view.clientName ?? text.unnamed);
  const lead = fill(escapeHtml(text.lead), {
    app: `${app} <span class="chip">${escapeHtml(text.unverified)}</span>`,
  });
  const targetHtml = isolated("target", target);
  const body = [
    `<h1>${escapeHtml(text.title)}</h1>`,
    `<p>${lead}</p>`,
    view.clientDomain === undefined
      ? ""
      : `<p>${
        fill(escapeHtml(text.verifiedDomain), { domain: isolated("target", view.clientDomain) })
      }</p>`,
    `<p>${fill(escapeHtml(text.returnTo), { target: targetHtml })}</p>`,
    isLocalRedirect(view.redirectUri)
      ? `<p class="notice notice-warn">${
        fill(escapeHtml(text.returnLocal), { target: targetHtml })
      }</p>`
      : "",
    view.notice === undefined ? "" : noticeHtml(view.lang, view.notice),
    `<form method="post" action="${AUTH_PATHS.authorize}">`,
    `<input type="hidden" name="request" value="${escapeHtml(view.request)}">`,
    `<label for="gw2_key">${escapeHtml(text.keyLabel)}</label>`,
    '<input id="gw2_key" name="gw2_key" type="password" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="2000">',
    `<p>${fill(escapeHtml(text.keyHelp), { link: keyLink(text) })}</p>`,
    // What happens to the key is the sentence a player most needs: plain text, not faint.
    `<p class="kept">${escapeHtml(text.keptHow)}</p>`,
    `<h2>${escapeHtml(text.permsTitle)}</h2>`,
    permissionsTable(text),
    '<div class="actions">',
    `<button type="submit" name="decision" value="allow" class="allow">${
      escapeHtml(text.allow)
    }</button>`,
    `<button type="submit" name="decision" value="deny">${escapeHtml(text.deny)}</button>`,
    "</div>",
    // After Allow and Deny: the form's first button is what Enter in the key field presses.
    view.gw2me === true ? gw2meHtml(PAGE_TEXT[view.lang]) : "",
    "</form>",
    `<p class="muted foot">${escapeHtml(text.footer)}</p>`,
    operatorLine(PAGE_TEXT[view.lang], view.operator),
  ];
  return page(view.lang, text.title, body);
}

/** What the page after Allow shows when the answer goes to an app's own link. */
export interface DoneView {
  readonly lang: ConsentLanguage;
  /** The client's self-given name (cleaned, not yet escaped), if it gave one. */
  readonly clientName?: string;
  /** The redirect URI with the answer (`code`, `state`, `iss`): where the browser goes. */
  readonly answerUrl: string;
}

/**
 * The page after Allow for an app-link redirect: it sends the browser on to the app at once
 * (`<meta http-equiv="refresh">`, no script), and says the tab may be closed once the app has
 * opened - with a link for a browser that did not follow.
 */
export function donePage(view: DoneView): string {
  const text = CONSENT_TEXT[view.lang];
  const target = isolated("target", redirectTarget(view.answerUrl));
  const app = isolated("app", view.clientName ?? text.theApp);
  return page(view.lang, text.doneTitle, [
    `<h1>${escapeHtml(text.doneTitle)}</h1>`,
    `<p class="notice" role="status">${fill(escapeHtml(text.doneApp), { target, app })}</p>`,
    `<p><a href="${escapeHtml(view.answerUrl)}" rel="noreferrer">${
      fill(escapeHtml(text.doneLink), { target })
    }</a></p>`,
    `<p class="muted foot">${escapeHtml(text.footer)}</p>`,
  ], `<meta http-equiv="refresh" content="0; url=${escapeHtml(view.answerUrl)}">`);
}

/** A link back to the app with an error, for the player to follow knowingly. */
export interface BackLink {
  readonly url: string;
  readonly target: string;
}

/** Why a sign-in stops: which of the texts, and an escaped-here detail where the text has one. */
export type StopReason =
  | "unknownClient"
  | "badRedirect"
  | "used"
  | "forged"
  | "clientDocument"
  | { readonly kind: "expired"; readonly back?: BackLink }
  | { readonly kind: "badRequest"; readonly detail: string; readonly back?: BackLink };

/**
 * The page that says why a sign-in cannot go on (nothing is redirected anywhere): a link back to
 * the app where one is known, and always one to this server's front page, which says how to add
 * it again.
 */
export function stopPage(lang: ConsentLanguage, reason: StopReason): string {
  const text = CONSENT_TEXT[lang];
  const kind = typeof reason === "string" ? reason : reason.kind;
  const detail = typeof reason === "object" && "detail" in reason ? reason.detail : "";
  const message = fill(escapeHtml(text[kind]), { detail: escapeHtml(detail) });
  const back = typeof reason === "string" ? undefined : reason.back;
  return page(lang, text.stopTitle, [
    `<h1>${escapeHtml(text.stopTitle)}</h1>`,
    `<p class="notice notice-error" role="alert">${message}</p>`,
    back === undefined
      ? ""
      : `<p><a href="${escapeHtml(back.url)}" rel="noreferrer">${
        fill(escapeHtml(text.backTo), { target: isolated("target", back.target) })
      }</a></p>`,
    `<p><a href="/">${escapeHtml(text.home)}</a></p>`,
    `<p class="muted foot">${escapeHtml(text.footer)}</p>`,
  ]);
}

/** A client-chosen or client-derived string as HTML: escaped, isolated for bidirectional text. */
function isolated(className: "app" | "target", value: string): string {
  return `<bdi class="${className}">${escapeHtml(value)}</bdi>`;
}

function isGw2meNotice(notice: ConsentNotice): notice is { readonly kind: Gw2meNotice } {
  return notice.kind === "gw2meDenied" || notice.kind === "gw2meFailed" ||
    notice.kind === "gw2meNoAccount";
}

function gw2meHtml(words: PageText): string {
  return [
    '<div class="gw2me">',
    `<p>${escapeHtml(words.gw2meOr)}</p>`,
    '<div class="actions">',
    `<button type="submit" name="decision" value="gw2me">${escapeHtml(words.gw2meButton)}</button>`,
    "</div>",
    `<p class="muted">${escapeHtml(words.gw2meNote)}</p>`,
    "</div>",
  ].join("");
}

function noticeHtml(lang: ConsentLanguage, notice: ConsentNotice): string {
  const text = CONSENT_TEXT[lang];
  const link = keyLink(text);
  if (isGw2meNotice(notice)) {
    return `<p class="notice notice-error" role="alert">${
      escapeHtml(PAGE_TEXT[lang][notice.kind])
    }</p>`;
  }
  if (notice.kind !== "missingPerms") {
    const minutes = String(Math.max(1, Math.ceil((notice.retryAfterMs ?? 60_000) / 60_000)));
    return `<p class="notice notice-error" role="alert">${
      fill(escapeHtml(text[notice.kind]), { link, minutes })
    }</p>`;
  }
  // Only the tools that cannot work without a missing permission: an optional one (progression,
  // for detail) breaks nothing.
  const tools = TOOL_FAMILIES.filter((family) =>
    family.needs.some((need) => notice.missing.includes(need))
  ).map((family) => text.families[family.id]);
  return `<p class="notice notice-warn" role="alert">${
    fill(escapeHtml(text.missingPerms), {
      perms: escapeHtml(notice.missing.join(", ")),
      tools: escapeHtml(tools.join("; ")),
      link,
    })
  }</p>`;
}

/** The table of which key permissions each family of tools needs (the front page shows it too). */
export function permissionsTable(text: ConsentText): string {
  const rows = TOOL_FAMILIES.map((family) => {
    const needs = family.needs.length === 0 ? text.none : family.needs.join(", ");
    const optional = family.optional === undefined
      ? ""
      : ` <span class="muted">(+ ${family.optional.join(", ")}, ${text.optional})</span>`;
    return `<tr><td>${escapeHtml(text.families[family.id])}</td><td>${
      escapeHtml(needs)
    }${optional}</td></tr>`;
  });
  return [
    '<table class="grid">',
    `<thead><tr><th>${escapeHtml(text.familyHead)}</th><th>${
      escapeHtml(text.permsHead)
    }</th></tr></thead>`,
    `<tbody>${rows.join("")}</tbody>`,
    "</table>",
  ].join("");
}

/** The link to ArenaNet's key page, in a new tab. */
export function keyLink(text: ConsentText): string {
  return `<a href="${KEY_PAGE_URL}" target="_blank" rel="noopener noreferrer">${
    escapeHtml(text.keyPage)
  }</a>`;
}

function page(
  lang: ConsentLanguage,
  title: string,
  body: readonly string[],
  head = "",
): string {
  return htmlDocument({
    lang,
    title,
    body,
    kind: "consent",
    css: CONSENT_CSS,
    ...(head === "" ? {} : { head }),
  });
}
