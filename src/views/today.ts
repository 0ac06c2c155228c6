/**
 * The day's checklist, drawn: a script defining the global `PrioryToday` with
 * `render(result, container)` over `priory_today`'s structured result (`resets`, `stale`,
 * `stalePeriods`, `dailyCrafting`, `worldBosses`, `mapChests`, `dungeons`, `raids`,
 * `wizardsVault`, `acclaim`, `unread`). The two resets count down (re-drawn every 20 s from the
 * browser's clock, the only time a view reads), then the Astral Acclaim and the Vault's tracks
 * as cards, then one checklist per part: what is done ticked, what is left open. A stale period
 * says why nothing of it is done. Nothing is fetched; a part the result lacks is left out.
 *
 * @module
 */

/** The checklist renderer script (needs `PrioryDom` and `PrioryLabels`). */
export const TODAY_RENDER_JS = String.raw`
var PrioryToday = (function (D, L) {
  "use strict";
  var el = D.el;
  var timer = null;

  /** "3 d 4 h", "5 h 12 min", "7 min" until the ISO time, from now. */
  function until(iso) {
    var left = Math.max(0, Date.parse(iso) - Date.now());
    var minutes = Math.floor(left / 60000);
    var days = Math.floor(minutes / 1440), hours = Math.floor(minutes / 60) % 24;
    if (days > 0) return L.t("today.days", days, hours);
    if (hours > 0) return L.t("today.hours", hours, minutes % 60);
    return minutes > 0 ? L.t("today.minutes", minutes) : L.t("today.soon");
  }

  function countdowns(resets) {
    var nodes = [];
    [["daily", "today.dailyReset"], ["weekly", "today.weeklyReset"]].forEach(function (pair) {
      var at = resets && resets[pair[0]];
      if (typeof at !== "string") return;
      var node = el("span", { class: "countdown", title: at.replace("T", " ") });
      node.setAttribute("data-at", at);
      node.setAttribute("data-label", pair[1]);
      nodes.push(node);
    });
    return nodes;
  }

  function tick(root) {
    var nodes = root.querySelectorAll(".countdown");
    for (var i = 0; i < nodes.length; i++) {
      nodes[i].textContent = L.t(nodes[i].getAttribute("data-label"), until(nodes[i].getAttribute("data-at")));
    }
  }

  function mark(done) {
    return el("span", { class: "mark " + (done ? "mark-done" : "mark-left"), "aria-label": L.t(done ? "today.done" : "today.left"), text: done ? "\u2713" : "\u25CB" });
  }

  function item(done, children) {
    return el("li", { class: done ? "done" : "left" }, [mark(done)].concat(children));
  }

  function section(key, summary, body) {
    return el("section", { class: "today-part", "aria-label": L.t(key) }, [
      el("div", { class: "section-head" }, [el("h2", { text: L.t(key) }), summary ? el("span", { class: "muted", text: summary }) : null]),
      body
    ]);
  }

  /** A daily part: the count done, then each name left, open; "and N more" when cut. */
  function tally(key, part) {
    if (!part || !Array.isArray(part.left)) return null;
    var rows = part.left.map(function (name) { return item(false, [el("span", { text: name })]); });
    if (part.more) rows.push(el("li", { class: "more muted", text: L.t("today.more", D.count(part.more)) }));
    if (!rows.length) rows.push(item(true, [el("span", { text: L.t("today.allDone") })]));
    return section(key, L.t("today.doneOf", D.count(part.done), D.count(part.of)), el("ul", { class: "checklist" }, rows));
  }

  function crafts(rows) {
    if (!Array.isArray(rows)) return null;
    var done = rows.filter(function (row) { return row.done; }).length;
    return section("today.part.dailyCrafting", L.t("today.doneOf", D.count(done), D.count(rows.length)), el("ul", { class: "checklist" }, rows.map(function (row) {
      var earns = typeof row.profit === "number"
        ? el("span", { class: "muted earns" }, [L.t("today.earns") + " ", D.money(row.profit, row.profit < 0 ? "neg" : "pos"), row.via ? " " + L.t("today.via", row.via.name) : null])
        : null;
      return item(row.done, [el("span", { text: row.name }), earns]);
    })));
  }

  function raids(part) {
    if (!part || !Array.isArray(part.wings)) return null;
    return section("today.part.raids", L.t("today.clearedOf", D.count(part.cleared), D.count(part.of)), el("div", { class: "wings" }, part.wings.map(function (wing) {
      var total = wing.cleared + wing.left.length;
      var rows = wing.left.map(function (name) { return item(false, [el("span", { text: name })]); });
      if (!rows.length) rows.push(item(true, [el("span", { text: L.t("today.allDone") })]));
      return el("div", { class: "wing" }, [
        el("h3", { text: wing.name || wing.id }),
        el("span", { class: "muted", text: L.t("today.clearedOf", D.count(wing.cleared), D.count(total)) }),
        el("ul", { class: "checklist" }, rows)
      ]);
    })));
  }

  function track(key, period) {
    if (!period) return null;
    var objectives = Array.isArray(period.objectives) ? period.objectives : [];
    var rows = objectives.map(function (objective) {
      var complete = objective.claimed || objective.progress >= objective.of;
      return item(complete, [
        el("span", { text: objective.title }),
        el("span", { class: "muted", text: " " + D.count(objective.progress) + "/" + D.count(objective.of) + " \u00B7 " + L.t("today.acclaimEach", D.count(objective.acclaim)) + (complete && !objective.claimed ? " \u00B7 " + L.t("today.toClaim") : "") })
      ]);
    });
    if (!rows.length) rows.push(el("li", { class: "muted", text: L.t("today.noObjectives") }));
    return el("div", { class: "track" }, [
      el("h3", { text: L.t(key) }),
      el("span", { class: "muted", text: L.t("today.doneOf", D.count(period.progress), D.count(period.of)) + " \u00B7 " + L.t(period.claimed ? "today.claimed" : "today.notClaimed") }),
      el("ul", { class: "checklist" }, rows)
    ]);
  }

  function vault(part) {
    if (!part) return null;
    return section("today.part.wizardsVault", part.special ? L.t("today.special", D.count(part.special.done), D.count(part.special.of)) : null,
      el("div", { class: "tracks" }, [track("today.vaultDaily", part.daily), track("today.vaultWeekly", part.weekly)]));
  }

  function cards(data) {
    var list = [];
    if (typeof data.acclaim === "number") {
      list.push(el("div", { class: "card" }, [el("div", { class: "card-label", text: L.t("today.part.acclaim") }), el("div", { class: "card-value", text: D.count(data.acclaim) })]));
    }
    var v = data.wizardsVault;
    [["today.vaultDaily", v && v.daily], ["today.vaultWeekly", v && v.weekly]].forEach(function (pair) {
      if (!pair[1]) return;
      list.push(el("div", { class: "card" }, [
        el("div", { class: "card-label", text: L.t(pair[0]) }),
        el("div", { class: "card-value", text: D.count(pair[1].progress) + " / " + D.count(pair[1].of) }),
        el("div", { class: "card-note", text: L.t(pair[1].claimed ? "today.claimed" : "today.notClaimed") })
      ]));
    });
    return list.length ? el("div", { class: "cards" }, list) : null;
  }

  function notes(data) {
    var list = [];
    (Array.isArray(data.stalePeriods) ? data.stalePeriods : []).forEach(function (period) {
      list.push(el("p", { class: "note note-warn", text: L.t("today.stale." + period) }));
    });
    if (Array.isArray(data.unread) && data.unread.length) {
      list.push(el("p", { class: "note", text: L.t("today.unread", data.unread.map(function (entry) {
        return L.t("today.part." + entry.part) + " (" + entry.scope + ")";
      }).join(", ")) }));
    }
    return list;
  }

  function render(data, container) {
    if (!data || typeof data.resets !== "object" || data.resets === null) throw new Error(L.t("today.notToday"));
    if (timer !== null) clearInterval(timer);
    var article = el("article", { class: "today-view" }, [
      el("header", { class: "head" }, [el("h1", { text: L.t("today.title") })].concat(countdowns(data.resets)))
    ].concat(notes(data)).concat([
      cards(data),
      crafts(data.dailyCrafting),
      tally("today.part.worldBosses", data.worldBosses),
      tally("today.part.mapChests", data.mapChests),
      tally("today.part.dungeons", data.dungeons),
      raids(data.raids),
      vault(data.wizardsVault)
    ]));
    D.clear(container).appendChild(article);
    tick(article);
    timer = setInterval(function () { tick(article); }, 20000);
  }

  return { render: render };
})(PrioryDom, PrioryLabels);
`;
