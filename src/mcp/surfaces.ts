/**
 * The views and the prompts, loaded on the first request that uses them. Tool calls - nearly all
 * of the traffic - use neither, and a process that never serves them does not keep their code:
 * the modules' sources (the views' scripts and their words in five languages among them) are
 * live heap, which V8 sizes its old generation on (docs/performance.md, "Memory"). A module is
 * imported once per process; a later request's import is answered from the module map.
 *
 * @module
 */

import type { McpServer } from "@modelcontextprotocol/server";
import type { PromptDeps } from "../prompts/mod.ts";
import type { ServerSurfaces } from "./server.ts";

/** The registrations of the surfaces one request's server needs. */
export interface LoadedSurfaces {
  /** Registers the views as resources. */
  readonly views?: (server: McpServer) => void;
  /** Registers the prompts and their completions. */
  readonly prompts?: (server: McpServer, deps: PromptDeps) => void;
}

/**
 * Loads the modules of the surfaces `needs` names.
 *
 * @example
 * ```ts
 * const surfaces = await loadSurfaces({ views: true, prompts: false });
 * createMcpServer(tools, deps, surfaces);
 * ```
 */
export async function loadSurfaces(needs: ServerSurfaces): Promise<LoadedSurfaces> {
  const [views, prompts] = await Promise.all([
    needs.views ? import("../views/mod.ts") : undefined,
    needs.prompts ? import("../prompts/mod.ts") : undefined,
  ]);
  return {
    ...(views === undefined ? {} : { views: (server: McpServer) => views.registerViews(server) }),
    ...(prompts === undefined ? {} : {
      prompts: (server: McpServer, deps: PromptDeps) => prompts.registerPrompts(server, deps),
    }),
  };
}
