import assert from "node:assert/strict";
import { createKeyHasher } from "../../src/gw2/key_hash.ts";

const KEY = "ABCDEF01-2345-6789-ABCD-EF0123456789ABCDEF01-2345-6789-ABCD-EF0123456789";
const SECRET = new Uint8Array(32).map((_, index) => index);
const PINNED = "OFSbIeUmFHxtkA7K5venEzL_V6eqSVUfJE7W70um244";

function fixed(secret: Uint8Array<ArrayBuffer>): () => Promise<Uint8Array<ArrayBuffer>> {
  return () => Promise.resolve(secret);
}

Deno.test("createKeyHasher() gives a stable digest for a secret", async () => {
  const digest = await createKeyHasher(fixed(SECRET)).hash(KEY);
  // Pinned: a change here orphans every account cache entry of every deployment.
  assert.equal(digest, PINNED);
  assert.equal(await createKeyHasher(fixed(SECRET)).hash(KEY), digest, "same on a new hasher");
  assert.match(digest, /^[A-Za-z0-9_-]{43}$/);
  assert.ok(!digest.includes(KEY.slice(0, 8)));
});

Deno.test("createKeyHasher() digests differ per secret and per key", async () => {
  const one = createKeyHasher(fixed(SECRET));
  const two = createKeyHasher(fixed(SECRET.map((byte) => byte ^ 1)));
  assert.notEqual(await one.hash(KEY), await two.hash(KEY));
  assert.notEqual(await one.hash(KEY), await one.hash(KEY.replace("A", "B")));
});

Deno.test("createKeyHasher() equals HMAC-SHA-256(secret, key) in base64url", async () => {
  const hmacKey = await crypto.subtle.importKey(
    "raw",
    SECRET,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", hmacKey, new TextEncoder().encode(KEY)),
  );
  const expected = btoa(String.fromCharCode(...mac))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  assert.equal(await createKeyHasher(fixed(SECRET)).hash(KEY), expected);
});

Deno.test("createKeyHasher() loads the secret once, and again only after a failed load", async () => {
  let loads = 0;
  let fail = true;
  const hasher = createKeyHasher(() => {
    loads++;
    return fail ? Promise.reject(new Error("KV unavailable")) : Promise.resolve(SECRET);
  });
  await assert.rejects(hasher.hash(KEY), /KV unavailable/);
  fail = false;
  await Promise.all([hasher.hash(KEY), hasher.hash(KEY), hasher.hash(KEY)]);
  await hasher.hash(KEY);
  assert.equal(loads, 2);
});

Deno.test("createKeyHasher() refuses a secret shorter than 32 bytes", async () => {
  await assert.rejects(createKeyHasher(fixed(new Uint8Array(16))).hash(KEY), TypeError);
});
