import assert from "node:assert/strict";
import { toBase64Url } from "../src/encoding.ts";

Deno.test("toBase64Url() is unpadded RFC 4648 base64url", () => {
  assert.equal(toBase64Url(new Uint8Array([])), "");
  assert.equal(toBase64Url(new Uint8Array([251, 255])), "-_8");
  assert.equal(toBase64Url(new TextEncoder().encode("any carnal pleas")), "YW55IGNhcm5hbCBwbGVhcw");
});

Deno.test("toBase64Url() handles inputs larger than an argument list", () => {
  const bytes = new Uint8Array(200_000).fill(255);
  assert.equal(toBase64Url(bytes).length, Math.ceil((200_000 * 4) / 3));
});
