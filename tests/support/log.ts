/**
 * Log capture for tests: a real JSON-lines logger whose lines are kept, so tests can assert what
 * was logged — and, above all, that no credential ever was.
 *
 * @module
 */

import type { Clock } from "../../src/async/clock.ts";
import { createLogger, type Logger } from "../../src/log.ts";

/** A logger at debug level whose lines are kept for inspection. */
export function captureLogs(clock?: Clock): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = createLogger({
    level: "debug",
    write: (line) => lines.push(line),
    ...(clock === undefined ? {} : { now: () => clock.now() }),
  });
  return { log, lines };
}

/** The parsed lines with a given `msg`. */
export function logRecords(lines: readonly string[], msg: string): Record<string, unknown>[] {
  return lines.map(parseLine).filter((record) => record.msg === msg);
}

function parseLine(line: string): Record<string, unknown> {
  const value: unknown = JSON.parse(line);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`Cannot read a log line: not a JSON object: ${line}`);
  }
  return Object.fromEntries(Object.entries(value));
}
