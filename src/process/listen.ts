/**
 * Why the server could not listen, said as the operator needs it. `Deno.serve` throws a bare
 * `AddrInUse` (a second server, or the fake GW2 API, on the same port), `AddrNotAvailable` (a
 * `PRIORY_HOSTNAME` this machine does not have) or `PermissionDenied` (a port below 1024 without
 * privileges); uncaught, each is a runtime stack trace. Here each becomes one
 * {@linkcode ConfigError} sentence naming the variable and the fix, which `main.ts` prints like
 * any other configuration problem.
 *
 * @module
 */

import { ConfigError } from "../config.ts";

/** The address the server was asked to listen on. */
export interface ListenAddress {
  readonly hostname: string;
  readonly port: number;
}

/**
 * Maps a listen failure to a {@linkcode ConfigError}; any other error is returned unchanged.
 *
 * @example
 * ```ts
 * try {
 *   return Deno.serve({ hostname, port }, handler);
 * } catch (error) {
 *   throw listenError(error, { hostname, port });
 * }
 * ```
 */
export function listenError(error: unknown, address: ListenAddress): unknown {
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  const where = `Cannot listen on ${host}:${address.port}`;
  if (error instanceof Deno.errors.AddrInUse) {
    return new ConfigError(
      "PORT",
      `${where}: the port is in use by another process (another Priory, or the fake GW2 API?). Stop that process, or set "PORT" to a free port`,
    );
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return new ConfigError(
      "PRIORY_HOSTNAME",
      `${where}: "PRIORY_HOSTNAME" is not an address of this machine. Use 0.0.0.0 (every interface), 127.0.0.1 (this machine only) or one of its own addresses`,
    );
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new ConfigError(
      "PORT",
      `${where}: ports below 1024 need privileges this process does not have. Set "PORT" to 1024 or above (the default is 8000)`,
    );
  }
  return error;
}
