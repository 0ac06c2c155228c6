/**
 * The process entry: the only module that touches `Deno.env`, `Deno.openKv`, `Deno.serve`
 * and `Deno.cron`. Everything else receives its dependencies as plain parameters.
 *
 * `deno task start` runs it in production mode; `deno task dev` passes `--dev`, which binds to
 * loopback and, when `MCP_AUTH_TOKEN` is unset, uses a generated token kept in
 * `.priory/dev-token` so it survives `--watch` restarts. `deno task dev --public` (or
 * `PRIORY_AUTH=oauth`) runs the public mode locally: players sign in with OAuth, and an unset
 * `PRIORY_SECRET` is generated and kept in `.priory/dev-secret`.
 *
 * Order matters on Deno Deploy: cron jobs are registered at the top level before `Deno.serve`
 * (the platform discovers them by evaluating this module), and shutdown drains requests before
 * closing anything (SIGINT, then SIGKILL 5 s later).
 *
 * @module
 */

import { backgroundClientOptions, createBackgroundJobs, CRON_JOBS } from "./src/background/jobs.ts";
import { runtimeCollect } from "./src/background/release.ts";
import { RecipeCatalogue } from "./src/catalogue/recipe_catalogue.ts";
import { AchievementCatalogue } from "./src/achievements/catalogue.ts";
import { AchievementStore } from "./src/achievements/store.ts";
import { catalogueRecipeIndex, lazyPages } from "./src/catalogue/recipe_lookup.ts";
import { RecipeStore } from "./src/catalogue/recipe_store.ts";
import { CraftScanner } from "./src/craft/scanner.ts";
import { systemClock } from "./src/async/clock.ts";
import { currentDeadline } from "./src/async/deadline.ts";
import { Foreground, GIVE_WAY_MS } from "./src/async/foreground.ts";
import { slicePacer } from "./src/async/slices.ts";
import { type Config, ConfigError, parseConfig } from "./src/config.ts";
import { type DevToken, keepDevToken } from "./src/process/dev_token.ts";
import {
  BucketPriority,
  createGw2Client,
  type InstrumentedGw2Client,
  TokenBucket,
} from "./src/gw2/client.ts";
import type { CatalogueItem } from "./src/gw2/schemas.ts";
import type { Gw2PagedReads, Lang } from "./src/gw2/types.ts";
import { HistoryReader } from "./src/history/query.ts";
import { HistoryStore } from "./src/history/store.ts";
import { createHandler } from "./src/http/handler.ts";
import { openKvStore } from "./src/process/kv_open.ts";
import { listenError } from "./src/process/listen.ts";
import { createLogger } from "./src/log.ts";
import { MarketSheets } from "./src/market/sheets.ts";
import { SheetStore } from "./src/market/sheet_store.ts";
import { CallMeter } from "./src/metrics.ts";
import { devConsoleLine } from "./src/process/dev_console.ts";
import { NameIndex } from "./src/search/name_index.ts";
import { shutDown } from "./src/process/shutdown.ts";

/** Prints a configuration problem as one line and exits 1; anything else is a real crash. */
function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    // deno-lint-ignore no-console -- startup failure goes to stderr, before any logger exists
    console.error(`priory: ${error.message}`);
    Deno.exit(1);
  }
  throw error;
}

function loadConfig(): Config {
  try {
    const mode = Deno.args.includes("--dev") ? "dev" : "start";
    return parseConfig((name) => Deno.env.get(name), {
      mode,
      public: mode === "dev" && Deno.args.includes("--public"),
    });
  } catch (error) {
    exitOnConfigError(error);
  }
}

/**
 * The dev banner. A generated token is shown (the human needs it; it is kept in
 * `.priory/dev-token`); a token from the environment is never printed: the command refers to
 * the variable.
 */
function printDevBanner(devToken: DevToken | undefined, url: string): void {
  if (config.publicMode !== undefined) {
    printPublicBanner(devToken, config.publicMode.publicUrl);
    return;
  }
  const bearer = devToken?.token ?? "$MCP_AUTH_TOKEN";
  const tokenLine = devToken === undefined
    ? "Bearer token: the value of MCP_AUTH_TOKEN"
    : devToken.kept
    ? `Bearer token (generated once, kept in .priory/dev-token; set MCP_AUTH_TOKEN to use your own): ${devToken.token}`
    : `Bearer token for this run only (.priory/dev-token could not be written; set MCP_AUTH_TOKEN to keep one): ${devToken.token}`;
  const lines = [
    "",
    `Priory MCP (dev) listening on ${url}/mcp`,
    tokenLine,
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

/** The dev banner of the public mode: the URL to add, no token; the operator token beside. */
function printPublicBanner(devToken: DevToken | undefined, publicUrl: string): void {
  const lines = [
    "",
    `Priory MCP (dev, public mode: players sign in with OAuth) listening on ${publicUrl}/mcp`,
    "",
    "Add it to a client with no token: it discovers the sign-in and opens the consent page.",
    `  claude mcp add --scope local --transport http priory ${publicUrl}/mcp`,
    `  npx mcp-remote@0.15.1 ${publicUrl}/mcp`,
    `Players' front page: ${publicUrl}/ (what the server is, how to add it); sign-out: ${publicUrl}/signout`,
    `Give the consent page a GW2 API key${
      config.gw2ApiBase.startsWith("http://127.0.0.1")
        ? " (against the fake: one of the test keys `deno task fake-gw2` prints)"
        : ""
    }${
      config.publicMode?.gw2me === undefined
        ? ""
        : `, or sign in with gw2.me (${config.publicMode.gw2me.url})`
    }.`,
    devToken === undefined
      ? "Operators may still use MCP_AUTH_TOKEN with X-GW2-Key."
      : `Operators may still use the static token with X-GW2-Key: ${devToken.token}`,
    config.publicMode?.secretGenerated === true
      ? "PRIORY_SECRET: generated, kept in .priory/dev-secret (delete it to sign everyone out)."
      : "PRIORY_SECRET: from the environment.",
    "",
  ];
  // deno-lint-ignore no-console -- the dev banner is for the human at the terminal
  console.error(lines.join("\n"));
}

const parsed = loadConfig();
// `dev` without MCP_AUTH_TOKEN: reuse the token of earlier runs (or keep this one for later).
const devToken = parsed.authTokenGenerated ? await keepDevToken(parsed.authToken) : undefined;
// `dev --public` without PRIORY_SECRET: likewise, so sign-ins survive `--watch` restarts.
const devSecret = parsed.publicMode?.secretGenerated === true
  ? await keepDevToken(parsed.publicMode.secret, ".priory/dev-secret")
  : undefined;
const config: Config = {
  ...parsed,
  ...(devToken === undefined ? {} : { authToken: devToken.token }),
  ...(devSecret === undefined || parsed.publicMode === undefined
    ? {}
    : { publicMode: { ...parsed.publicMode, secret: devSecret.token } }),
};
// `dev` writes the log for a human (one readable line per tool call or job run); `start` keeps
// the contract's one JSON object per line.
const log = createLogger({
  level: config.logLevel,
  ...(config.mode === "dev" ? { format: devConsoleLine } : {}),
});
const kv = await openKvStore(config.kvPath, (path) => Deno.openKv(path)).catch(exitOnConfigError);
// Tool calls in flight: background work (the index's load and packing, background requests)
// gives way to them, and the index's CPU runs in slices between requests (docs/decisions.md,
// "At the real scale").
const foreground = new Foreground();
const pacer = slicePacer({ clock: systemClock, foreground });
const names = new NameIndex({ kv, namespace: config.gw2ApiBase, log, clock: systemClock, pacer });
void names.warm();
const recipeStore = new RecipeStore({ kv, namespace: config.gw2ApiBase });
const recipes = new RecipeCatalogue({ store: recipeStore, clock: systemClock, log });
if (config.catalogue) void recipes.warm();
// The achievement catalogue (issue 30): crawled after the items, or filled on demand by a call
// through the interactive client's pages, within that call's deadline.
const achievementStore = new AchievementStore({ kv, namespace: config.gw2ApiBase });
const achievements = new AchievementCatalogue({
  store: achievementStore,
  clock: systemClock,
  log,
  pages: (page, size, lang) => interactive.achievementsPage(page, size, currentDeadline(), lang),
});
// The whole Trading Post, read in bulk by the sheet job (or on demand by a tool call, over the
// interactive client): while fresh it answers every price read (`priceSheet` below).
const sheets = new MarketSheets({
  store: new SheetStore({ kv, namespace: config.gw2ApiBase }),
  clock: systemClock,
  log,
  pages: { pricesPage: (page, size, deadline) => interactive.pricesPage(page, size, deadline) },
  // One sheet a snapshot of the price history: PRIORY_SNAPSHOT_MINUTES sets the sheet's period.
  periodMs: config.snapshotMinutes * 60_000,
});
void sheets.current();
// The Trading Post's price history: written by the background jobs, read by the tools.
const historyStore = new HistoryStore({ kv, namespace: config.gw2ApiBase, clock: systemClock });
const history = new HistoryReader({
  store: historyStore,
  clock: systemClock,
  snapshotMinutes: config.snapshotMinutes,
});
const upstream = {
  baseUrl: config.gw2ApiBase,
  kv,
  clock: systemClock,
  log,
  rate: { burst: config.rateBurst, perSec: config.ratePerSec },
  // One for both clients: background takes of the budget wait while an interactive one does.
  priority: new BucketPriority(),
  // Write-through: every item read from upstream feeds the shared name index.
  onItemsFetched: (items: readonly CatalogueItem[], lang: Lang) => names.record(items, lang),
  // Prices from the market sheet while it is fresh: one snapshot for trees, scans and gw2_prices.
  priceSheet: (ids: readonly number[]) => sheets.prices(ids),
};
// Recipe lookups come from the catalogue (PRIORY_CATALOGUE): crawled, or filled on demand
// through the asking client's own pages when a tree walk needs it first.
const recipeIndex = (client: () => Gw2PagedReads) =>
  config.catalogue ? { recipeIndex: catalogueRecipeIndex(recipes, lazyPages(client)) } : {};
const interactive = createGw2Client({ ...upstream, ...recipeIndex(() => interactive) });
// The background jobs' own client: same cache and bucket, a reserve left to interactive calls.
const backgroundGw2: InstrumentedGw2Client = createGw2Client({
  ...upstream,
  ...backgroundClientOptions(config.rateBurst, () => foreground.idle(GIVE_WAY_MS, systemClock)),
  ...recipeIndex(() => backgroundGw2),
});
const background = createBackgroundJobs({
  kv,
  namespace: config.gw2ApiBase,
  owner: crypto.randomUUID(),
  clock: systemClock,
  log,
  gw2: backgroundGw2,
  pages: backgroundGw2,
  names,
  recipes: recipeStore,
  catalogue: recipes,
  achievements: { store: achievementStore, catalogue: achievements },
  sheets,
  catalogueEnabled: config.catalogue,
  ratePerSec: config.ratePerSec,
  history: historyStore,
  snapshotMinutes: config.snapshotMinutes,
  // Deno 2.9 lets the code run a full collection after a burst of background work; 2.5 does not.
  // It stops the event loop for tens of milliseconds: not while the name index loads (whose own
  // garbage it would mark), nor while a tool call runs.
  collect: collectWhenQuiet(runtimeCollect()),
});
/** `collect`, deferred until the name index is quiet and no tool call runs (none where absent). */
function collectWhenQuiet(collect: (() => void) | undefined): (() => void) | undefined {
  if (collect === undefined) return undefined;
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    void names.quiet()
      .then(() => foreground.idle(GIVE_WAY_MS, systemClock))
      .then(collect)
      .finally(() => pending = false);
  };
}
// Each sheet this instance publishes (its job's, or one a tool call read) becomes a snapshot.
sheets.onSheet((sheet, previous) => background.snapshot(sheet, previous));
// Registered at top level, before Deno.serve, so Deno Deploy discovers them; always all of them
// (a conditional registration is not discovered): the crawl itself does nothing when off. Their
// signal is the background jobs': shutdown's first step aborts it.
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
Deno.cron(CRON_JOBS.history.name, CRON_JOBS.history.schedule, {
  backoffSchedule: CRON_JOBS.history.backoffSchedule,
  signal: background.signal,
}, background.history);
Deno.cron(CRON_JOBS.sheet.name, CRON_JOBS.sheet.schedule, {
  backoffSchedule: CRON_JOBS.sheet.backoffSchedule,
  signal: background.signal,
}, background.sheet);
// The warm-up and the market sheet also run now, unawaited: the first request never waits for them.
void background.startup();
// In dev every tool call is a line at info with its upstream cost (the interactive client's
// counters around it); in start only failures are, and successes at debug, without the cost.
const callLog = config.mode === "dev"
  ? { successLevel: "info", meter: new CallMeter(() => interactive.stats()) } as const
  : undefined;
// The crafting scan: its recipe graph per catalogue, its pass per sheet; fills over `interactive`.
const crafting = new CraftScanner({
  catalogue: config.catalogue ? recipes : undefined,
  pages: interactive,
  clock: systemClock,
  log,
});
// The public mode: its own authorization server, keys sealed in the same KV. The room is loaded
// only then: a token-mode process does not keep its code (docs/performance.md, "Memory").
const auth = config.publicMode === undefined ? undefined : await (await import(
  "./src/auth/mod.ts"
)).createPublicAuth({
  config: config.publicMode,
  staticToken: config.authToken,
  kv,
  gw2: interactive,
  budget: { burst: config.rateBurst, perSec: config.ratePerSec },
  bucket: (spec) => new TokenBucket({ kv, clock: systemClock, log, ...spec }),
  clock: systemClock,
  log,
});
const handler = createHandler({
  log,
  gw2: interactive,
  names,
  services: { sheets, crafting, history, achievements },
  config,
  foreground,
  ...(callLog === undefined ? {} : { callLog }),
  ...(auth === undefined ? {} : { auth }),
});

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  await shutDown({
    stopScheduled: () => background.stop(),
    drain: () => server.shutdown(),
    abort: () => handler.close(),
    release: () => kv.close(),
  }, { clock: systemClock, log, signal });
  // Whatever still holds the event loop (a request that ignored its abort) must not outlive us.
  Deno.exit(0);
}
// Installed before `Deno.serve`, whose `onListen` logs "listening" synchronously: whoever reads
// that line may signal at once. A signal is handled in a later task, once `server` exists.
// Under `deno task dev` (`--watch`) a listener would end only the program and leave the watcher
// waiting for the next edit, so Ctrl-C would need pressing twice: dev leaves signals to Deno.
if (config.mode === "start") {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => void stop(signal));
  }
}

/** `Deno.serve` on the configured address; a port in use (or the like) exits with one line. */
function serve(): Deno.HttpServer {
  try {
    return Deno.serve({
      hostname: config.hostname,
      port: config.port,
      onListen: ({ hostname, port }) => {
        const host = hostname.includes(":") ? `[${hostname}]` : hostname;
        const displayHost = host === "0.0.0.0" || host === "[::]" ? "localhost" : host;
        log.info("listening", {
          hostname,
          port,
          mode: config.mode,
          ...(config.auth === "oauth" ? { auth: "oauth" } : {}),
        });
        if (config.mode === "dev") printDevBanner(devToken, `http://${displayHost}:${port}`);
      },
    }, handler);
  } catch (error) {
    exitOnConfigError(listenError(error, config));
  }
}
const server = serve();
