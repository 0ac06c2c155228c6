/**
 * Opening the Deno KV store that `PRIORY_KV_PATH` names. A file path gets its folder created
 * first (SQLite creates the file, not the folders); a failure of any kind becomes one
 * {@linkcode ConfigError} sentence naming `PRIORY_KV_PATH`, the cause and the fix, instead of a
 * runtime stack trace. `Deno.openKv` itself is handed in by `main.ts`, the one module allowed to
 * touch it.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { type Clock, systemClock } from "../async/clock.ts";
import { ConfigError } from "../config.ts";

/**
 * How long a KV Connect URL gets to answer. Deno 2.5 keeps retrying an unreachable server
 * forever; a server that never starts is worse than one that says why it cannot.
 */
export const REMOTE_OPEN_TIMEOUT_MS = 10_000;

/** `Deno.openKv`'s shape. */
export type OpenKv = (path?: string) => Promise<Deno.Kv>;

/** What `PRIORY_KV_PATH` points at. */
export type KvLocation = "default" | "memory" | "remote" | "file";

/** Classifies a `PRIORY_KV_PATH` value (`undefined`: unset, Deno's default location). */
export function kvLocation(path: string | undefined): KvLocation {
  if (path === undefined) return "default";
  if (path === ":memory:") return "memory";
  return /^https?:\/\//i.test(path) ? "remote" : "file";
}

/** Options of {@linkcode openKvStore}. */
export interface OpenKvStoreOptions {
  /** @default systemClock */
  readonly clock?: Clock;
  /** @default REMOTE_OPEN_TIMEOUT_MS */
  readonly remoteTimeoutMs?: number;
}

/**
 * Opens the KV store at `path`, creating the folder of a file path first.
 *
 * @example
 * ```ts
 * const kv = await openKvStore(config.kvPath, (path) => Deno.openKv(path));
 * ```
 * @throws {ConfigError} naming `PRIORY_KV_PATH` when the store cannot be opened.
 */
export async function openKvStore(
  path: string | undefined,
  openKv: OpenKv,
  options: OpenKvStoreOptions = {},
): Promise<Deno.Kv> {
  const location = kvLocation(path);
  if (location === "file" && path !== undefined) await createFolder(path);
  try {
    if (location !== "remote") return await openKv(path);
    return await withTimeout(
      openKv(path),
      options.remoteTimeoutMs ?? REMOTE_OPEN_TIMEOUT_MS,
      options.clock ?? systemClock,
    );
  } catch (error) {
    throw new ConfigError("PRIORY_KV_PATH", openFailure(path, location, error));
  }
}

/** `opening`, or a rejection naming the wait once `ms` pass (a store opened late is closed). */
async function withTimeout(opening: Promise<Deno.Kv>, ms: number, clock: Clock): Promise<Deno.Kv> {
  const timer = new AbortController();
  const expired = clock.timer(ms, timer.signal).then((): never => {
    throw new Error(`no answer within ${ms / 1000} s`);
  });
  expired.catch(() => {}); // settled by the abort below when `opening` wins
  try {
    return await Promise.race([opening, expired]);
  } catch (error) {
    opening.then((late) => late.close(), () => {});
    throw error;
  } finally {
    timer.abort();
  }
}

async function createFolder(path: string): Promise<void> {
  const folder = dirname(resolve(path));
  try {
    await Deno.mkdir(folder, { recursive: true });
  } catch (error) {
    throw new ConfigError(
      "PRIORY_KV_PATH",
      `Cannot use "PRIORY_KV_PATH" (${path}): its folder ${folder} cannot be created (${
        reason(error)
      }). Point it at a file in a folder this user can write, or unset it to use Deno's default location`,
    );
  }
}

/** The one sentence for a failed `openKv`: what was tried, why it failed, what to do. */
function openFailure(path: string | undefined, location: KvLocation, error: unknown): string {
  const cause = reason(error);
  switch (location) {
    case "default":
      return `Cannot open Deno KV at its default location (${cause}). Set "PRIORY_KV_PATH" to a file path this user can write`;
    case "memory":
      return `Cannot open an in-memory Deno KV (":memory:" in "PRIORY_KV_PATH"): ${cause}`;
    case "remote":
      return `Cannot open the KV Connect database in "PRIORY_KV_PATH" (${
        safeUrl(path)
      }): ${cause}. Check the URL, that the denokv server is reachable, and that DENO_KV_ACCESS_TOKEN holds its access token`;
    case "file":
      if (error instanceof Deno.errors.NotCapable) {
        return `Cannot open "PRIORY_KV_PATH" (${path}): Deno was not granted read and write access to it. Start with \`deno task start\` or \`deno task dev\`, or grant --allow-read and --allow-write for that path`;
      }
      return `Cannot open "PRIORY_KV_PATH" (${path}) as a Deno KV file (${cause}). Point it at a new or existing Deno KV file in a folder this user can write, or unset it to use Deno's default location`;
  }
}

/**
 * The first line of an error's message: enough to act on, never a stack. Deno's own advice to
 * "run again with the --allow-all flag" (its answer for system paths such as `/proc`) is cut:
 * the fix is another path, never all permissions.
 */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n")[0]?.replace(/,? *run again with the --allow-\S+ flag/, "");
  return line?.trim() || "unknown error";
}

/** A KV Connect URL without credentials, query or fragment, for the operator's terminal. */
function safeUrl(path: string | undefined): string {
  try {
    const url = new URL(path ?? "");
    return `${url.origin}${url.pathname}`;
  } catch {
    return "an unreadable URL";
  }
}
