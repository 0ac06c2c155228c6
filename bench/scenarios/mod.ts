/**
 * The scenario registry: every scenario `deno task bench` runs, in order. Adding one means
 * writing a module exporting a {@linkcode Scenario} and listing it here (see `bench/scenario.ts`).
 *
 * @module
 */

import type { Scenario } from "../scenario.ts";
import { accountTools } from "./account_tools.ts";
import { budget } from "./budget.ts";
import { catalogue } from "./catalogue.ts";
import { coalescing } from "./coalescing.ts";
import { collections } from "./collections.ts";
import { coldCall } from "./cold_call.ts";
import { coldStart } from "./cold_start.ts";
import { craftProfit } from "./craft_profit.ts";
import { economy } from "./economy.ts";
import { history } from "./history.ts";
import { holdings } from "./holdings.ts";
import { itemSearch } from "./item_search.ts";
import { keyFlood } from "./key_flood.ts";
import { memory } from "./memory.ts";
import { orderBook } from "./order_book.ts";
import { fairness, oauthCall, signIn } from "./public_mode.ts";
import { ranking } from "./ranking.ts";
import { recipeTree } from "./recipe_tree.ts";
import { restart } from "./restart.ts";
import { throughput } from "./throughput.ts";
import { today } from "./today.ts";
import { toolsList } from "./tools_list.ts";
import { warmCall } from "./warm_call.ts";
import { warmUp } from "./warm_up.ts";

/** Every scenario, in running order. */
export const SCENARIOS: readonly Scenario[] = [
  warmCall,
  coldCall,
  throughput,
  coalescing,
  budget,
  recipeTree,
  orderBook,
  itemSearch,
  ranking,
  warmUp,
  restart,
  holdings,
  catalogue,
  craftProfit,
  history,
  economy,
  collections,
  today,
  accountTools,
  toolsList,
  coldStart,
  memory,
  oauthCall,
  signIn,
  fairness,
  keyFlood,
];
