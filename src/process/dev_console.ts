/**
 * The dev console: how `deno task dev` writes its log, for a human at a terminal. Each record is
 * one short line - local time, then what happened - instead of a JSON object: a tool call reads
 * as its tool, its outcome, its time and its upstream cost; a background job run as the job and
 * its figures; anything else as its message and `name=value` fields, with the level shown when it
 * is not `info`. Upstream chatter (a line per request) is at `debug`, so at the default level the
 * banner stays in view and each tool call is one line.
 *
 * Pure: it formats the records the logger hands it, whose credential-named fields the logger has
 * already dropped; it prints nothing itself. `deno task start` keeps the contract's JSON lines.
 *
 * @module
 */

import type { LogRecord } from "../log.ts";

/**
 * Formats one record for the dev console.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: "info", format: devConsoleLine });
 * log.info("tool call", { tool: "gw2_items", ok: true, ms: 12, upstream: 1, hits: 0 });
 * // 14:05:09  gw2_items                 ok        12 ms  1 upstream request, 0 cache hits
 * ```
 */
export function devConsoleLine(record: LogRecord): string {
  const time = clockTime(record.ts);
  const level = record.level === "info" ? "" : `${record.level.toUpperCase()} `;
  if (record.msg === "tool call" || record.msg === "tool call crashed") {
    return `${time}  ${level}${toolCallLine(record)}`;
  }
  if (record.msg === "background job" || record.msg === "background job failed") {
    return `${time}  ${level}${jobLine(record)}`;
  }
  const fields = fieldList(record.fields);
  return `${time}  ${level}${record.msg}${fields === "" ? "" : `  ${fields}`}`;
}

/** `gw2_items  ok  12 ms  1 upstream request, 3 cache hits`, a failure naming its kind. */
function toolCallLine({ msg, fields }: LogRecord): string {
  const { tool, ok, ms, upstream, hits, overlapped, failure, reason, error, ...rest } = fields;
  const outcome = ok === true ? "ok" : msg === "tool call crashed" ? "crashed" : "failed";
  const why = [failure, reason, error].filter((part) => part !== undefined).map(String);
  const cost = typeof upstream === "number" && typeof hits === "number"
    ? `  ${count(upstream, "upstream request")}, ${count(hits, "cache hit")}${
      overlapped === true ? " (counted with calls running beside it)" : ""
    }`
    : "";
  const extra = fieldList(rest);
  return `${String(tool).padEnd(24)}  ${outcome.padEnd(7)} ${String(ms).padStart(6)} ms${cost}${
    why.length > 0 ? `  ${why.join(": ")}` : ""
  }${extra === "" ? "" : `  ${extra}`}`;
}

/** `job prices  ran  220 ms  ids=525 priced=480`, or skipped with its reason, or failed. */
function jobLine({ msg, fields }: LogRecord): string {
  const { job, outcome, ms, ...rest } = fields;
  const state = msg === "background job failed" ? "failed" : String(outcome);
  const details = fieldList(rest);
  return `job ${String(job).padEnd(20)}  ${state.padEnd(7)} ${String(ms).padStart(6)} ms${
    details === "" ? "" : `  ${details}`
  }`;
}

/** `name=value` pairs; strings with spaces and structured values as JSON; absent ones left out. */
function fieldList(fields: Readonly<Record<string, unknown>>): string {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${fieldValue(value)}`)
    .join(" ");
}

function fieldValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  return JSON.stringify(value) ?? String(value);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The record's time on the local clock, `HH:MM:SS`. */
function clockTime(ts: number): string {
  const date = new Date(ts);
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, "0"))
    .join(":");
}
