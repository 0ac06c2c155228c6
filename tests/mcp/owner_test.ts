/** A signed-in player's calls carry their owner to the upstream budget, and their key's source. */

import assert from "node:assert/strict";
import { Gw2KeyRejectedError } from "../../src/gw2/errors.ts";
import { silentLogger } from "../../src/log.ts";
import { callTool } from "../../src/mcp/server.ts";
import { gw2Items } from "../../src/tools/gw2_items.ts";
import { prioryAccount } from "../../src/tools/priory_account.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";
import { textOf } from "../support/app.ts";

Deno.test("callTool() binds a signed-in player's reads to a deadline that names them", async () => {
  const gw2 = new StubGw2Client();
  await callTool(gw2Items, { ids: [19721] }, { gw2, log: silentLogger, owner: "player-a" });
  await callTool(gw2Items, { ids: [19721] }, { gw2, log: silentLogger });
  assert.deepEqual(gw2.deadlines.map((deadline) => deadline.owners?.() ?? []), [["player-a"], []]);
});

Deno.test("callTool() words a rejected key for where it came from: the header, or the sign-in", async () => {
  const gw2 = new StubGw2Client();
  gw2.failWith = new Gw2KeyRejectedError();
  const deps = { gw2, log: silentLogger, gw2Key: "KEY" };
  const header = await callTool(prioryAccount, {}, deps);
  assert.match(textOf(header), /X-GW2-Key header/);
  const signedIn = await callTool(prioryAccount, {}, { ...deps, keySource: "sign-in" });
  assert.match(textOf(signedIn), /Sign in again/);
  assert.doesNotMatch(textOf(signedIn), /X-GW2-Key/);
});
