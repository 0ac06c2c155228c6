/**
 * What every page of the public server shares - the consent page, the front page, the sign-out
 * page: the document around a body (the views' stylesheet and the pages' own, nothing fetched,
 * no script, a phone's viewport), escaping at the one place text becomes HTML, the filling of
 * `{name}` placeholders, and the line naming who runs the server. Pure.
 *
 * @module
 */

import type { OperatorConfig } from "../config.ts";
import { VIEW_CSS } from "../views/style.ts";

/** The pages' own stylesheet, over the views'. */
const PAGE_CSS = String.raw`
body { padding: 16px; }
main.page { max-width: 560px; margin: 0 auto; }
.page h1 { font-size: 22px; margin: 4px 0 12px; }
.page h2 { margin: 18px 0 6px; }
.page p { margin: 8px 0; }
.notice { border: 1px solid var(--line); border-radius: var(--radius); padding: 8px 10px; background: var(--bg-2); }
.notice-error { border-color: var(--bad); color: var(--bad); }
.notice-warn { border-color: var(--warn); color: var(--warn); }
.notice-ok { border-color: var(--good); color: var(--good); }
label { display: block; font-weight: 600; margin: 14px 0 4px; }
input[type=password] {
  width: 100%; font: 15px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; padding: 10px;
  border: 1px solid var(--line); border-radius: var(--radius); background: var(--bg); color: var(--fg);
}
input[type=password]:focus { border-color: var(--accent); }
a { color: var(--accent); }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.grid { margin-top: 4px; table-layout: fixed; }
.grid th, .grid td { overflow-wrap: anywhere; }
.grid th:first-child, .grid td:first-child { width: 62%; }
.actions { display: flex; gap: 10px; margin: 18px 0 8px; flex-wrap: wrap; }
.actions button {
  flex: 1 1 140px; min-height: 44px; font-size: 16px; font-weight: 600; border-radius: var(--radius);
  border: 1px solid var(--line); background: var(--bg-2); cursor: pointer;
}
.actions button.allow { background: var(--accent); border-color: var(--accent); color: #fff; }
.foot { font-size: 12px; margin-top: 16px; }
`;

/** A page: its language, title, body lines (empty ones dropped) and any stylesheet of its own. */
export interface PageDocument {
  readonly lang: string;
  /** Plain text: escaped here. */
  readonly title: string;
  /** HTML, already escaped where it holds text. */
  readonly body: readonly string[];
  /** The class of `<main>` besides `page` (its own stylesheet's hook). */
  readonly kind: string;
  readonly css?: string;
  /** Markup added to the head (the done page's `<meta http-equiv="refresh">`). */
  readonly head?: string;
}

/**
 * The whole HTML document of a page.
 *
 * @example
 * ```ts
 * htmlDocument({ lang: "en", title: "Sign out", kind: "signout", body: ["<h1>Sign out</h1>"] });
 * ```
 */
export function htmlDocument(page: PageDocument): string {
  return [
    "<!doctype html>",
    `<html lang="${escapeHtml(page.lang)}">`,
    "<head>",
    '<meta charset="utf-8">',
    ...(page.head === undefined ? [] : [page.head]),
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="same-origin">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>${VIEW_CSS}${PAGE_CSS}${page.css ?? ""}</style>`,
    "</head>",
    "<body>",
    `<main class="page ${escapeHtml(page.kind)}">`,
    ...page.body.filter((line) => line !== ""),
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** How the operator line is worded in one language. */
export interface OperatorWords {
  /** "Run by {name}". */
  readonly runBy: string;
  /** The contact link's text. */
  readonly contact: string;
}

/**
 * The footer line naming who runs the server (`PRIORY_OPERATOR`, `PRIORY_OPERATOR_URL`), or ""
 * when the operator named neither. The name is isolated (`<bdi>`) so a right-to-left one cannot
 * reorder the sentence around it.
 */
export function operatorLine(words: OperatorWords, operator: OperatorConfig | undefined): string {
  if (operator === undefined) return "";
  const parts = [
    operator.name === undefined
      ? ""
      : fill(escapeHtml(words.runBy), { name: `<bdi>${escapeHtml(operator.name)}</bdi>` }),
    operator.url === undefined
      ? ""
      : `<a href="${escapeHtml(operator.url)}" rel="noopener noreferrer">${
        escapeHtml(words.contact)
      }</a>`,
  ].filter((part) => part !== "");
  return `<p class="muted foot operator">${parts.join(" \u00b7 ")}</p>`;
}

/** Fills `{name}` placeholders of already-escaped text with already-escaped HTML. */
export function fill(escaped: string, parts: Readonly<Record<string, string>>): string {
  return escaped.replace(/\{(\w+)\}/g, (whole, name: string) => parts[name] ?? whole);
}

/**
 * `value` safe as HTML text and as a quoted attribute value.
 *
 * @example
 * ```ts
 * escapeHtml('<b onclick="x">'); // "&lt;b onclick=&quot;x&quot;&gt;"
 * ```
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
