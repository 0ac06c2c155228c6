import assert from "node:assert/strict";
import { createHandler } from "../../src/http/handler.ts";
import { silentLogger } from "../../src/log.ts";

Deno.test("handler answers GET /healthz with 200 {status: ok}", async () => {
  const handler = createHandler({ log: silentLogger });
  const response = await handler(new Request("http://localhost/healthz"));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { status: "ok" });
});

Deno.test("handler answers unknown paths and .well-known with 404", async () => {
  const handler = createHandler({ log: silentLogger });
  for (const path of ["/", "/nope", "/.well-known/oauth-protected-resource"]) {
    const response = await handler(new Request(`http://localhost${path}`));
    assert.equal(response.status, 404, path);
    await response.body?.cancel();
  }
});
