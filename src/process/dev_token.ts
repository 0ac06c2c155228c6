/**
 * The bearer token `deno task dev` generates when `MCP_AUTH_TOKEN` is unset, kept in a local
 * file so it survives `--watch` restarts: the client configuration the banner printed keeps
 * working after every edit. The file lives under `.priory/` (git-ignored) in the working
 * directory, readable by its owner only; setting `MCP_AUTH_TOKEN` bypasses it.
 *
 * @module
 */

import { dirname } from "node:path";

/** Where the dev token is kept, relative to the working directory (the project root). */
export const DEV_TOKEN_FILE = ".priory/dev-token";

/** What a stored token must look like: what `generateRandomToken` makes, or a longer one. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,512}$/;

/** The token to use and whether it is kept across restarts. */
export interface DevToken {
  readonly token: string;
  /** False when the file could not be written: the token lasts for this run only. */
  readonly kept: boolean;
}

/**
 * The token kept in `file`, or `fresh` after storing it there. A missing, empty or malformed
 * file is replaced; a file that cannot be written leaves `fresh` for this run only.
 *
 * @example
 * ```ts
 * const { token, kept } = await keepDevToken(generateRandomToken());
 * ```
 */
export async function keepDevToken(
  fresh: string,
  file: string = DEV_TOKEN_FILE,
): Promise<DevToken> {
  const stored = await readStored(file);
  if (stored !== undefined) return { token: stored, kept: true };
  try {
    await Deno.mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(file, `${fresh}\n`, { mode: 0o600 });
    return { token: fresh, kept: true };
  } catch {
    return { token: fresh, kept: false };
  }
}

async function readStored(file: string): Promise<string | undefined> {
  try {
    const token = (await Deno.readTextFile(file)).trim();
    return TOKEN_SHAPE.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}
