/**
 * The priced recipe tree, drawn: a script defining the global `PrioryTree` with
 * `render(result, container)` over `priory_recipe_tree`'s structured result exactly as the model
 * gets it (see `src/tree/shape.ts` for the compact node: `id|cur`, `q`, `own`, `cost`, `buy`,
 * `craft`, `via`, `runs`, `na`, `rep`, `c`; `names` is the id -> name dictionary).
 *
 * It shows the summary (craft cost, buying the list at order-book depth `summary.buyCost`,
 * buying the item ready-made, selling it, profit, what the holdings saved), what makes the total
 * partial, the tree collapsible by level with each node's decision as a badge, and the shopping
 * list `toBuy` (Trading Post rows with `unit`/`total`/`short`/`craftCheaper`/`noDepth`/`soldPerWeek`, vendor
 * rows, currencies, items to earn). A node marked `rep` expands to the ingredients of its first
 * appearance. Fields it does not know are ignored.
 *
 * @module
 */

/** The tree renderer script (needs `PrioryDom` and `PrioryLabels`). */
export const TREE_RENDER_JS = String.raw`
var PrioryTree = (function (D, L) {
  "use strict";
  var el = D.el;
  var DEFAULT_DEPTH = 2;

  function decision(node) {
    if (node.cur !== undefined) return node.cur === 1 ? "coin" : "currency";
    if (node.na) return "unavailable";
    if (node.c || node.rep) return node.via === "forge" ? "forge" : node.via === "vendor" ? "vendor" : "craft";
    if (node.own && node.own >= (node.q || 1)) return "owned";
    if (node.via === "vendor") return "vendor";
    return "buy";
  }

  /** The key of a crafted node without its ingredients: what a later "rep" line repeats. */
  function lineKey(node) {
    var line = {};
    Object.keys(node).forEach(function (key) { if (key !== "c" && key !== "rep") line[key] = node[key]; });
    return JSON.stringify(line);
  }

  function firstSubtrees(root) {
    var seen = {};
    (function walk(node) {
      if (!node || !node.c) return;
      var key = lineKey(node);
      if (!(key in seen)) seen[key] = node.c;
      node.c.forEach(walk);
    })(root);
    return seen;
  }

  function context(data) {
    var summary = data.summary || {};
    var currencies = { 1: L.t("coin") };
    (summary.currencies || []).forEach(function (currency) {
      if (currency && currency.name) currencies[currency.id] = currency.name;
    });
    var names = data.names || {};
    return {
      names: names,
      itemName: function (id) { return names[id] || L.t("item", id); },
      currencyName: function (id) { return currencies[id] || L.t("currency", id); },
      subtrees: firstSubtrees(data.tree)
    };
  }

  function quantityOf(node, ctx) {
    var q = node.q === undefined ? 1 : node.q;
    if (node.cur === 1) return D.money(q);
    if (node.cur !== undefined) return el("span", { class: "qty", text: D.count(q) + " " + ctx.currencyName(node.cur) });
    return el("span", { class: "qty", text: "×" + D.count(q) });
  }

  function line(node, ctx, kind) {
    var name = node.cur !== undefined ? ctx.currencyName(node.cur) : ctx.itemName(node.id);
    var facts = [];
    if (node.own) facts.push(el("span", { class: "chip chip-own", title: L.t("ownTitle"), text: L.t("own", D.count(node.own)) }));
    if (node.runs !== undefined) facts.push(el("span", { class: "chip", title: L.t("runsTitle"), text: L.t("runs", D.count(node.runs)) }));
    if (node.rep) facts.push(el("span", { class: "chip", title: L.t("asAboveTitle"), text: L.t("asAbove") }));
    var alternative = null;
    if (node.buy !== undefined) alternative = el("span", { class: "alt", title: L.t("buyInstead") }, [L.t("buyAlt"), D.money(node.buy)]);
    else if (node.craft !== undefined) alternative = el("span", { class: "alt", title: L.t("craftInstead") }, [L.t("craftAlt"), D.money(node.craft)]);
    var cost = node.cost !== undefined ? D.money(node.cost)
      : el("span", { class: "muted", text: kind === "unavailable" ? L.t("notPriced") : kind === "owned" ? L.t("owned") : L.t("noCoin") });
    return el("span", { class: "line" }, [
      D.badge(kind),
      el("span", { class: "name", text: name }),
      quantityOf(node, ctx),
      el("span", { class: "facts" }, facts),
      el("span", { class: "cost" }, cost),
      el("span", { class: "alt-wrap" }, alternative)
    ]);
  }

  function branch(node, ctx, depth) {
    var kind = decision(node);
    var ingredients = node.c || (node.rep ? ctx.subtrees[lineKey(node)] : null);
    if (!ingredients || ingredients.length === 0) {
      return el("li", { class: "leaf", role: "treeitem" }, line(node, ctx, kind));
    }
    var details = el("details", { "data-depth": depth });
    details.open = depth < DEFAULT_DEPTH;
    details.appendChild(el("summary", {}, line(node, ctx, kind)));
    details.appendChild(el("ul", { class: "children", role: "group" }, ingredients.map(function (child) {
      return branch(child, ctx, depth + 1);
    })));
    return el("li", { class: "branch", role: "treeitem" }, details);
  }

  function maxDepth(node) {
    if (!node || !node.c || node.c.length === 0) return 0;
    return 1 + Math.max.apply(null, node.c.map(maxDepth));
  }

  function expandTo(tree, depth) {
    Array.prototype.forEach.call(tree.querySelectorAll("details"), function (details) {
      details.open = Number(details.getAttribute("data-depth")) < depth;
    });
  }

  function card(label, value, note, extraClass) {
    return el("div", { class: "card" + (extraClass ? " " + extraClass : "") }, [
      el("div", { class: "card-label", text: label }),
      el("div", { class: "card-value" }, value),
      note ? el("div", { class: "card-note", text: note }) : null
    ]);
  }

  function signClass(value) {
    return typeof value !== "number" ? "" : value > 0 ? "pos" : value < 0 ? "neg" : "";
  }

  function cards(summary) {
    var list = [card(L.t("craftCost"), D.money(summary.totalCraftCost), summary.partial ? L.t("withoutEarned") : L.t("cheaperWay"))];
    var extra = typeof summary.depthExtra === "number" && summary.depthExtra > 0
      ? L.t("inclDepth", D.moneyText(summary.depthExtra))
      : L.t("atDepth");
    list.push(card(L.t("buyingList"), D.money(summary.buyCost), extra));
    list.push(card(L.t("readyMade"), D.money(summary.rootBuyPrice), summary.rootBuyPrice === null ? L.t("noSellListing") : L.t("lowestListing")));
    list.push(card(L.t("sellNow"), D.money(summary.netSell), summary.netSell === null ? L.t("noBuyOrder") : L.t("lessFee")));
    list.push(card(L.t("profit"), D.money(summary.profit), summary.partial ? L.t("upperBound") : L.t("sellLessCost"), "card-profit " + signClass(summary.profit)));
    if (typeof summary.saved === "number") list.push(card(L.t("holdingsSave"), D.money(summary.saved), L.t("againstNothing")));
    return el("div", { class: "cards" }, list);
  }

  function notes(data, ctx) {
    var summary = data.summary || {};
    var list = [];
    if (summary.partial || (summary.unavailable && summary.unavailable.length)) {
      var items = (summary.unavailable || []).map(ctx.itemName).join(", ");
      list.push(el("li", { class: "note note-warn" }, [D.badge("unavailable"), L.t("toEarn", items || L.t("someItems"))]));
    }
    if (summary.currencies && summary.currencies.length) {
      list.push(el("li", { class: "note" }, L.t("alsoPays", summary.currencies.map(function (currency) {
        return D.count(currency.count) + " " + (currency.name || ctx.currencyName(currency.id));
      }).join(", "))));
    }
    if (summary.guildUpgrades && summary.guildUpgrades.length) {
      list.push(el("li", { class: "note" }, L.t("guildUpgrades", summary.guildUpgrades.join(", "))));
    }
    if (typeof data.stale_age_s === "number") {
      list.push(el("li", { class: "note note-warn" }, L.t("stale", D.count(data.stale_age_s))));
    }
    return list.length ? el("ul", { class: "notes" }, list) : null;
  }

  function shoppingRow(entry, ctx) {
    if (entry.cur !== undefined) {
      var coin = entry.cur === 1;
      return el("tr", {}, [
        el("td", {}, [D.badge(coin ? "coin" : "currency"), " ", ctx.currencyName(entry.cur)]),
        el("td", { class: "num", text: coin ? "" : D.count(entry.count) }),
        el("td", { class: "num", text: "" }),
        el("td", { class: "num" }, coin ? D.money(entry.count) : el("span", { class: "muted", text: L.t("notCoin") })),
        el("td", { text: L.t("paidToVendors") })
      ]);
    }
    var kind = entry.na ? "earn" : entry.vendor !== undefined ? "vendor" : "buy";
    var remarks = [];
    if (entry.vendor !== undefined) remarks.push(String(entry.vendor));
    if (typeof entry.short === "number" && entry.short > 0) remarks.push(L.t("bookShort", D.count(entry.short)));
    if (entry.noDepth === true) remarks.push(L.t("noDepth"));
    if (entry.craftCheaper === true) remarks.push(L.t("cheaperToCraft"));
    if (typeof entry.soldPerWeek === "number") remarks.push(L.t("soldPerWeek", D.count(entry.soldPerWeek)));
    if (entry.na) remarks.push(L.t("neither"));
    return el("tr", { class: entry.short ? "short" : "" }, [
      el("td", {}, [D.badge(kind), " ", ctx.itemName(entry.id)]),
      el("td", { class: "num", text: D.count(entry.count) }),
      el("td", { class: "num" }, typeof entry.unit === "number" ? D.money(entry.unit) : ""),
      el("td", { class: "num" }, typeof entry.total === "number" ? D.money(entry.total) : el("span", { class: "muted", text: L.t("notPriced") })),
      el("td", { text: remarks.join("; ") })
    ]);
  }

  function shoppingList(data, ctx) {
    var rows = data.toBuy;
    if (!Array.isArray(rows)) return null;
    var summary = data.summary;
    var body = rows.length ? rows.map(function (entry) { return shoppingRow(entry, ctx); })
      : [el("tr", {}, el("td", { colspan: 5, class: "muted", text: L.t("nothingToBuy") }))];
    return el("section", { class: "shopping", "aria-label": L.t("shoppingList") }, [
      el("h2", { text: L.t("shoppingList") }),
      el("table", { class: "grid" }, [
        el("thead", {}, el("tr", {}, [L.t("colItem"), L.t("colCount"), L.t("colUnit"), L.t("colTotal"), L.t("colNote")].map(function (label, index) {
          return el("th", { scope: "col", class: index > 0 && index < 4 ? "num" : "", text: label });
        }))),
        el("tbody", {}, body),
        el("tfoot", {}, el("tr", {}, [
          el("th", { scope: "row", colspan: 3, text: L.t("totalAtDepth") }),
          el("td", { class: "num" }, D.money(summary.buyCost)),
          el("td", { text: summary.depthExtra ? L.t("forDepth", D.moneyText(summary.depthExtra)) : "" })
        ]))
      ])
    ]);
  }

  function toolbar(tree, depth) {
    var buttons = [];
    for (var level = 1; level <= Math.min(depth, 4); level++) {
      (function (to) {
        buttons.push(el("button", { type: "button", onclick: function () { expandTo(tree, to); }, text: String(to) }));
      })(level);
    }
    buttons.push(el("button", { type: "button", onclick: function () { expandTo(tree, Infinity); }, text: L.t("all") }));
    return el("div", { class: "toolbar", role: "group", "aria-label": L.t("expandTo") }, [el("span", { class: "muted", text: L.t("levels") })].concat(buttons));
  }

  function render(data, container) {
    if (!data || !data.tree || !data.summary) throw new Error(L.t("notTree"));
    var ctx = context(data);
    var summary = data.summary;
    var rootKind = decision(data.tree);
    var tree = el("ul", { class: "tree", role: "tree", "aria-label": L.t("recipeTree") }, branch(data.tree, ctx, 0));
    D.clear(container).appendChild(el("article", { class: "tree-view" }, [
      el("header", { class: "head" }, [
        el("h1", { text: ctx.itemName(summary.rootId) }),
        summary.quantity > 1 ? el("span", { class: "qty", text: "×" + D.count(summary.quantity) }) : null,
        D.badge(rootKind)
      ]),
      cards(summary),
      notes(data, ctx),
      el("section", { class: "tree-section", "aria-label": L.t("recipeTree") }, [
        el("div", { class: "section-head" }, [el("h2", { text: L.t("recipeTree") }), toolbar(tree, maxDepth(data.tree))]),
        tree
      ]),
      shoppingList(data, ctx)
    ]));
  }

  return { render: render, decision: decision };
})(PrioryDom, PrioryLabels);
`;
