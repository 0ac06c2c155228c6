/**
 * The public server's front page (`GET /`): what the server is, the address to add and how in
 * each app, which key permissions the tools use (the consent page's own table), what is stored,
 * and where to sign out - in the player's language, in the pages' style, no script. Pure.
 *
 * @module
 */

import type { OperatorConfig } from "../config.ts";
import { keyLink, permissionsTable } from "./consent_page.ts";
import { CONSENT_TEXT, type ConsentLanguage } from "./consent_text.ts";
import { AUTH_PATHS } from "./metadata.ts";
import { escapeHtml, fill, htmlDocument, operatorLine } from "./page_html.ts";
import { type HostId, HOSTS, PAGE_TEXT } from "./page_text.ts";

/** What the front page shows. */
export interface FrontView {
  readonly lang: ConsentLanguage;
  /** The MCP endpoint players add (`<PRIORY_PUBLIC_URL>/mcp`). */
  readonly resource: string;
  readonly operator?: OperatorConfig;
  /** Whether the consent page offers the gw2.me sign-in. */
  readonly gw2me: boolean;
}

const FRONT_CSS = String.raw`
.lead { font-size: 15px; }
.address { background: var(--bg-2); border: 1px solid var(--line); border-radius: var(--radius); padding: 10px; }
.address code { font-size: 15px; user-select: all; }
.hosts dt { font-weight: 600; margin-top: 12px; }
.hosts dd { margin: 2px 0 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--bg-2); border-radius: var(--radius); padding: 8px 10px; margin: 6px 0 0; }
`;

/**
 * The front page.
 *
 * @example
 * ```ts
 * frontPage({ lang: "en", resource: "https://priory.example/mcp", gw2me: false });
 * ```
 */
export function frontPage(view: FrontView): string {
  const text = PAGE_TEXT[view.lang];
  const consent = CONSENT_TEXT[view.lang];
  const address = escapeHtml(view.resource);
  const hosts = HOSTS.map(({ id, name }) =>
    `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(text.hosts[id])}${
      snippet(id, view.resource)
    }</dd>`
  );
  return htmlDocument({
    lang: view.lang,
    title: text.frontTitle,
    kind: "front",
    css: FRONT_CSS,
    body: [
      "<h1>Priory MCP</h1>",
      `<p class="lead">${escapeHtml(text.frontLead)}</p>`,
      `<h2>${escapeHtml(text.addTitle)}</h2>`,
      `<p>${escapeHtml(text.addressLabel)}</p>`,
      `<p class="address"><code>${address}</code></p>`,
      `<dl class="hosts">${hosts.join("")}</dl>`,
      `<h2>${escapeHtml(text.signInTitle)}</h2>`,
      `<p>${fill(escapeHtml(text.signIn), { link: keyLink(consent) })}</p>`,
      view.gw2me ? `<p>${escapeHtml(text.signInGw2me)} ${escapeHtml(text.gw2meNote)}</p>` : "",
      `<h2>${escapeHtml(consent.permsTitle)}</h2>`,
      permissionsTable(consent),
      `<h2>${escapeHtml(text.storedTitle)}</h2>`,
      `<p>${escapeHtml(text.stored)}</p>`,
      view.gw2me ? `<p>${escapeHtml(text.storedGw2me)}</p>` : "",
      `<p>${escapeHtml(text.storedEnds)}</p>`,
      `<h2>${escapeHtml(text.signOutTitle)}</h2>`,
      `<p>${
        fill(escapeHtml(text.signOutLead), {
          link: `<a href="${AUTH_PATHS.signout}">${escapeHtml(text.signOutLink)}</a>`,
        })
      }</p>`,
      `<p class="muted foot">${escapeHtml(consent.footer)}</p>`,
      operatorLine(text, view.operator),
    ],
  });
}

/** The configuration or command that adds the server in `host`, if it has one. */
function snippet(host: HostId, resource: string): string {
  const code = (value: string) => `<pre><code>${escapeHtml(value)}</code></pre>`;
  switch (host) {
    case "vscode":
      return code(
        JSON.stringify({ servers: { priory: { type: "http", url: resource } } }, null, 2),
      );
    case "cursor":
      return code(JSON.stringify({ mcpServers: { priory: { url: resource } } }, null, 2));
    case "claudeCode":
      return code(`claude mcp add --transport http priory ${resource}`);
    default:
      return "";
  }
}
