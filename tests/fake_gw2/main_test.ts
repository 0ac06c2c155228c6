import assert from "node:assert/strict";
import { drain, readUntil, spawnDeno, taskArgs } from "../support/process.ts";
import { consume, errorBody } from "./_support.ts";

Deno.test("main.ts (deno task fake-gw2) serves the fake with its env settings", async () => {
  const child = spawnDeno(await taskArgs("fake-gw2"), {
    FAKE_GW2_PORT: "0",
    FAKE_GW2_RATE_BURST: "2",
    FAKE_GW2_RATE_PER_SEC: "0",
  });
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const stderrDone = drain(stderr);
  try {
    const url = await readUntil(stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/u);
    const item = await consume(await fetch(`${url}/v2/items/19721`));
    assert.equal(item.status, 200);
    const control = await consume(
      await fetch(`${url}/__control/fault`, {
        method: "POST",
        body: JSON.stringify({ fault: "server_error" }),
      }),
    );
    assert.equal(control.status, 200);
    assert.equal((await consume(await fetch(`${url}/v2/items/19721`))).status, 500);
    const limited = await consume(await fetch(`${url}/v2/items/19721`));
    assert.equal(limited.status, 429, "FAKE_GW2_RATE_BURST=2 with no refill");
    assert.equal(limited.text, errorBody("too many requests"));
  } finally {
    child.kill("SIGTERM");
    await drain(stdout);
    await stderrDone;
  }
  assert.equal((await child.status).code, 0);
});

Deno.test("main.ts exits 1 naming an invalid setting", async () => {
  const child = spawnDeno(await taskArgs("fake-gw2"), { FAKE_GW2_PORT: "eighty" });
  const output = await child.output();
  assert.equal(output.code, 1);
  assert.match(new TextDecoder().decode(output.stderr), /invalid FAKE_GW2_PORT: "eighty"/u);
});

Deno.test("main.ts exits 1 with one line when its port is taken", async () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const child = spawnDeno(await taskArgs("fake-gw2"), { FAKE_GW2_PORT: String(taken.addr.port) });
  const output = await child.output();
  assert.equal(output.code, 1);
  const stderr = new TextDecoder().decode(output.stderr).trim();
  assert.match(stderr, /^fake-gw2: port \d+ is in use .*FAKE_GW2_PORT/u);
  assert.equal(stderr.split("\n").length, 1, `one line, got: ${stderr}`);
});
