import assert from "node:assert/strict";
import { keepDevToken } from "../../src/process/dev_token.ts";

const FIRST = "a".repeat(43);
const SECOND = "b".repeat(43);

Deno.test("keepDevToken() stores the first token and returns it on every later start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "priory-dev-token-" });
  try {
    const file = `${dir}/.priory/dev-token`;
    assert.deepEqual(await keepDevToken(FIRST, file), { token: FIRST, kept: true });
    assert.deepEqual(await keepDevToken(SECOND, file), { token: FIRST, kept: true });
    assert.equal((await Deno.readTextFile(file)).trim(), FIRST);
    assert.equal(((await Deno.stat(file)).mode ?? 0) & 0o777, 0o600);
    assert.equal(((await Deno.stat(`${dir}/.priory`)).mode ?? 0) & 0o777, 0o700);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("keepDevToken() replaces an empty or malformed file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "priory-dev-token-" });
  try {
    const file = `${dir}/dev-token`;
    for (const content of ["", "   \n", "short", "has spaces in it but is long enough to pass"]) {
      await Deno.writeTextFile(file, content);
      assert.deepEqual(await keepDevToken(FIRST, file), { token: FIRST, kept: true }, content);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("keepDevToken() falls back to a token for this run when it cannot write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "priory-dev-token-" });
  try {
    await Deno.writeTextFile(`${dir}/not-a-folder`, "");
    const file = `${dir}/not-a-folder/dev-token`;
    assert.deepEqual(await keepDevToken(FIRST, file), { token: FIRST, kept: false });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
