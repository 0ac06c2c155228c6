/**
 * Assembles a view document: one self-contained HTML page (the stylesheet and every script
 * inline; nothing fetched: hosts run views under a Content Security Policy that, by default,
 * allows no network origin at all), which starts the protocol client and renders each tool
 * result the host hands it.
 *
 * @module
 */

import { VIEW_CLIENT_JS } from "./client.ts";
import { VIEW_DOM_JS } from "./dom.ts";
import { VIEW_LABELS_JS } from "./labels.ts";
import { VIEW_CSS } from "./style.ts";

/** What makes one view document. */
export interface ViewDocumentParts {
  /** The page title. */
  readonly title: string;
  /** The `appInfo.name` the view announces in `ui/initialize`. */
  readonly appName: string;
  /** Renderer scripts, in order, after the client and the DOM helpers. */
  readonly scripts: readonly string[];
  /** The global whose `render(data, container)` draws a tool result, e.g. `PrioryTree`. */
  readonly renderer: string;
}

/**
 * The entry script: connect to the host, show progress on the tool input, draw the result (or
 * its error text), and report a rendering failure to the host's log.
 */
function entryScript(appName: string, renderer: string): string {
  return String.raw`
(function () {
  "use strict";
  var app = document.getElementById("app");
  function status(text, isError) {
    PrioryDom.clear(app).appendChild(PrioryDom.el("p", { class: "status" + (isError ? " status-error" : ""), role: "status", text: text }));
  }
  // The language of the call's lang when it has one (the view then follows the tool's names);
  // else the host's locale, when it is one of GW2's five.
  var chosen = false;
  PrioryView.start(${JSON.stringify(appName)}, {
    context: function (context) { if (!chosen && context) PrioryLabels.use(context.locale); },
    input: function (params) {
      var args = params && params.arguments;
      if (args && PrioryLabels.use(args.lang)) chosen = true;
      status(PrioryLabels.t("working"));
    },
    result: function (result) {
      var answer = PrioryView.resultData(result);
      if (answer.error) { status(answer.error, true); return; }
      try {
        ${renderer}.render(answer.data, app);
      } catch (error) {
        status(PrioryLabels.t("cannotDraw", error && error.message ? error.message : error), true);
        PrioryView.reportError(error);
      }
    },
    cancelled: function (params) { status(params.reason ? PrioryLabels.t("cancelledBecause", params.reason) : PrioryLabels.t("cancelled") + ".", true); }
  });
})();
`;
}

/**
 * The HTML of one view.
 *
 * @example
 * ```ts
 * viewDocument({ title: "Recipe tree", appName: "priory-recipe-tree", scripts: [TREE_RENDER_JS], renderer: "PrioryTree" });
 * ```
 */
export function viewDocument(parts: ViewDocumentParts): string {
  const scripts = [
    VIEW_LABELS_JS,
    VIEW_CLIENT_JS,
    VIEW_DOM_JS,
    ...parts.scripts,
    entryScript(parts.appName, parts.renderer),
  ];
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${parts.title}</title>`,
    `<style>${VIEW_CSS}</style>`,
    "</head>",
    "<body>",
    '<main id="app"><p class="status" role="status">Waiting for the tool result\u2026</p></main>',
    ...scripts.map((script) => `<script>${script}</script>`),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
