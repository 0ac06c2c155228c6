/**
 * The views' stylesheet. Colours and fonts come from the host's style variables when it sends
 * them (`--color-background-primary`, `--font-sans`, ..., applied by the client script), else from
 * the light or dark fallbacks here; no font or image is fetched.
 *
 * @module
 */

/**
 * The dark fallbacks, written once: for a host that says `theme: "dark"` and for a dark system
 * preference when the host names no theme.
 */
const DARK_PALETTE = String.raw`
  --bg: var(--color-background-primary, #1e1e1c);
  --bg-2: var(--color-background-secondary, #2a2a27);
  --fg: var(--color-text-primary, #ecebe6);
  --fg-2: var(--color-text-secondary, #a9a8a1);
  --line: var(--color-border-primary, #44433f);
  --accent: var(--color-ring-primary, #7ea2ee);
  --good: var(--color-text-success, #6cc788);
  --bad: var(--color-text-danger, #ef8a80);
  --warn: var(--color-text-warning, #e0b35a);
  --gold: #e6c35c;
  --silver: #c5c9ce;
  --copper: #d98a5f;
`;

/** The shared stylesheet. */
export const VIEW_CSS = String.raw`
:root {
  color-scheme: light dark;
  --bg: var(--color-background-primary, #ffffff);
  --bg-2: var(--color-background-secondary, #f4f4f2);
  --fg: var(--color-text-primary, #1f1f1d);
  --fg-2: var(--color-text-secondary, #5f5e5a);
  --line: var(--color-border-primary, #dcdad4);
  --accent: var(--color-ring-primary, #3565c4);
  --good: var(--color-text-success, #1f7a3a);
  --bad: var(--color-text-danger, #b3261e);
  --warn: var(--color-text-warning, #8a5a00);
  --gold: #b8860b;
  --silver: #7d8288;
  --copper: #a0522d;
  --radius: var(--border-radius-md, 8px);
  --font: var(--font-sans, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
}
:root[data-theme="dark"] {${DARK_PALETTE}}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {${DARK_PALETTE}}
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--fg); }
body { font: 14px/1.45 var(--font); padding: 14px 16px 16px; }
h1 { font-size: 20px; margin: 0; }
h2 { font-size: 15px; margin: 0; }
button { font: inherit; color: inherit; }
.muted { color: var(--fg-2); }
.status { color: var(--fg-2); margin: 8px 0; }
.status-error { color: var(--bad); }
.head { display: flex; align-items: baseline; gap: 10px; flex-wrap: wrap; margin-bottom: 12px; }
.head .qty { color: var(--fg-2); font-size: 16px; }

.money { white-space: nowrap; font-variant-numeric: tabular-nums; }
.coin-g { color: var(--gold); }
.coin-s { color: var(--silver); }
.coin-c { color: var(--copper); }
.money.pos .coin, .pos .money .coin { font-weight: 600; }
.money.neg, .neg .money { color: var(--bad); }
.money.neg .coin, .neg .money .coin { color: var(--bad); }

.badge {
  display: inline-block; min-width: 64px; text-align: center; padding: 1px 5px; border-radius: 999px;
  font-size: 10px; font-weight: 600; text-transform: uppercase; letter-spacing: .02em;
  border: 1px solid currentColor; line-height: 16px; white-space: nowrap;
}
.badge-buy { color: #2f6fb5; }
.badge-craft { color: #2e8540; }
.badge-forge { color: #8a4fbf; }
.badge-vendor { color: #b07000; }
.badge-owned { color: #178a86; }
.badge-unavailable, .badge-earn { color: var(--bad); }
.badge-coin, .badge-currency { color: var(--fg-2); }

.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; margin-bottom: 10px; }
.card { background: var(--bg-2); border: 1px solid var(--line); border-radius: var(--radius); padding: 8px 10px; }
.card-label { font-size: 12px; color: var(--fg-2); }
.card-value { font-size: 16px; font-weight: 600; margin-top: 2px; }
.card-note { font-size: 11px; color: var(--fg-2); margin-top: 2px; }
.card-profit.pos { border-color: var(--good); }
.card-profit.neg { border-color: var(--bad); }

.notes { list-style: none; padding: 0; margin: 0 0 10px; }
.note { margin: 4px 0; color: var(--fg-2); }
.note-warn { color: var(--warn); }

.section-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin: 14px 0 6px; flex-wrap: wrap; }
.toolbar { display: flex; gap: 4px; align-items: center; }
.toolbar button, .panel-head button {
  background: var(--bg-2); border: 1px solid var(--line); border-radius: 6px; padding: 1px 9px; cursor: pointer;
}
.toolbar button:hover, .panel-head button:hover { border-color: var(--accent); }

.tree, .tree ul { list-style: none; margin: 0; padding: 0; }
.tree ul { margin-left: 14px; padding-left: 10px; border-left: 1px dashed var(--line); }
.tree summary { cursor: pointer; list-style: none; }
.tree summary::-webkit-details-marker { display: none; }
.tree summary::before { content: "\25B8"; display: inline-block; width: 14px; color: var(--fg-2); }
.tree details[open] > summary::before { content: "\25BE"; }
.tree .leaf > .line { padding-left: 14px; }
.line {
  display: inline-grid; grid-template-columns: 100px minmax(120px, 1fr) auto auto 120px 140px;
  align-items: center; gap: 8px; width: calc(100% - 14px); padding: 2px 0;
}
.tree .leaf > .line { width: 100%; }
.line .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.line .qty { color: var(--fg-2); white-space: nowrap; }
.line .cost { text-align: right; }
.line .alt-wrap { text-align: right; font-size: 12px; color: var(--fg-2); }
.facts { display: flex; gap: 4px; }
.chip { font-size: 11px; padding: 0 6px; border-radius: 999px; background: var(--bg-2); border: 1px solid var(--line); color: var(--fg-2); white-space: nowrap; }
.chip-own { color: #178a86; border-color: #178a86; }
.tree summary:hover, .tree .leaf:hover { background: var(--bg-2); }

.grid { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
.grid th, .grid td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
.grid thead th { font-size: 12px; color: var(--fg-2); font-weight: 600; }
.grid tfoot th, .grid tfoot td { font-weight: 600; border-bottom: 0; }
.grid .num { text-align: right; }
.grid tr.short td { color: var(--warn); }
.shopping h2 { margin: 16px 0 6px; }

.ranking tbody tr { cursor: pointer; }
.ranking tbody tr:hover, .ranking tbody tr.chosen { background: var(--bg-2); }
.ranking tr.chosen td:first-child { box-shadow: inset 3px 0 0 var(--accent); }
.ranking .rank { width: 28px; color: var(--fg-2); }
.sort { background: none; border: 0; padding: 0; cursor: pointer; font-weight: 600; color: var(--fg-2); }
.sort:hover { color: var(--fg); }
.open { background: none; border: 0; padding: 0; cursor: pointer; font-weight: 600; text-align: left; color: var(--fg); }
.open:hover, .open:focus-visible { color: var(--accent); text-decoration: underline; }
.caveat { font-size: 11px; margin-top: 2px; }
.caveat .badge { min-width: 0; font-size: 9px; line-height: 12px; }
.profit { min-width: 180px; }
.bar { display: block; position: relative; height: 6px; margin-top: 4px; background: var(--bg-2); border-radius: 3px; overflow: hidden; }
.bar-two::after { content: ""; position: absolute; left: 50%; top: 0; bottom: 0; width: 1px; background: var(--fg-2); }
.bar .fill { position: absolute; top: 0; bottom: 0; border-radius: 3px; }
.bar .fill.pos { background: var(--good); }
.bar .fill.neg { background: var(--bad); }
.hint { font-size: 12px; margin: 8px 0 0; }
.tree-panel { margin-top: 14px; border-top: 2px solid var(--line); padding-top: 10px; }
.panel-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; margin-bottom: 8px; }
.tree-panel .tree-view h1 { font-size: 17px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }

.card-note.trend-down { color: var(--bad); }
.card-note.trend-up { color: var(--good); }
.history-item { margin-top: 14px; padding-top: 4px; border-top: 1px solid var(--line); }
.history-item:first-of-type { border-top: 0; }
.chart-frame { position: relative; }
.chart { display: block; width: 100%; height: 200px; background: var(--bg-2); border-radius: var(--radius); }
.chart .axis { stroke: var(--line); stroke-width: 1; }
.chart polyline { fill: none; stroke-width: 2; vector-effect: non-scaling-stroke; stroke-linejoin: round; }
.chart .line-sell { stroke: var(--accent); }
.chart .line-buy { stroke: var(--good); stroke-dasharray: 5 3; }
.chart .dot-sell { fill: var(--accent); }
.chart .dot-buy { fill: var(--good); }
.chart .bar-sold { fill: var(--accent); opacity: .45; }
.chart .bar-bought { fill: var(--good); opacity: .45; }
.chart-scale { position: absolute; top: 4px; right: 8px; bottom: 64px; display: flex; flex-direction: column; justify-content: space-between; font-size: 11px; color: var(--fg-2); pointer-events: none; text-align: right; }
.chart-time { display: flex; justify-content: space-between; font-size: 11px; margin-top: 2px; }
.legend { font-size: 12px; display: flex; gap: 4px; align-items: center; flex-wrap: wrap; margin: 0 0 4px; }
.key { display: inline-block; width: 14px; height: 3px; margin-left: 8px; vertical-align: middle; }
.key-sell { background: var(--accent); }
.key-buy { background: var(--good); }
.key-sold { background: var(--accent); opacity: .45; height: 9px; width: 8px; }
.key-bought { background: var(--good); opacity: .45; height: 9px; width: 8px; }

.countdown { font-size: 13px; color: var(--fg-2); padding: 1px 8px; border: 1px solid var(--line); border-radius: 999px; }
.today-part { margin-top: 4px; }
.checklist { list-style: none; margin: 0; padding: 0; columns: 2 220px; column-gap: 18px; }
.checklist li { break-inside: avoid; padding: 1px 0; }
.checklist li.done > span:not(.mark) { color: var(--fg-2); }
.mark { display: inline-block; width: 18px; font-weight: 700; }
.mark-done { color: var(--good); }
.mark-left { color: var(--fg-2); }
.earns { font-size: 12px; margin-left: 6px; }
.wings, .tracks { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 6px 18px; }
.wing h3, .track h3 { font-size: 13px; margin: 6px 0 0; }
.wing .checklist, .track .checklist { columns: 1; }
.badge-undercut, .badge-outbid { color: var(--bad); }
.badge-best { color: var(--good); }
.tp-section h2 { margin-top: 4px; }
`;
