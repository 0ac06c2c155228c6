/**
 * `tools/list`: tokens (bytes / 4) of the whole answer, on both protocol revisions, and of each
 * tool's definition. Every agent pays them on every connection.
 *
 * @module
 */

import type { Figure, Scenario } from "../scenario.ts";
import { PROTOCOLS } from "../support/wire.ts";
import { tokens } from "./calls.ts";

/** The contract's ceiling for the whole answer (5,000 before "The whole account"'s tools). */
export const TOOLS_LIST_BUDGET = 7_000;

/** The tools/list scenario. */
export const toolsList: Scenario = {
  name: "tools-list",
  summary: "tokens of the tools/list answer (all tools) and of each tool",
  tools: [],
  async run(ctx) {
    const priory = await ctx.startPriory(undefined);
    const figures: Figure[] = [];
    let largest = 0;
    for (const protocol of PROTOCOLS) {
      const answer = await ctx.client(priory, { protocol }).request("tools/list");
      const listed = answer.result?.tools;
      if (!Array.isArray(listed)) throw new Error(`tools/list (${protocol}) answered no tools`);
      largest = Math.max(largest, tokens(answer));
      figures.push({
        label: `tools/list ${protocol}`,
        value: tokens(answer),
        unit: "tokens",
        note: `${listed.length} tools`,
      });
      if (protocol !== ctx.options.protocol) continue;
      for (const tool of listed) {
        const name = typeof tool === "object" && tool !== null && "name" in tool ? tool.name : "?";
        figures.push({ label: `  ${String(name)}`, value: tokens(tool), unit: "tokens" });
      }
    }
    return {
      figures,
      targets: [{
        label: `tools/list ≤ ${TOOLS_LIST_BUDGET.toLocaleString("en-US")} tokens (all tools)`,
        value: largest,
        unit: "tokens",
        max: TOOLS_LIST_BUDGET,
      }],
    };
  },
};
