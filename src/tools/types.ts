/**
 * The shape of a tool, independent of HTTP and of the MCP SDK: a name, model-facing text, zod
 * schemas for input and output, annotations, and a handler from parsed input and dependencies to
 * the structured result. `src/mcp/server.ts` turns definitions into registered MCP tools.
 *
 * @module
 */

import type { z } from "zod";
import type { AchievementCatalogue } from "../achievements/catalogue.ts";
import type { Clock } from "../async/clock.ts";
import type { CraftScanner } from "../craft/scanner.ts";
import type { Gw2Client } from "../gw2/types.ts";
import type { HistoryReader } from "../history/query.ts";
import type { Logger } from "../log.ts";
import type { MarketSheets } from "../market/sheets.ts";
import type { NameIndex } from "../search/name_index.ts";

/**
 * The process's long-lived services a tool may use besides the GW2 client, built once by
 * `main.ts` and handed to every call unchanged (through the HTTP edge and the MCP endpoint as one
 * bag). Each is optional: a test wires the ones its tools use.
 */
export interface ToolServices {
  /**
   * The market sheet: the whole Trading Post's prices, read in bulk (`src/market/sheets.ts`).
   * `forCall(deadline)` gives a fresh one, reading it within the call's time when it must.
   */
  readonly sheets?: MarketSheets;
  /** The crafting scan (`src/craft/scanner.ts`): the recipe graph and its pass per sheet. */
  readonly crafting?: CraftScanner;
  /**
   * The achievement catalogue (`src/achievements/catalogue.ts`): names in five languages, the
   * items and skins achievements reward or collect, their chains (`priory_achievements`).
   */
  readonly achievements?: AchievementCatalogue;
  /**
   * The Trading Post's price history, read from this server's own snapshots
   * (`priory_price_history`, `priory_flips`, the daily volumes other tools quote).
   */
  readonly history?: HistoryReader;
}

/** What every tool handler may use. Built per call. */
export interface ToolDeps extends ToolServices {
  /**
   * The GW2 client, bound to this call's deadline: every read gives up in time (answering from
   * an expired cache entry when it may, else with a timeout or rate-limit failure).
   */
  readonly gw2: Gw2Client;
  readonly log: Logger;
  /**
   * The player's GW2 API key from the request's `X-GW2-Key` header, trimmed; absent when the
   * header is missing or blank. Never logged, returned or stored.
   */
  readonly gw2Key?: string;
  /**
   * The item-name index (`priory_item_search`). Always wired by `main.ts`; optional so tests of
   * tools that do not search need not build one.
   */
  readonly names?: NameIndex;
  /**
   * Progress for a long call, present only when the client asked for it (a `progressToken` in
   * the request's `_meta`). See {@linkcode ProgressReporter}.
   */
  readonly progress?: ProgressReporter;
  /**
   * The clock of the call (the one its deadline runs on): a tool that reads the time (the
   * resets' countdown, the Trading Post's earnings window) asks it, never `Date.now()`, so tests drive it. Always wired by the MCP
   * server; optional so tests calling a handler directly need not build one.
   */
  readonly clock?: Clock;
  /**
   * Aborts when this call's work must stop (shortly before its deadline). The GW2 reads already
   * obey it; a handler with a long CPU loop checks `signal.aborted` (or calls
   * `signal.throwIfAborted()`) between steps.
   */
  readonly signal?: AbortSignal;
}

/**
 * Tells the client how far a long tool call has got (MCP `notifications/progress`). Reports are
 * sent in call order, each with `progress` one higher than the last (1, 2, ...) and the message;
 * all are delivered before the call's result. Never throws and never blocks the work: a report
 * the client cannot receive is dropped.
 */
export interface ProgressReporter {
  report(message: string): void;
}

/** MCP tool annotations as this project uses them (every tool is a read). */
export interface ToolAnnotations {
  readonly readOnlyHint: true;
  readonly destructiveHint: false;
  readonly idempotentHint: true;
  readonly openWorldHint: boolean;
}

/** One tool. `I` and `O` are the zod input and (object-rooted) output schemas. */
export interface ToolDefinition<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodObject = z.ZodObject,
> {
  /** `gw2_...` for a shaped pass-through of the official API, `priory_...` for our computation. */
  readonly name: string;
  readonly title: string;
  /** Written for a model: opens with `Official GW2 API:` or `Priory-computed:`. */
  readonly description: string;
  readonly inputSchema: I;
  readonly outputSchema: O;
  readonly annotations: ToolAnnotations;
  /**
   * How long a call may take before it answers with a timeout error, in milliseconds. Default
   * 15,000, the contract's bound (its Time section); only a tool that declares its cost (the
   * legendary ranking) raises it.
   */
  readonly deadlineMs?: number;
  /**
   * The `ui://` URI of the tool's MCP Apps view (`src/views/`), published as `_meta.ui` in
   * `tools/list`. Hosts that render views draw the tool's result with it; the result itself is
   * the same with or without one.
   */
  readonly view?: string;
  /** The tool's own wording in its failures' texts (`src/mcp/errors.ts`). */
  readonly errorHints?: ToolErrorHints;
  /**
   * Produces the structured result, or throws: a `Gw2Failure`, a `MissingGw2KeyError`, or
   * anything else (reported as an internal error). Declared as a method so definitions with
   * different schemas share one registry type.
   */
  handle(input: z.output<I>, deps: ToolDeps): Promise<z.output<O>>;
}

/**
 * What a tool says in its failures beyond the shared texts: what a not-found is about and what
 * to check, and what to do about a used-up budget besides waiting (appended to "Retry in N s").
 */
export interface ToolErrorHints {
  /** `what` the lookup is about (the error's own noun when absent), and what to check. */
  readonly notFound?: { readonly what?: string; readonly hint: string };
  /** E.g. `", and batch ids into one call ..."`: it follows "Retry in N s" directly. */
  readonly rateLimited?: string;
}

/** Annotations of a read that reaches the GW2 API. */
export const UPSTREAM_READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/**
 * Identity helper that infers a definition's schema types.
 *
 * @example
 * ```ts
 * export const myTool = defineTool({ name: "gw2_x", ..., async handle(input, deps) { ... } });
 * ```
 */
export function defineTool<I extends z.ZodType, O extends z.ZodObject>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return definition;
}

/** The player's key was needed but the request carried no `X-GW2-Key` header. */
export class MissingGw2KeyError extends Error {
  constructor() {
    super("No GW2 API key: the request has no X-GW2-Key header");
    this.name = "MissingGw2KeyError";
  }
}

/**
 * The `X-GW2-Key` header holds an unexpanded variable reference (`${GW2_API_KEY}`, `$GW2_KEY`):
 * the client configuration's substitution did not happen. GW2 keys (GUID pairs, or JWT
 * subtokens) never contain a `$`, so it is refused without spending a request.
 */
export class UnexpandedGw2KeyError extends Error {
  constructor() {
    super("The X-GW2-Key header holds an unexpanded variable reference");
    this.name = "UnexpandedGw2KeyError";
  }
}

/**
 * The player's key for an account tool.
 *
 * @throws {MissingGw2KeyError} when the request carried none.
 * @throws {UnexpandedGw2KeyError} when it carried a `$` variable reference instead of a key.
 */
export function requireGw2Key(deps: ToolDeps): string {
  if (deps.gw2Key === undefined || deps.gw2Key === "") throw new MissingGw2KeyError();
  if (deps.gw2Key.includes("$")) throw new UnexpandedGw2KeyError();
  return deps.gw2Key;
}

/**
 * The price history from the tool's dependencies.
 *
 * @throws {Error} when the server was wired without one (a programming error, reported as an
 * internal error).
 */
export function requireHistory(deps: ToolDeps): HistoryReader {
  if (deps.history === undefined) {
    throw new Error("Cannot read the price history: this server was started without one");
  }
  return deps.history;
}
