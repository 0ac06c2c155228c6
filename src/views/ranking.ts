/**
 * The legendary profit ranking, drawn: a script defining the global `PrioryRanking` with
 * `render(result, container)` over `priory_legendary_ranking`'s structured result (rows `{id,
 * name, cost, sell, profit, saved, partial?, na?, cur?}`, plus `priced`, `unpriced`,
 * `characters`, `names`). A sortable table (click a column heading), each row's profit drawn as
 * a bar around zero; choosing a row asks the host to call `priory_recipe_tree` for that legendary
 * with the player's holdings (`useAccount: true`, the ranking's own pricing) and draws the answer
 * below the table. Row fields it does not know are ignored.
 *
 * @module
 */

/** The ranking renderer script (needs `PrioryDom`, `PrioryTree`, `PrioryView`, `PrioryLabels`). */
export const RANKING_RENDER_JS = String.raw`
var PrioryRanking = (function (D, T, V, L) {
  "use strict";
  var el = D.el;
  var COLUMNS = [
    { key: "name", label: "colLegendary", numeric: false },
    { key: "cost", label: "colCost", numeric: true },
    { key: "sell", label: "colSells", numeric: true },
    { key: "profit", label: "profit", numeric: true },
    { key: "saved", label: "colSaved", numeric: true }
  ];

  function compare(key, direction) {
    return function (a, b) {
      var x = a[key];
      var y = b[key];
      if (typeof x !== "number" && typeof y !== "number" && key === "name") {
        return direction * String(x).localeCompare(String(y));
      }
      // Rows without a figure (no buy order) sort last whichever the direction.
      if (typeof x !== "number") return typeof y !== "number" ? a.id - b.id : 1;
      if (typeof y !== "number") return -1;
      return direction * (x - y) || a.id - b.id;
    };
  }

  function bar(profit, scale, twoSided) {
    var track = el("span", { class: "bar" + (twoSided ? " bar-two" : ""), "aria-hidden": "true" });
    if (typeof profit !== "number" || scale <= 0) return track;
    var share = Math.min(1, Math.abs(profit) / scale) * (twoSided ? 50 : 100);
    var fill = el("span", { class: "fill " + (profit < 0 ? "neg" : "pos") });
    fill.style.width = share.toFixed(2) + "%";
    fill.style.left = (twoSided ? (profit < 0 ? 50 - share : 50) : 0).toFixed(2) + "%";
    track.appendChild(fill);
    return track;
  }

  function caveats(row, names) {
    var list = [];
    if (row.na && row.na.length) {
      list.push(el("div", { class: "caveat" }, [D.badge("earn"), " " + row.na.map(function (id) { return names[id] || L.t("item", id); }).join(", ")]));
    }
    if (row.cur && typeof row.cur === "object") {
      var paid = Object.keys(row.cur).map(function (name) { return D.count(row.cur[name]) + " " + name; });
      if (paid.length) list.push(el("div", { class: "caveat muted", text: L.t("alsoCur", paid.join(", ")) }));
    }
    return list;
  }

  function render(data, container) {
    if (!data || !Array.isArray(data.ranking)) throw new Error(L.t("notRanking"));
    var names = data.names || {};
    var rows = data.ranking.slice();
    var state = { key: "profit", direction: -1, chosen: null, ticket: 0 };
    var profits = rows.map(function (row) { return row.profit; }).filter(function (p) { return typeof p === "number"; });
    var scale = profits.length ? Math.max.apply(null, profits.map(Math.abs)) : 0;
    var twoSided = profits.some(function (p) { return p < 0; });
    var tbody = el("tbody");
    var headRow = el("tr");
    var panel = el("section", { class: "tree-panel", "aria-label": L.t("recipeTree"), hidden: true });

    function sortBy(key) {
      state.direction = state.key === key ? -state.direction : (key === "name" ? 1 : -1);
      state.key = key;
      draw();
    }

    function choose(row) {
      state.chosen = row.id;
      var ticket = ++state.ticket;
      draw();
      panel.hidden = false;
      var body = el("div", { class: "panel-body" }, el("p", { class: "status", role: "status", text: L.t("pricing", row.name) }));
      D.clear(panel).appendChild(el("div", { class: "panel-head" }, [
        el("h2", { text: L.t("yourPlan", row.name) }),
        el("button", { type: "button", onclick: function () { state.chosen = null; state.ticket++; panel.hidden = true; D.clear(panel); draw(); }, text: L.t("close") })
      ]));
      panel.appendChild(body);
      if (!V.canCallTools()) {
        D.clear(body).appendChild(el("p", { class: "status", text: L.t("noToolCalls", row.id) }));
        return;
      }
      var treeArgs = { itemId: row.id, useAccount: true };
      // The tree in the ranking's language (the one its own call asked for).
      if (L.lang() !== "en") treeArgs.lang = L.lang();
      V.callTool("priory_recipe_tree", treeArgs).then(function (result) {
        if (ticket !== state.ticket) return;
        var answer = V.resultData(result);
        if (answer.error) D.clear(body).appendChild(el("p", { class: "status status-error", text: answer.error }));
        else T.render(answer.data, body);
      }, function (error) {
        if (ticket !== state.ticket) return;
        D.clear(body).appendChild(el("p", { class: "status status-error", text: L.t("hostFailed", error && error.message ? error.message : String(error)) }));
      }).catch(V.reportError);
    }

    function drawHead() {
      D.clear(headRow);
      headRow.appendChild(el("th", { scope: "col", class: "rank", text: "#" }));
      COLUMNS.forEach(function (column) {
        var sorted = state.key === column.key;
        headRow.appendChild(el("th", {
          scope: "col",
          class: column.numeric ? "num" : "",
          "aria-sort": sorted ? (state.direction > 0 ? "ascending" : "descending") : "none"
        }, el("button", { type: "button", class: "sort", onclick: function () { sortBy(column.key); } }, [
          L.t(column.label),
          el("span", { class: "arrow", "aria-hidden": "true", text: sorted ? (state.direction > 0 ? " ▲" : " ▼") : "" })
        ])));
      });
    }

    function drawRow(row, index) {
      var open = function () { choose(row); };
      return el("tr", { class: state.chosen === row.id ? "chosen" : "", "aria-selected": state.chosen === row.id ? "true" : "false", onclick: open }, [
        el("td", { class: "rank", text: String(index + 1) }),
        el("td", { class: "legendary" }, [
          el("button", { type: "button", class: "open", title: L.t("openTree", row.name), onclick: function (event) { event.stopPropagation(); open(); }, text: row.name })
        ].concat(caveats(row, names))),
        el("td", { class: "num" }, D.money(row.cost)),
        el("td", { class: "num" }, D.money(row.sell)),
        el("td", { class: "num profit" }, [
          row.partial ? el("span", { class: "muted", title: L.t("upperBoundTitle"), text: "≤ " }) : null,
          D.money(row.profit, typeof row.profit === "number" ? (row.profit < 0 ? "neg" : "pos") : ""),
          bar(row.profit, scale, twoSided)
        ]),
        el("td", { class: "num" }, D.money(row.saved))
      ]);
    }

    function draw() {
      drawHead();
      D.clear(tbody);
      rows.slice().sort(compare(state.key, state.direction)).forEach(function (row, index) {
        tbody.appendChild(drawRow(row, index));
      });
    }

    var facts = [L.t("priced", D.count(data.priced)), L.t("withoutTree", D.count(data.unpriced)), L.t("characters", D.count(data.characters))];
    D.clear(container).appendChild(el("article", { class: "ranking-view" }, [
      el("header", { class: "head" }, [el("h1", { text: L.t("ranking") }), el("span", { class: "muted", text: facts.join(" · ") })]),
      typeof data.stale_age_s === "number" ? el("p", { class: "note note-warn", text: L.t("stale", D.count(data.stale_age_s)) }) : null,
      rows.length ? el("table", { class: "grid ranking" }, [el("thead", {}, headRow), tbody])
        : el("p", { class: "status", text: L.t("noneRanked") }),
      el("p", { class: "hint muted", text: L.t("chooseRow") }),
      panel
    ]));
    draw();
  }

  return { render: render };
})(PrioryDom, PrioryTree, PrioryView, PrioryLabels);
`;
