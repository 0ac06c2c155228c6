/**
 * The keys derived from `PRIORY_SECRET`, one per purpose: a value signed as a registered client's
 * id is no consent form's state, nor a sign-out form's, whatever its shape; and the tag a key
 * check remembers a key by is neither the key nor the account pseudonym.
 */

import assert from "node:assert/strict";
import { deriveSecrets, type SignPurpose } from "../../src/auth/crypto.ts";
import { TEST_SECRET } from "../support/oauth.ts";

Deno.test("what is signed for one purpose is refused for every other: client ids and form states have keys of their own", async () => {
  const secrets = await deriveSecrets(TEST_SECRET);
  const purposes: readonly SignPurpose[] = ["client", "consent", "signout"];
  for (const signedFor of purposes) {
    const signed = await secrets.sign(signedFor, "eyJzYW1lIjoicGF5bG9hZCJ9");
    for (const readAs of purposes) {
      const payload = await secrets.unsign(readAs, signed);
      assert.equal(
        payload,
        readAs === signedFor ? "eyJzYW1lIjoicGF5bG9hZCJ9" : undefined,
        `${signedFor} read as ${readAs}`,
      );
    }
  }
  // Another secret opens none of them.
  const other = await deriveSecrets("another-secret-for-the-public-mode-987654321");
  assert.equal(await other.unsign("client", await secrets.sign("client", "x")), undefined);
});

Deno.test("a key's tag is stable, is not the key, and is not the account pseudonym of the same text", async () => {
  const secrets = await deriveSecrets(TEST_SECRET);
  const key = "FA11C0DE-0001-4F00-8A00-00000000F0110DDBA11F-0001-4E00-9B00-000000000001";
  const tag = await secrets.keyTag(key);
  assert.equal(await secrets.keyTag(key), tag);
  assert.equal(tag.length, 43);
  assert.ok(!tag.includes(key.slice(0, 8)));
  assert.notEqual((await secrets.pseudonym(key)).slice(0, 22), tag.slice(0, 22));
});
