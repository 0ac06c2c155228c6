/**
 * The bench's output: a plain-text table of figures (with the ratio to the floor where there is
 * one), the targets with PASS/FAIL, and the machine-readable results document.
 *
 * @module
 */

import type { CheckedTarget, ScenarioOutcome } from "./runner.ts";
import type { BenchOptions } from "./scenario.ts";

/** Where and on what the run happened. */
export interface RunEnvironment {
  readonly date: string;
  readonly deno: string;
  readonly v8: string;
  readonly typescript: string;
  readonly os: string;
  readonly cpu: string;
  readonly cpus: number;
  /** Load average (1, 5, 15 min) at the start and at the end of the run. */
  readonly loadStart: readonly number[];
  readonly loadEnd: readonly number[];
  readonly sdk: string;
}

/** The results file's document. */
export interface Results {
  readonly environment: RunEnvironment;
  readonly options: BenchOptions;
  readonly scenarios: readonly ScenarioOutcome[];
  /** True when every non-stretch target passed and no scenario failed. */
  readonly passed: boolean;
}

/** Whether a run passed: no failed scenario and no missed non-stretch target. */
export function passed(outcomes: readonly ScenarioOutcome[]): boolean {
  return outcomes.every((outcome) =>
    outcome.status !== "failed" && outcome.targets.every((target) => target.pass || target.stretch)
  );
}

/** Renders a number for the table: enough digits to compare, no more. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return String(value);
  const digits = Math.abs(value) >= 100 || Number.isInteger(value)
    ? 0
    : Math.abs(value) >= 10
    ? 1
    : 2;
  const text = value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return unit === "×" ? `${text}×` : unit === "%" ? `${text} %` : `${text} ${unit}`;
}

/** The figures table. */
export function figuresTable(outcomes: readonly ScenarioOutcome[]): string {
  const rows: string[][] = [["scenario", "figure", "value", "floor", "ratio", "note"]];
  for (const outcome of outcomes) {
    if (outcome.status !== "ok") {
      const reason = outcome.reason ?? "";
      const short = reason.length > 100 ? `${reason.slice(0, 99)}…` : reason;
      rows.push([outcome.name, outcome.status, "", "", "", short]);
      continue;
    }
    outcome.figures.forEach((figure, index) => {
      rows.push([
        index === 0 ? outcome.name : "",
        figure.label,
        formatValue(figure.value, figure.unit),
        figure.floor === undefined ? "" : formatValue(figure.floor, figure.unit),
        figure.floor === undefined ? "" : formatValue(figure.value / figure.floor, "×"),
        figure.note ?? "",
      ]);
    });
  }
  return table(rows, [false, false, true, true, true, false]);
}

/** The targets table. */
export function targetsTable(outcomes: readonly ScenarioOutcome[]): string {
  const rows: string[][] = [["target", "figure", "bound", "verdict"]];
  for (const outcome of outcomes) {
    for (const target of outcome.targets) rows.push(targetRow(target));
  }
  return table(rows, [false, true, true, false]);
}

function targetRow(target: CheckedTarget): string[] {
  const bounds = [
    target.min === undefined ? undefined : `≥ ${formatValue(target.min, target.unit)}`,
    target.max === undefined ? undefined : `≤ ${formatValue(target.max, target.unit)}`,
  ].filter((bound) => bound !== undefined).join(", ");
  const verdict = target.pass ? "PASS" : target.stretch ? "missed (stretch)" : "FAIL";
  return [target.label, formatValue(target.value, target.unit), bounds, verdict];
}

/** Pads columns; `right` aligns numeric columns to the right. */
function table(rows: readonly string[][], right: readonly boolean[]): string {
  const widths = right.map((_, column) =>
    Math.max(...rows.map((row) => [...(row[column] ?? "")].length))
  );
  const line = (row: readonly string[]) =>
    row.map((cell, column) => {
      const pad = " ".repeat((widths[column] ?? 0) - [...cell].length);
      return right[column] ? pad + cell : cell + pad;
    }).join("  ").trimEnd();
  const [head, ...body] = rows;
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [line(head ?? []), rule, ...body.map(line)].join("\n");
}
