/**
 * What the table views share (the legendary ranking, the crafting profit), as a script defining
 * the global `PrioryTable`: the column sort (numbers, rows without a figure last whichever the
 * direction, names by locale), a value's bar around zero, the page around the table (head, stale
 * note, hint), and the panel below the table where a chosen row's tree is drawn - the host asked to
 * call `priory_recipe_tree`, the answer drawn with `PrioryTree`, a later choice or Close
 * superseding it.
 *
 * @module
 */

/** The shared table script (needs `PrioryDom`, `PrioryTree`, `PrioryView` and `PrioryLabels`). */
export const TABLE_JS = String.raw`
var PrioryTable = (function (D, T, V, L) {
  "use strict";
  var el = D.el;

  function compare(key, direction) {
    return function (a, b) {
      var x = a[key];
      var y = b[key];
      if (typeof x !== "number" && typeof y !== "number" && typeof x === "string") {
        return direction * String(x).localeCompare(String(y));
      }
      // Rows without a figure (no buy order) sort last whichever the direction.
      if (typeof x !== "number") return typeof y !== "number" ? a.id - b.id : 1;
      if (typeof y !== "number") return -1;
      return direction * (x - y) || a.id - b.id;
    };
  }

  function bar(value, scale, twoSided) {
    var track = el("span", { class: "bar" + (twoSided ? " bar-two" : ""), "aria-hidden": "true" });
    if (typeof value !== "number" || scale <= 0) return track;
    var share = Math.min(1, Math.abs(value) / scale) * (twoSided ? 50 : 100);
    var fill = el("span", { class: "fill " + (value < 0 ? "neg" : "pos") });
    fill.style.width = share.toFixed(2) + "%";
    fill.style.left = (twoSided ? (value < 0 ? 50 - share : 50) : 0).toFixed(2) + "%";
    track.appendChild(fill);
    return track;
  }

  /**
   * Draws the tree of a chosen row into panel: a head with title and Close (onClose), the
   * host's answer to priory_recipe_tree(args) below. isCurrent() says whether this choice still
   * stands when the answer comes.
   */
  function openTree(panel, options) {
    panel.hidden = false;
    var body = el("div", { class: "panel-body" }, el("p", { class: "status", role: "status", text: options.loading }));
    D.clear(panel).appendChild(el("div", { class: "panel-head" }, [
      el("h2", { text: options.title }),
      el("button", { type: "button", onclick: options.onClose, text: L.t("close") })
    ]));
    panel.appendChild(body);
    if (!V.canCallTools()) {
      D.clear(body).appendChild(el("p", { class: "status", text: options.manual }));
      return;
    }
    var args = Object.assign({}, options.args);
    // The tree in the table's language (the one its own call asked for).
    if (L.lang() !== "en") args.lang = L.lang();
    V.callTool("priory_recipe_tree", args).then(function (result) {
      if (!options.isCurrent()) return;
      var answer = V.resultData(result);
      if (answer.error) D.clear(body).appendChild(el("p", { class: "status status-error", text: answer.error }));
      else T.render(answer.data, body);
    }, function (error) {
      if (!options.isCurrent()) return;
      D.clear(body).appendChild(el("p", { class: "status status-error", text: L.t("hostFailed", error && error.message ? error.message : String(error)) }));
    }).catch(V.reportError);
  }

  /** The sortable head row: one button per column (its label a PrioryLabels key), the sorted one marked. */
  function drawHead(headRow, columns, state, sortBy) {
    D.clear(headRow);
    headRow.appendChild(el("th", { scope: "col", class: "rank", text: "#" }));
    columns.forEach(function (column) {
      var sorted = state.key === column.key;
      headRow.appendChild(el("th", {
        scope: "col",
        class: column.numeric ? "num" : "",
        "aria-sort": sorted ? (state.direction > 0 ? "ascending" : "descending") : "none"
      }, el("button", { type: "button", class: "sort", onclick: function () { sortBy(column.key); } }, [
        L.t(column.label),
        el("span", { class: "arrow", "aria-hidden": "true", text: sorted ? (state.direction > 0 ? " \u25B2" : " \u25BC") : "" })
      ])));
    });
  }

  /**
   * Draws a table view's page into container: a head with title and facts, the stale note when
   * there is one, the table (or the none text when it has no rows), the hint, the tree panel.
   */
  function page(container, parts) {
    D.clear(container).appendChild(el("article", { class: "ranking-view" }, [
      el("header", { class: "head" }, [el("h1", { text: parts.title }), el("span", { class: "muted", text: parts.facts.join(" · ") })]),
      parts.stale ? el("p", { class: "note note-warn", text: parts.stale }) : null,
      parts.rows ? el("table", { class: "grid ranking" }, [el("thead", {}, parts.headRow), parts.tbody])
        : el("p", { class: "status", text: parts.none }),
      el("p", { class: "hint muted", text: parts.hint }),
      parts.panel
    ]));
  }

  return { compare: compare, bar: bar, openTree: openTree, drawHead: drawHead, page: page };
})(PrioryDom, PrioryTree, PrioryView, PrioryLabels);
`;
