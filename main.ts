/**
 * The process entry: the only module that touches `Deno.env`, `Deno.openKv`, `Deno.serve`
 * and `Deno.cron`. Everything else receives its dependencies as plain parameters.
 *
 * `deno task start` runs it in production mode; `deno task dev` passes `--dev`, which binds to
 * loopback and generates a bearer token when `MCP_AUTH_TOKEN` is unset.
 *
 * @module
 */

import { backgroundClientOptions, createBackgroundJobs, CRON_JOBS } from "./src/background/jobs.ts";
import { RecipeCatalogue } from "./src/catalogue/recipe_catalogue.ts";
import { withRecipeCatalogue } from "./src/catalogue/recipe_lookup.ts";
import { RecipeStore } from "./src/catalogue/recipe_store.ts";
import { systemClock } from "./src/clock.ts";
import { type Config, ConfigError, parseConfig } from "./src/config.ts";
import { createGw2Client } from "./src/gw2/client.ts";
import type { Item } from "./src/gw2/schemas.ts";
import type { Gw2Client } from "./src/gw2/types.ts";
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
const recipeStore = new RecipeStore({ kv, namespace: config.gw2ApiBase });
const recipes = new RecipeCatalogue({ store: recipeStore, clock: systemClock, log });
if (config.catalogue) void recipes.warm();
const upstream = {
  baseUrl: config.gw2ApiBase,
  kv,
  clock: systemClock,
  log,
  rate: { burst: config.rateBurst, perSec: config.ratePerSec },
  // Write-through: every item read from upstream feeds the shared name index.
  onItemsFetched: (items: readonly Item[]) => names.record(items),
};
// Recipe lookups come from the crawled catalogue once it is complete (PRIORY_CATALOGUE).
const withCatalogue = <C extends Gw2Client>(client: C): C =>
  config.catalogue ? withRecipeCatalogue(client, recipes) : client;
const gw2 = withCatalogue(createGw2Client(upstream));
// The background jobs' own client: same cache and bucket, a reserve left to interactive calls.
const backgroundGw2 = createGw2Client({
  ...upstream,
  ...backgroundClientOptions(config.rateBurst),
});
const background = createBackgroundJobs({
  kv,
  namespace: config.gw2ApiBase,
  owner: crypto.randomUUID(),
  clock: systemClock,
  log,
  gw2: withCatalogue(backgroundGw2),
  pages: backgroundGw2,
  names,
  recipes: recipeStore,
  catalogue: recipes,
  catalogueEnabled: config.catalogue,
  ratePerSec: config.ratePerSec,
});
// Registered at top level, before Deno.serve, so Deno Deploy discovers them; always all three
// (a conditional registration is not discovered): the crawl itself does nothing when off.
Deno.cron(CRON_JOBS.warm.name, CRON_JOBS.warm.schedule, {
  backoffSchedule: CRON_JOBS.warm.backoffSchedule,
  signal: background.signal,
}, background.warm);
Deno.cron(CRON_JOBS.prices.name, CRON_JOBS.prices.schedule, {
  backoffSchedule: CRON_JOBS.prices.backoffSchedule,
  signal: background.signal,
}, background.prices);
Deno.cron(CRON_JOBS.catalogue.name, CRON_JOBS.catalogue.schedule, {
  backoffSchedule: CRON_JOBS.catalogue.backoffSchedule,
  signal: background.signal,
}, background.catalogue);
// The warm-up also runs now, unawaited: the first request never waits for it.
void background.startup();
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
  const stopped = background.stop();
  await handler.close();
  await server.shutdown();
  await stopped;
  kv.close();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void shutdown(signal));
}
await server.finished;
