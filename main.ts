/**
 * The process entry: the only module that touches `Deno.env`, `Deno.openKv`, `Deno.serve`
 * and (later) `Deno.cron`. Everything else receives its dependencies as plain parameters.
 *
 * `deno task start` runs it in production mode; `deno task dev` passes `--dev`, which binds to
 * loopback and generates a bearer token when `MCP_AUTH_TOKEN` is unset.
 *
 * @module
 */

import { systemClock } from "./src/clock.ts";
import { type Config, ConfigError, parseConfig } from "./src/config.ts";
import { createGw2Client } from "./src/gw2/client.ts";
import { createHandler } from "./src/http/handler.ts";
import { createLogger } from "./src/log.ts";
import { NameIndex } from "./src/search/name_index.ts";

function loadConfig(): Config {
  try {
    return parseConfig((name) => Deno.env.get(name), {
      mode: Deno.args.includes("--dev") ? "dev" : "start",
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      // deno-lint-ignore no-console -- startup failure goes to stderr, before any logger exists
      console.error(`priory: ${error.message}`);
      Deno.exit(1);
    }
    throw error;
  }
}

/**
 * The dev banner. A generated token is shown (it exists only for this run and the human needs
 * it); a token from the environment is never printed: the command refers to the variable.
 */
function printDevBanner(config: Config, url: string): void {
  const bearer = config.authTokenGenerated ? config.authToken : "$MCP_AUTH_TOKEN";
  const lines = [
    "",
    `Priory MCP (dev) listening on ${url}/mcp`,
    config.authTokenGenerated
      ? `Bearer token for this run (generated; set MCP_AUTH_TOKEN to keep one): ${config.authToken}`
      : "Bearer token: the value of MCP_AUTH_TOKEN",
    "",
    "Add it to Claude Code:",
    `  claude mcp add --scope local --transport http priory ${url}/mcp \\`,
    `    --header "Authorization: Bearer ${bearer}" \\`,
    '    --header "X-GW2-Key: <your GW2 API key, for the account tools>"',
    "",
  ];
  // deno-lint-ignore no-console -- the dev banner is for the human at the terminal
  console.error(lines.join("\n"));
}

const config = loadConfig();
const log = createLogger({ level: config.logLevel });
const kv = await Deno.openKv(config.kvPath);
const names = new NameIndex({ kv, namespace: config.gw2ApiBase, log, clock: systemClock });
void names.warm();
const gw2 = createGw2Client({
  baseUrl: config.gw2ApiBase,
  kv,
  clock: systemClock,
  log,
  rate: { burst: config.rateBurst, perSec: config.ratePerSec },
  // Write-through: every item read from upstream feeds the shared name index.
  onItemsFetched: (items) => names.record(items),
});
const handler = createHandler({ log, gw2, names, config });

const server = Deno.serve({
  hostname: config.hostname,
  port: config.port,
  onListen: ({ hostname, port }) => {
    const host = hostname.includes(":") ? `[${hostname}]` : hostname;
    const displayHost = host === "0.0.0.0" || host === "[::]" ? "localhost" : host;
    log.info("listening", { hostname, port, mode: config.mode });
    if (config.mode === "dev") printDevBanner(config, `http://${displayHost}:${port}`);
  },
}, handler);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info("shutting down", { signal });
  await handler.close();
  await server.shutdown();
  kv.close();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void shutdown(signal));
}
await server.finished;
