/**
 * The account's Trading Post, drawn: a script defining the global `PrioryTradingPost` with
 * `render(result, container)` over `priory_trading_post`'s structured result (`selling: [{id,
 * name, count, price, lowest, undercut, ahead, atLeast?}]`, `buying: [{..., highest, outbid,
 * ...}]`, `delivery: {coins, items: [{id, name, count, value}]}`, `earnings: {window, sold: {units,
 * gross, net}, bought: {units, spent}, profit, top: [{id, name, sold, bought, net}]}`, `more`).
 * The window's figures as cards, then a table per list: the listings and orders with an undercut
 * (outbid) badge or a "best price" one and the units ahead, the delivery box valued, the items
 * that earned most; a list cut by the call's limit says how many rows it left off. Nothing is
 * fetched; a value the view does not know is ignored.
 *
 * @module
 */

/** The Trading Post renderer script (needs `PrioryDom` and `PrioryLabels`). */
export const TRADING_POST_RENDER_JS = String.raw`
var PrioryTradingPost = (function (D, L) {
  "use strict";
  var el = D.el;

  function card(label, value, note, extraClass) {
    return el("div", { class: "card" + (extraClass ? " " + extraClass : "") }, [
      el("div", { class: "card-label", text: label }),
      el("div", { class: "card-value" }, value),
      note ? el("div", { class: "card-note", text: note }) : null
    ]);
  }

  function name(row) {
    return typeof row.name === "string" ? row.name : L.t("item", row.id);
  }

  /** The units ahead: a count, "at least" one when the book was kept in part, a dash when unread. */
  function ahead(row) {
    if (typeof row.ahead !== "number") return "\u2014";
    return row.atLeast ? L.t("tp.atLeast", D.count(row.ahead)) : D.count(row.ahead);
  }

  /** The order's badge: behind (undercut, outbid), else the best price on its side. */
  function state(row, selling) {
    var behind = selling ? row.undercut : row.outbid;
    if (!behind && typeof (selling ? row.lowest : row.highest) !== "number") return null;
    var kind = behind ? (selling ? "undercut" : "outbid") : "best";
    var title = behind ? kind : selling ? "lowest" : "highest";
    return el("span", { class: "badge badge-" + kind, title: L.t("tp." + title + "Title"), text: L.t("tp." + kind) });
  }

  /** A section: its heading, the table (or the none text), and how many rows were left off. */
  function section(title, columns, rows, drawRow, none, more) {
    var body = rows.length
      ? el("table", { class: "grid tp-table" }, [
        el("thead", {}, el("tr", {}, columns.map(function (column) {
          return el("th", { scope: "col", class: column[1] ? "num" : "", text: L.t(column[0]) });
        }))),
        el("tbody", {}, rows.map(drawRow))
      ])
      : el("p", { class: "status", text: none });
    return el("section", { class: "tp-section", "aria-label": title }, [
      el("div", { class: "section-head" }, el("h2", { text: title })),
      body,
      typeof more === "number" && more > 0 ? el("p", { class: "note", text: L.t("tp.more", D.count(more)) }) : null
    ]);
  }

  function orders(rows, side, more) {
    var selling = side === "selling";
    var best = selling ? "lowest" : "highest";
    return section(L.t(selling ? "tp.selling" : "tp.buying"), [
      ["colItem", false], ["colCount", true], ["tp.colPrice", true],
      [selling ? "tp.colLowest" : "tp.colHighest", true], ["tp.colAhead", true]
    ], rows, function (row) {
      return el("tr", { class: row.undercut || row.outbid ? "tp-behind" : "" }, [
        el("td", {}, [name(row), " ", state(row, selling)]),
        el("td", { class: "num", text: D.count(row.count) }),
        el("td", { class: "num" }, D.money(row.price)),
        el("td", { class: "num" }, D.money(row[best])),
        el("td", { class: "num", text: ahead(row) })
      ]);
    }, L.t(selling ? "tp.noSelling" : "tp.noBuying"), more);
  }

  function render(data, container) {
    if (!data || !data.earnings || !Array.isArray(data.selling)) throw new Error(L.t("tp.notTp"));
    var more = data.more || {};
    var earnings = data.earnings;
    var sold = earnings.sold || {};
    var bought = earnings.bought || {};
    var box = data.delivery || { coins: 0, items: [] };
    var items = Array.isArray(box.items) ? box.items : [];
    var boxValue = items.reduce(function (sum, row) { return sum + (typeof row.value === "number" ? row.value : 0); }, 0);
    var cards = el("div", { class: "cards" }, [
      card(L.t("tp.sold"), D.money(sold.net), L.t("tp.soldNote", D.count(sold.units), D.moneyText(sold.gross))),
      card(L.t("tp.bought"), D.money(bought.spent), L.t("tp.units", D.count(bought.units))),
      card(L.t("profit"), D.money(earnings.profit, earnings.profit < 0 ? "neg" : "pos"), L.t("tp.profitNote"),
        "card-profit " + (earnings.profit < 0 ? "neg" : "pos")),
      card(L.t("tp.delivery"), D.money(box.coins), L.t("tp.boxNote", D.moneyText(boxValue)))
    ]);
    D.clear(container).appendChild(el("article", { class: "tp-view" }, [
      el("header", { class: "head" }, [
        el("h1", { text: L.t("tp.title") }),
        el("span", { class: "muted", text: L.t("tp.window", earnings.window) })
      ]),
      cards,
      orders(data.selling, "selling", more.selling),
      orders(Array.isArray(data.buying) ? data.buying : [], "buying", more.buying),
      section(L.t("tp.delivery"), [["colItem", false], ["colCount", true], ["tp.colValue", true]], items, function (row) {
        return el("tr", {}, [
          el("td", { text: name(row) }),
          el("td", { class: "num", text: D.count(row.count) }),
          el("td", { class: "num" }, D.money(row.value))
        ]);
      }, L.t("tp.noDelivery"), more.delivery),
      section(L.t("tp.top"), [["colItem", false], ["tp.colSold", true], ["tp.colBought", true], ["tp.colNet", true]],
        Array.isArray(earnings.top) ? earnings.top : [], function (row) {
          return el("tr", {}, [
            el("td", { text: name(row) }),
            el("td", { class: "num", text: D.count(row.sold) }),
            el("td", { class: "num", text: D.count(row.bought) }),
            el("td", { class: "num" }, D.money(row.net))
          ]);
        }, L.t("tp.noSales"), more.top)
    ]));
  }

  return { render: render };
})(PrioryDom, PrioryLabels);
`;
