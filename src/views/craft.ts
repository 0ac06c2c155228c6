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

/** The crafting profit renderer script (needs `PrioryDom` and `PrioryTable`). */
export const CRAFT_RENDER_JS = String.raw`
var PrioryCraft = (function (D, P) {
  "use strict";
  var el = D.el;
  var COLUMNS = [
    { key: "name", label: "Craft", numeric: false },
    { key: "discipline", label: "Discipline", numeric: false },
    { key: "cost", label: "Cost", numeric: true },
    { key: "sell", label: "Sells for", numeric: true },
    { key: "profit", label: "Profit", numeric: true },
    { key: "roi", label: "ROI", numeric: true },
    { key: "crafts", label: "In a row", numeric: true },
    { key: "totalProfit", label: "Total profit", numeric: true }
  ];
  var STOPS = {
    bids: "the buy orders for it run out or fall",
    asks: "an ingredient's listings run out or rise",
    cap: "250 crafts walked",
    daily: "a daily cooldown: once a day"
  };

  function notes(row) {
    var list = [];
    if (row.count > 1) list.push(el("span", { class: "muted", text: "makes " + D.count(row.count) }));
    if (row.daily) list.push(el("span", { class: "badge", title: "A daily cooldown: once a day", text: "daily" }));
    if (row.sheet) list.push(el("span", { class: "badge", title: "Learned from a recipe sheet", text: "sheet" }));
    if (row.noDepth) list.push(el("span", { class: "muted", text: "order book not read" }));
    if (typeof row.soldPerDay === "number") list.push(el("span", { class: "muted", title: "Estimated from this server's price history", text: "~" + D.count(row.soldPerDay) + " sold a day" + (typeof row.sellDays === "number" ? " (" + row.sellDays + " days for the run)" : "") }));
    if (Array.isArray(row.cur) && row.cur.length) {
      list.push(el("span", { class: "muted", text: "also pays other currencies" }));
    }
    return list.length ? el("div", { class: "caveat" }, list.reduce(function (all, item) {
      return all.length ? all.concat([" ", item]) : [item];
    }, [])) : null;
  }

  function render(data, container) {
    if (!data || !Array.isArray(data.opportunities)) throw new Error("Not a crafting profit result: it has no rows.");
    var rows = data.opportunities.slice();
    var state = { key: "profit", direction: -1, chosen: null, ticket: 0 };
    var profits = rows.map(function (row) { return row.profit; }).filter(function (p) { return typeof p === "number"; });
    var scale = profits.length ? Math.max.apply(null, profits.map(Math.abs)) : 0;
    var tbody = el("tbody");
    var headRow = el("tr");
    var panel = el("section", { class: "tree-panel", "aria-label": "Recipe tree", hidden: true });

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
        title: row.name + ": one craft",
        loading: "Pricing one craft of " + row.name + "…",
        manual: "This host does not let a view call tools: ask for priory_recipe_tree with itemId " + row.id + " and quantity " + quantity + ".",
        args: { itemId: row.id, quantity: quantity },
        isCurrent: function () { return ticket === state.ticket; },
        onClose: function () { state.chosen = null; state.ticket++; panel.hidden = true; D.clear(panel); draw(); }
      });
    }

    function drawRow(row, index) {
      var open = function () { choose(row); };
      var roi = typeof row.roi === "number" ? Math.round(row.roi * 100) + "%" : "—";
      return el("tr", { class: state.chosen === row.id ? "chosen" : "", "aria-selected": state.chosen === row.id ? "true" : "false", onclick: open }, [
        el("td", { class: "rank", text: String(index + 1) }),
        el("td", { class: "legendary" }, [
          el("button", { type: "button", class: "open", title: "Open the recipe tree of " + row.name, onclick: function (event) { event.stopPropagation(); open(); }, text: row.name }),
          notes(row)
        ]),
        el("td", { text: (row.discipline || "—") + (typeof row.rating === "number" ? " " + row.rating : "") }),
        el("td", { class: "num" }, D.money(row.cost)),
        el("td", { class: "num" }, D.money(row.sell)),
        el("td", { class: "num profit" }, [D.money(row.profit, row.profit < 0 ? "neg" : "pos"), P.bar(row.profit, scale, false)]),
        el("td", { class: "num", text: roi }),
        el("td", { class: "num", title: STOPS[row.stop] ? "Stops: " + STOPS[row.stop] : "", text: D.count(row.crafts) }),
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
    var facts = [D.count(scanned.recipes) + " recipes scanned"];
    if (typeof data.pricesAt === "string") facts.push("prices of " + data.pricesAt.slice(11, 16) + " UTC");
    D.clear(container).appendChild(el("article", { class: "ranking-view" }, [
      el("header", { class: "head" }, [el("h1", { text: "Crafting profit" }), el("span", { class: "muted", text: facts.join(" · ") })]),
      typeof data.stale_age_s === "number" ? el("p", { class: "note note-warn", text: "Prices are " + D.count(data.stale_age_s) + " s old: the GW2 API did not answer." }) : null,
      rows.length ? el("table", { class: "grid ranking" }, [el("thead", {}, headRow), tbody])
        : el("p", { class: "status", text: "Nothing profits to craft right now." }),
      el("p", { class: "hint muted", text: "Choose a craft to see its tree. In a row: crafts that stay profitable walking the order books." }),
      panel
    ]));
    draw();
  }

  return { render: render };
})(PrioryDom, PrioryTable);
`;
