/**
 * The price history, drawn: a script defining the global `PrioryHistory` with
 * `render(result, container)` over `priory_price_history`'s structured result (rows `{id, name,
 * since, points: [[time after from, buy, sell, sold, bought]], change, low, high, volatility,
 * soldPerDay, boughtPerDay, margin, flipProfit}`, plus `window`, `from`, `unit` (of point times:
 * minute, hour or day), `step`, `at`, `note`).
 * One panel per item: the figures that answer "is now a good time" at a glance (the lowest
 * listing now, its change, the range, daily sales), then an SVG chart - the lowest listing and
 * the best order as lines, the units sold and bought per step as bars under them. Nothing is
 * fetched; a value the view does not know is ignored.
 *
 * @module
 */

/** The history renderer script (needs `PrioryDom` and `PrioryLabels`). */
export const HISTORY_RENDER_JS = String.raw`
var PrioryHistory = (function (D, L) {
  "use strict";
  var el = D.el;
  // The SVG namespace, as the HTML parser assigns it to a constant <svg> (no address written here).
  var shell = document.createElement("div");
  shell.innerHTML = "<svg></svg>";
  var SVG = shell.firstChild.namespaceURI;
  var W = 640, H = 200, PRICE_H = 140, GAP = 12, LEFT = 4, RIGHT = 4;

  function svg(tag, attributes) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, String(attributes[key])); });
    return node;
  }

  var UNIT_MS = { minute: 60000, hour: 3600000, day: 86400000 };

  function when(data, time) {
    var date = new Date(Date.parse(data.from) + time * (UNIT_MS[data.unit] || UNIT_MS.minute));
    return date.toISOString().slice(0, 16).replace("T", " ");
  }

  function signed(value, suffix) {
    if (typeof value !== "number") return "\u2014";
    return (value > 0 ? "+" : value < 0 ? "\u2212" : "") + L.number(Math.abs(value)) + (suffix || "");
  }

  function card(label, value, note, noteClass) {
    return el("div", { class: "card" }, [
      el("div", { class: "card-label", text: label }),
      el("div", { class: "card-value" }, value),
      note ? el("div", { class: "card-note" + (noteClass ? " " + noteClass : ""), text: note }) : null
    ]);
  }

  /** Polyline points for one price column, skipping empty sides. */
  function line(points, column, x, y) {
    return points.filter(function (p) { return typeof p[column] === "number"; })
      .map(function (p) { return x(p[0]).toFixed(1) + "," + y(p[column]).toFixed(1); }).join(" ");
  }

  function chart(row, data) {
    var points = row.points;
    var prices = [];
    points.forEach(function (p) { [p[1], p[2]].forEach(function (v) { if (typeof v === "number") prices.push(v); }); });
    var span = Math.max(1, points.length ? points[points.length - 1][0] - points[0][0] : 1);
    var first = points.length ? points[0][0] : 0;
    var x = function (m) { return LEFT + (W - LEFT - RIGHT) * (points.length > 1 ? (m - first) / span : 0.5); };
    var low = prices.length ? Math.min.apply(null, prices) : 0;
    var high = prices.length ? Math.max.apply(null, prices) : 1;
    var pad = Math.max(1, (high - low) * 0.08);
    var y = function (v) { return 6 + (PRICE_H - 12) * (1 - (v - (low - pad)) / ((high + pad) - (low - pad))); };
    var volumes = points.map(function (p) { return (p[3] || 0) + (p[4] || 0); });
    var most = Math.max.apply(null, [1].concat(volumes));
    var barH = H - PRICE_H - GAP - 2;
    var step = points.length > 1 ? (W - LEFT - RIGHT) / points.length : 24;
    var sells = points.map(function (p) { return p[2]; }).filter(function (v) { return typeof v === "number"; });
    var label = L.t("history.chart", row.name,
      sells.length ? L.t("history.fromTo", D.moneyText(sells[0]), D.moneyText(sells[sells.length - 1])) : L.t("history.none"),
      data.window, D.count(points.length));
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "chart", role: "img", "aria-label": label, preserveAspectRatio: "none" });
    root.appendChild(svg("line", { x1: 0, x2: W, y1: PRICE_H, y2: PRICE_H, class: "axis" }));
    points.forEach(function (p) {
      var sold = p[3] || 0, bought = p[4] || 0;
      var cx = x(p[0]);
      var width = Math.max(1.5, step * 0.7);
      var soldH = barH * sold / most, boughtH = barH * bought / most;
      if (sold > 0) root.appendChild(svg("rect", { x: (cx - width / 2).toFixed(1), y: (H - 2 - soldH).toFixed(1), width: (width / 2).toFixed(1), height: soldH.toFixed(1), class: "bar-sold" }));
      if (bought > 0) root.appendChild(svg("rect", { x: cx.toFixed(1), y: (H - 2 - boughtH).toFixed(1), width: (width / 2).toFixed(1), height: boughtH.toFixed(1), class: "bar-bought" }));
    });
    var buyLine = line(points, 1, x, y), sellLine = line(points, 2, x, y);
    if (buyLine) root.appendChild(svg("polyline", { points: buyLine, class: "line-buy" }));
    if (sellLine) root.appendChild(svg("polyline", { points: sellLine, class: "line-sell" }));
    if (points.length === 1) {
      var only = points[0];
      if (typeof only[2] === "number") root.appendChild(svg("circle", { cx: x(only[0]), cy: y(only[2]), r: 3, class: "dot-sell" }));
      if (typeof only[1] === "number") root.appendChild(svg("circle", { cx: x(only[0]), cy: y(only[1]), r: 3, class: "dot-buy" }));
    }
    var frame = el("div", { class: "chart-frame" });
    frame.appendChild(root);
    frame.appendChild(el("div", { class: "chart-scale" }, [
      el("span", { text: D.moneyText(high) }),
      el("span", { text: D.moneyText(low) })
    ]));
    var axis = el("div", { class: "chart-time muted" }, points.length ? [
      el("span", { text: when(data, points[0][0]) }),
      el("span", { text: when(data, points[points.length - 1][0]) + " UTC" })
    ] : []);
    return [frame, axis];
  }

  function item(row, data) {
    var points = Array.isArray(row.points) ? row.points : [];
    var last = points.length ? points[points.length - 1] : null;
    var change = typeof row.change === "number" ? row.change : null;
    var cards = [
      card(L.t("history.lowest"), last && typeof last[2] === "number" ? D.money(last[2]) : "\u2014",
        change === null ? null : L.t("history.over", signed(change, " %"), data.window), change === null ? "" : change < 0 ? "trend-down" : "trend-up"),
      card(L.t("history.bestOrder"), last && typeof last[1] === "number" ? D.money(last[1]) : "\u2014", null),
      card(L.t("history.range"), [D.money(row.low), " \u2013 ", D.money(row.high)], typeof row.volatility === "number" ? L.t("history.volatility", D.count(row.volatility)) : null),
      card(L.t("history.traded"), L.t("history.soldBought", D.count(row.soldPerDay), D.count(row.boughtPerDay)), L.t("history.estimated")),
      card(L.t("history.margin"), typeof row.margin === "number" ? D.money(row.margin, row.margin < 0 ? "neg" : "pos") : "\u2014",
        typeof row.margin === "number" && row.margin <= 0 ? L.t("history.noFlip")
          : typeof row.flipProfit === "number" ? L.t("history.aDay", D.moneyText(row.flipProfit)) : null)
    ];
    var body = points.length
      ? chart(row, data)
      : [el("p", { class: "status", text: L.t("history.noPoints") })];
    return el("section", { class: "history-item", "aria-label": row.name }, [
      el("div", { class: "section-head" }, [
        el("h2", { text: row.name }),
        el("span", { class: "muted", text: row.since ? L.t("history.since", row.since.replace("T", " ")) : L.t("history.notYet") })
      ]),
      el("div", { class: "cards" }, cards)
    ].concat(body));
  }

  function render(data, container) {
    if (!data || !Array.isArray(data.history)) throw new Error(L.t("history.notHistory"));
    var facts = [data.window ? L.t("history.window", data.window) : null, data.at ? L.t("history.latest", data.at.replace("T", " ")) : null]
      .filter(Boolean).join(" · ");
    var legend = el("p", { class: "legend muted" }, [
      el("span", { class: "key key-sell" }), L.t("history.keySell") + " ",
      el("span", { class: "key key-buy" }), L.t("history.keyBuy") + " ",
      el("span", { class: "key key-sold" }), L.t("history.keySold") + " ",
      el("span", { class: "key key-bought" }), L.t("history.keyBought")
    ]);
    D.clear(container).appendChild(el("article", { class: "history-view" }, [
      el("header", { class: "head" }, [el("h1", { text: L.t("history.title") }), el("span", { class: "muted", text: facts })]),
      data.note ? el("p", { class: "note note-warn", text: data.note }) : null,
      data.history.length ? legend : null
    ].concat(data.history.map(function (row) { return item(row, data); })).concat([
      Array.isArray(data.missing_ids) && data.missing_ids.length
        ? el("p", { class: "note", text: L.t("history.missing", data.missing_ids.join(", ")) })
        : null
    ])));
  }

  return { render: render };
})(PrioryDom, PrioryLabels);
`;
