import assert from "node:assert/strict";
import { createKeyHasher } from "../../src/gw2/key_hash.ts";

const KEY = "ABCDEF01-2345-6789-ABCD-EF0123456789ABCDEF01-2345-6789-ABCD-EF0123456789";
const PINNED = "E6VWJxfl9JTJwlFAytnSgLYvt9wIAxnI0H8QijotVMg";

Deno.test("createKeyHasher() derives a stable digest from the server token", async () => {
  const digest = await createKeyHasher("server-token").hash(KEY);
  // Pinned: a change here orphans every account cache entry of every deployment.
  assert.equal(digest, PINNED);
  assert.equal(await createKeyHasher("server-token").hash(KEY), digest, "same on a new hasher");
  assert.match(digest, /^[A-Za-z0-9_-]{43}$/);
  assert.ok(!digest.includes(KEY.slice(0, 8)));
});

Deno.test("createKeyHasher() digests differ per token and per key", async () => {
  const one = createKeyHasher("token-one");
  const two = createKeyHasher("token-two");
  assert.notEqual(await one.hash(KEY), await two.hash(KEY));
  assert.notEqual(await one.hash(KEY), await one.hash(KEY.replace("A", "B")));
});

Deno.test("createKeyHasher() equals HMAC(HMAC(token, label), key)", async () => {
  const encoder = new TextEncoder();
  async function hmac(
    secret: Uint8Array<ArrayBuffer>,
    data: string,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const key = await crypto.subtle.importKey(
      "raw",
      secret,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(data)));
  }
  const derived = await hmac(encoder.encode("server-token"), "priory/gw2-key-cache/v1");
  const expected = btoa(String.fromCharCode(...await hmac(derived, KEY)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  assert.equal(await createKeyHasher("server-token").hash(KEY), expected);
});

Deno.test("createKeyHasher() refuses an empty server token", () => {
  assert.throws(() => createKeyHasher(""), TypeError);
});
