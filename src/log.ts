/**
 * Structured logging: one JSON object per line, written through an injected sink so tests can
 * capture every line. Field names that look like credentials are dropped before writing, as a
 * last line of defence: no caller should ever pass one.
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

/** Options for {@linkcode createLogger}. */
export interface LoggerOptions {
  /** Lines below this level are not written. */
  readonly level: LogLevel;
  /** Receives each finished line (without newline); defaults to stdout. */
  readonly write?: (line: string) => void;
  /** Clock for the `ts` field; defaults to `Date.now`. */
  readonly now?: () => number;
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
  const emit = (level: LogLevel, message: string, fields: LogFields | undefined): void => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const line: Record<string, unknown> = {
      ts: new Date(now()).toISOString(),
      level,
      msg: message,
    };
    for (const [name, value] of Object.entries(fields ?? {})) {
      if (!CREDENTIAL_FIELD.test(name) && !(name in line)) line[name] = value;
    }
    write(JSON.stringify(line));
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
