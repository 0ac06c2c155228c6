/**
 * Helpers every view script shares, as a script defining the global `PrioryDom`: element
 * building (text is always set as text, never parsed as HTML, so a name from upstream cannot
 * inject markup), coin amounts written as gold/silver/copper, and the decision badges - numbers,
 * coin letters and badges in the view's language (`PrioryLabels`, `labels.ts`).
 *
 * @module
 */

/** The shared helpers script. */
export const VIEW_DOM_JS = String.raw`
var PrioryDom = (function () {
  "use strict";

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    var attrs = attributes || {};
    Object.keys(attrs).forEach(function (key) {
      var value = attrs[key];
      if (value === undefined || value === null || value === false) return;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else if (key.indexOf("on") === 0) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    });
    append(node, children);
    return node;
  }

  function append(node, children) {
    if (children === undefined || children === null) return node;
    (Array.isArray(children) ? children : [children]).forEach(function (child) {
      if (child === undefined || child === null || child === false) return;
      node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
    });
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  /** Copper as its coins, zero coins left out (a zero amount is "0c"). */
  function coins(copper) {
    var amount = Math.abs(Math.round(copper));
    var gold = Math.floor(amount / 10000);
    var silver = Math.floor((amount % 10000) / 100);
    var parts = [];
    // [class letter, amount, the letter the reader's language writes]
    var letters = PrioryLabels.coinLetters();
    if (gold) parts.push(["g", PrioryLabels.number(gold), letters[0]]);
    if (silver) parts.push(["s", String(silver), letters[1]]);
    if (amount % 100 || parts.length === 0) parts.push(["c", String(amount % 100), letters[2]]);
    return { negative: copper < 0, parts: parts };
  }

  function moneyText(copper) {
    if (typeof copper !== "number" || !isFinite(copper)) return "\u2014";
    var split = coins(copper);
    return (split.negative ? "\u2212" : "") + split.parts.map(function (part) {
      return part[1] + part[2];
    }).join(" ");
  }

  function money(copper, extraClass) {
    var node = el("span", { class: "money" + (extraClass ? " " + extraClass : "") });
    if (typeof copper !== "number" || !isFinite(copper)) return append(node, "\u2014");
    var split = coins(copper);
    if (split.negative) append(node, "\u2212");
    split.parts.forEach(function (part, index) {
      if (index > 0) append(node, " ");
      append(node, el("span", { class: "coin coin-" + part[0], text: part[1] + part[2] }));
    });
    return node;
  }

  function badge(kind) {
    return el("span", { class: "badge badge-" + kind, title: PrioryLabels.t("title." + kind), text: PrioryLabels.t("badge." + kind) });
  }

  function count(value) {
    return typeof value === "number" ? PrioryLabels.number(value) : "\u2014";
  }

  return { el: el, append: append, clear: clear, money: money, moneyText: moneyText, badge: badge, count: count };
})();
`;
