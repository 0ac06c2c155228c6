/** The public mode as an operator starts it: `deno task start` and `deno task dev --public`. */

import assert from "node:assert/strict";
import { spawnDeno, taskArgs } from "../support/process.ts";
import { LOCAL_ENV, Output, taskCommand } from "../support/served.ts";

Deno.test("deno task start with PRIORY_AUTH=oauth refuses to run without PRIORY_PUBLIC_URL, naming it", async () => {
  const output = await spawnDeno(await taskArgs("start"), {
    ...LOCAL_ENV,
    PRIORY_AUTH: "oauth",
    PRIORY_SECRET: "a-secret-of-at-least-thirty-two-chars",
  }).output();
  assert.equal(output.code, 1);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.match(stderr, /^priory: Cannot start the public mode: "PRIORY_PUBLIC_URL" is unset/);
  assert.doesNotMatch(stderr, /MCP_AUTH_TOKEN" is unset/, "the static token is optional here");
});

Deno.test("deno task dev --public runs the public mode locally, says so in the banner, keeps its secret", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "priory-dev-public-" });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const args = [...await taskCommand("dev", cwd), "--public"];
  const child = spawnDeno(args, { ...LOCAL_ENV, PORT: String(port) }, cwd);
  const stdout = new Output(child.stdout);
  const stderr = new Output(child.stderr);
  try {
    await stderr.waitFor(/public mode: players sign in with OAuth\) listening on (\S+)\/mcp/);
    assert.match(stderr.text, new RegExp(`http://127\\.0\\.0\\.1:${port}/mcp`));
    assert.match(stderr.text, /kept in \.priory\/dev-secret/);
    const answer = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", body: "{}" });
    assert.equal(answer.status, 401);
    assert.equal(
      answer.headers.get("www-authenticate"),
      `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    );
    await answer.body?.cancel();
    const secret = (await Deno.readTextFile(`${cwd}/.priory/dev-secret`)).trim();
    assert.ok(secret.length >= 32);
    assert.ok(!stderr.text.includes(secret) && !stdout.text.includes(secret), "never printed");
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await Promise.all([stdout.done, stderr.done]);
    await Deno.remove(cwd, { recursive: true });
  }
});
