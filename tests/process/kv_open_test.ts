import assert from "node:assert/strict";
import { ConfigError } from "../../src/config.ts";
import {
  kvLocation,
  type OpenKv,
  openKvStore,
  REMOTE_OPEN_TIMEOUT_MS,
} from "../../src/process/kv_open.ts";
import { ManualClock } from "../support/clock.ts";

async function refusal(path: string | undefined, openKv: OpenKv): Promise<ConfigError> {
  try {
    (await openKvStore(path, openKv)).close();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const failing = (error: Error): OpenKv => () => Promise.reject(error);

Deno.test("kvLocation() tells the default, memory, KV Connect URLs and files apart", () => {
  assert.equal(kvLocation(undefined), "default");
  assert.equal(kvLocation(":memory:"), "memory");
  assert.equal(kvLocation("http://denokv.internal:4512"), "remote");
  assert.equal(kvLocation("HTTPS://api.deno.com/v2/databases/abc/connect"), "remote");
  assert.equal(kvLocation("data/kv.sqlite3"), "file");
  assert.equal(kvLocation("/var/lib/priory/kv.sqlite3"), "file");
});

Deno.test("openKvStore() creates the missing folders of a file path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "priory-kv-open-" });
  try {
    const path = `${dir}/a/b/kv.sqlite3`;
    const kv = await openKvStore(path, (target) => Deno.openKv(target));
    await kv.set(["k"], 1);
    kv.close();
    assert.ok((await Deno.stat(path)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openKvStore() turns each failure into one sentence naming PRIORY_KV_PATH and the fix", async (t) => {
  await t.step("permission not granted to Deno", async () => {
    const error = await refusal(
      "/srv/kv.sqlite3",
      failing(new Deno.errors.NotCapable('Requires read access to "/srv/kv.sqlite3"')),
    );
    assert.equal(error.variable, "PRIORY_KV_PATH");
    assert.match(error.message, /not granted read and write access.*deno task start/);
  });
  await t.step("KV Connect: the URL without credentials, and the access token named", async () => {
    const error = await refusal(
      "https://user:secret@denokv.internal:4512/?x=1",
      failing(new TypeError("Could not open Deno KV database: Connection refused\n  at …")),
    );
    assert.match(error.message, /"PRIORY_KV_PATH" \(https:\/\/denokv\.internal:4512\/\)/);
    assert.match(error.message, /Connection refused.*DENO_KV_ACCESS_TOKEN/);
    assert.doesNotMatch(error.message, /secret|user|\n/);
  });
  await t.step("Deno's --allow-all advice is not passed on: the fix is another path", async () => {
    // What Deno says for a system path such as /proc (a real /proc path would depend on the
    // test's permissions, so the failure is injected).
    const error = await refusal(
      "/srv/kv.sqlite3",
      failing(
        new Deno.errors.PermissionDenied(
          'Requires all access to "/srv/kv.sqlite3", run again with the --allow-all flag',
        ),
      ),
    );
    assert.match(error.message, /Requires all access to "\/srv\/kv\.sqlite3"\)/);
    assert.match(error.message, /Point it at a new or existing Deno KV file/);
    assert.doesNotMatch(error.message, /allow-all/);
  });
  await t.step("the default location", async () => {
    const error = await refusal(undefined, failing(new Error("disk full")));
    assert.match(error.message, /default location \(disk full\).*"PRIORY_KV_PATH"/);
  });
});

Deno.test("openKvStore() gives a KV Connect server that never answers a bounded wait", async () => {
  const clock = new ManualClock();
  const never = Promise.withResolvers<Deno.Kv>();
  const opening = openKvStore("http://denokv.internal:4512", () => never.promise, { clock });
  const failed = opening.then(() => undefined, (error: unknown) => error);
  for (let turn = 0; turn < 100 && clock.pendingSleeps === 0; turn++) await Promise.resolve();
  clock.advance(REMOTE_OPEN_TIMEOUT_MS);
  const error = await failed;
  assert.ok(error instanceof ConfigError);
  assert.match(
    error.message,
    /"PRIORY_KV_PATH" \(http:\/\/denokv\.internal:4512\/\): no answer within 10 s/,
  );
  // A store that opens after the refusal is closed rather than leaked.
  const late = await Deno.openKv(":memory:");
  never.resolve(late);
  await never.promise;
  await Promise.resolve();
  await assert.rejects(() => late.get(["any"]));
});
