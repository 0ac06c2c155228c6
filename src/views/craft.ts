/**
 * The crafting profit table, drawn: a script defining the global `PrioryCraft` with
 * `render(result, container)` over `priory_craft_profit`'s structured result (rows `{id, name,
 * recipeId, discipline, rating, count, cost, sell, profit, roi, crafts, totalProfit, stop, daily?,
 * sheet?, cur?, noDepth?, soldPerDay?, sellDays?}`, plus `scanned` and `pricesAt`). A sortable table (click a column
 * heading), each row's profit drawn as a bar; choosing a row asks the host to call
 * `priory_recipe_tree` for one craft of it (`quantity` = its output count, the row's own
 * pricing) and draws the answer below the table. Row fields it does not know are ignored.
 *
 * @module
 */

/** The crafting profit renderer script (needs `PrioryDom`, `PrioryTable` and `PrioryLabels`). */
export const CRAFT_RENDER_JS = String.raw`
var PrioryCraft = (function (D, P, L) {
  "use strict";
  var el = D.el;
  var COLUMNS = [
    { key: "name", label: "craft.colCraft", numeric: false },
    { key: "discipline", label: "craft.colDiscipline", numeric: false },
    { key: "cost", label: "craft.colCost", numeric: true },
    { key: "sell", label: "colSells", numeric: true },
    { key: "profit", label: "profit", numeric: true },
    { key: "roi", label: "craft.colRoi", numeric: true },
    { key: "crafts", label: "craft.colInARow", numeric: true },
    { key: "totalProfit", label: "craft.colTotal", numeric: true }
  ];
  var STOPS = ["bids", "asks", "cap", "daily"];

  /** A discipline in the view's language (GW2's own names), else as the result says. */
  function discipline(name) {
    var key = "disc." + name;
    var text = L.t(key);
    return text === key ? name : text;
  }

  function notes(row) {
    var list = [];
    if (row.count > 1) list.push(el("span", { class: "muted", text: L.t("craft.makes", D.count(row.count)) }));
    if (row.daily) list.push(el("span", { class: "badge", title: L.t("craft.dailyTitle"), text: L.t("craft.daily") }));
    if (row.sheet) list.push(el("span", { class: "badge", title: L.t("craft.sheetTitle"), text: L.t("craft.sheet") }));
    if (row.noDepth) list.push(el("span", { class: "muted", text: L.t("craft.noDepth") }));
    if (typeof row.soldPerDay === "number") list.push(el("span", { class: "muted", title: L.t("craft.soldTitle"), text: L.t("craft.soldPerDay", D.count(row.soldPerDay)) + (typeof row.sellDays === "number" ? L.t("craft.sellDays", D.count(row.sellDays)) : "") }));
    if (Array.isArray(row.cur) && row.cur.length) {
      list.push(el("span", { class: "muted", text: L.t("craft.otherCur") }));
    }
    return list.length ? el("div", { class: "caveat" }, list.reduce(function (all, item) {
      return all.length ? all.concat([" ", item]) : [item];
    }, [])) : null;
  }

  function render(data, container) {
    if (!data || !Array.isArray(data.opportunities)) throw new Error(L.t("craft.notCraft"));
    var rows = data.opportunities.slice();
    var state = { key: "profit", direction: -1, chosen: null, ticket: 0 };
    var profits = rows.map(function (row) { return row.profit; }).filter(function (p) { return typeof p === "number"; });
    var scale = profits.length ? Math.max.apply(null, profits.map(Math.abs)) : 0;
    var tbody = el("tbody");
    var headRow = el("tr");
    var panel = el("section", { class: "tree-panel", "aria-label": L.t("recipeTree"), hidden: true });

    function sortBy(key) {
      state.direction = state.key === key ? -state.direction : (COLUMNS.some(function (c) { return c.key === key && !c.numeric; }) ? 1 : -1);
      state.key = key;
      draw();
    }

    function choose(row) {
      state.chosen = row.id;
      var ticket = ++state.ticket;
      var quantity = typeof row.count === "number" ? row.count : 1;
      draw();
      P.openTree(panel, {
        title: L.t("craft.oneCraft", row.name),
        loading: L.t("craft.pricing", row.name),
        manual: L.t("craft.noToolCalls", row.id, quantity),
        args: { itemId: row.id, quantity: quantity },
        isCurrent: function () { return ticket === state.ticket; },
        onClose: function () { state.chosen = null; state.ticket++; panel.hidden = true; D.clear(panel); draw(); }
      });
    }

    function drawRow(row, index) {
      var open = function () { choose(row); };
      var roi = typeof row.roi === "number" ? L.t("percent", D.count(Math.round(row.roi * 100))) : "\u2014";
      return el("tr", { class: state.chosen === row.id ? "chosen" : "", "aria-selected": state.chosen === row.id ? "true" : "false", onclick: open }, [
        el("td", { class: "rank", text: String(index + 1) }),
        el("td", { class: "legendary" }, [
          el("button", { type: "button", class: "open", title: L.t("openTree", row.name), onclick: function (event) { event.stopPropagation(); open(); }, text: row.name }),
          notes(row)
        ]),
        el("td", { text: (row.discipline ? discipline(row.discipline) : "\u2014") + (typeof row.rating === "number" ? " " + row.rating : "") }),
        el("td", { class: "num" }, D.money(row.cost)),
        el("td", { class: "num" }, D.money(row.sell)),
        el("td", { class: "num profit" }, [D.money(row.profit, row.profit < 0 ? "neg" : "pos"), P.bar(row.profit, scale, false)]),
        el("td", { class: "num", text: roi }),
        el("td", { class: "num", title: STOPS.indexOf(row.stop) >= 0 ? L.t("craft.stops", L.t("craft.stop." + row.stop)) : "", text: D.count(row.crafts) }),
        el("td", { class: "num" }, D.money(row.totalProfit))
      ]);
    }

    function draw() {
      P.drawHead(headRow, COLUMNS, state, sortBy);
      D.clear(tbody);
      rows.slice().sort(P.compare(state.key, state.direction)).forEach(function (row, index) {
        tbody.appendChild(drawRow(row, index));
      });
    }

    var scanned = data.scanned || {};
    var facts = [L.t("craft.scanned", D.count(scanned.recipes))];
    if (typeof data.pricesAt === "string") facts.push(L.t("craft.pricesAt", data.pricesAt.slice(11, 16)));
    P.page(container, {
      title: L.t("craft.title"),
      facts: facts,
      stale: typeof data.stale_age_s === "number" ? L.t("craft.stale", D.count(data.stale_age_s)) : null,
      rows: rows.length > 0, headRow: headRow, tbody: tbody, none: L.t("craft.none"),
      hint: L.t("craft.hint"),
      panel: panel
    });
    draw();
  }

  return { render: render };
})(PrioryDom, PrioryTable, PrioryLabels);
`;
