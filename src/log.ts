/**
 * Structured logging: one record per line, written through an injected sink so tests can
 * capture every line. By default each line is one JSON object (the contract's log format, what
 * `deno task start` writes); `main.ts` gives `deno task dev` a readable format instead
 * (`src/process/dev_console.ts`). Field names that look like credentials are dropped before any
 * format sees them, as a last line of defence: no caller should ever pass one.
 *
 * @module
 */

import { LOG_LEVELS, type LogLevel } from "./config.ts";

/** Extra fields of one log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/** The logger every module receives as a plain dependency. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** One log record, as a format receives it: credential-named fields already dropped. */
export interface LogRecord {
  /** Epoch milliseconds. */
  readonly ts: number;
  readonly level: LogLevel;
  readonly msg: string;
  readonly fields: LogFields;
}

/** Turns a record into one line of text (without newline). */
export type LogFormat = (record: LogRecord) => string;

/**
 * The contract's format: one JSON object per line, `ts` (ISO 8601), `level`, `msg`, then the
 * fields (a field named `ts`, `level` or `msg` never overrides them).
 */
export function jsonLine({ ts, level, msg, fields }: LogRecord): string {
  const line: Record<string, unknown> = { ts: new Date(ts).toISOString(), level, msg };
  for (const [name, value] of Object.entries(fields)) {
    if (!(name in line)) line[name] = value;
  }
  return JSON.stringify(line);
}

/** Options for {@linkcode createLogger}. */
export interface LoggerOptions {
  /** Lines below this level are not written. */
  readonly level: LogLevel;
  /** Receives each finished line (without newline); defaults to stdout. */
  readonly write?: (line: string) => void;
  /** Clock for the `ts` field; defaults to `Date.now`. */
  readonly now?: () => number;
  /** How a record becomes a line. @default jsonLine */
  readonly format?: LogFormat;
}

const CREDENTIAL_FIELD = /key|token|authorization|secret|password|cookie/i;

/**
 * Creates a JSON-lines logger.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: "info" });
 * log.info("listening", { port: 8000 });
 * // {"ts":"2026-11-29T20:00:00.000Z","level":"info","msg":"listening","port":8000}
 * ```
 */
export function createLogger(options: LoggerOptions): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level);
  // deno-lint-ignore no-console -- stdout is the log sink by contract
  const write = options.write ?? ((line: string) => console.log(line));
  const now = options.now ?? Date.now;
  const format = options.format ?? jsonLine;
  const emit = (level: LogLevel, message: string, fields: LogFields | undefined): void => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields ?? {})) {
      if (!CREDENTIAL_FIELD.test(name)) kept[name] = value;
    }
    write(format({ ts: now(), level, msg: message, fields: kept }));
  };
  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
  };
}

/** A logger that writes nothing: the default for tests that do not inspect logs. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

/**
 * A one-line description of a thrown value for a log field, e.g. `TypeError: database is
 * locked`: name and message only, never a stack (which would carry internal paths into the
 * logs), and only the type of a thrown non-Error (which could be anything).
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : `thrown ${typeof error}`;
}
