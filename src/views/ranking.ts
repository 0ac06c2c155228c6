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

/** The ranking renderer script (needs `PrioryDom`, `PrioryTable` and `PrioryLabels`). */
export const RANKING_RENDER_JS = String.raw`
var PrioryRanking = (function (D, P, L) {
  "use strict";
  var el = D.el;
  var COLUMNS = [
    { key: "name", label: "colLegendary", numeric: false },
    { key: "cost", label: "colCost", numeric: true },
    { key: "sell", label: "colSells", numeric: true },
    { key: "profit", label: "profit", numeric: true },
    { key: "saved", label: "colSaved", numeric: true }
  ];

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
    var panel = el("section", { class: "tree-panel", "aria-label": "Recipe tree", hidden: true });

    function sortBy(key) {
      state.direction = state.key === key ? -state.direction : (key === "name" ? 1 : -1);
      state.key = key;
      draw();
    }

    function choose(row) {
      state.chosen = row.id;
      var ticket = ++state.ticket;
      draw();
      P.openTree(panel, {
        title: L.t("yourPlan", row.name),
        loading: L.t("pricing", row.name),
        manual: L.t("noToolCalls", row.id),
        args: { itemId: row.id, useAccount: true },
        isCurrent: function () { return ticket === state.ticket; },
        onClose: function () { state.chosen = null; state.ticket++; panel.hidden = true; D.clear(panel); draw(); }
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
          row.partial ? el("span", { class: "muted", title: L.t("upperBoundTitle"), text: "\u2264 " }) : null,
          D.money(row.profit, typeof row.profit === "number" ? (row.profit < 0 ? "neg" : "pos") : ""),
          P.bar(row.profit, scale, twoSided)
        ]),
        el("td", { class: "num" }, D.money(row.saved))
      ]);
    }

    function draw() {
      P.drawHead(headRow, COLUMNS, state, sortBy);
      D.clear(tbody);
      rows.slice().sort(P.compare(state.key, state.direction)).forEach(function (row, index) {
        tbody.appendChild(drawRow(row, index));
      });
    }

    var facts = [L.t("priced", D.count(data.priced)), L.t("withoutTree", D.count(data.unpriced)), L.t("characters", D.count(data.characters))];
    P.page(container, {
      title: L.t("ranking"),
      facts: facts,
      stale: typeof data.stale_age_s === "number" ? L.t("stale", D.count(data.stale_age_s)) : null,
      rows: rows.length > 0, headRow: headRow, tbody: tbody, none: L.t("noneRanked"),
      hint: L.t("chooseRow"),
      panel: panel
    });
    draw();
  }

  return { render: render };
})(PrioryDom, PrioryTable, PrioryLabels);
`;
