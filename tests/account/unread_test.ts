import assert from "node:assert/strict";
import { readPart, unreadOf, valueOf } from "../../src/account/unread.ts";
import { Gw2KeyRejectedError, Gw2ScopeMissingError } from "../../src/gw2/errors.ts";

Deno.test("readPart(): a missing scope names the part and the scope; the rest answers", async () => {
  const bank = await readPart("bank", () => Promise.resolve([1, 2]));
  const delivery = await readPart(
    "delivery",
    () => Promise.reject(new Gw2ScopeMissingError("tradingpost")),
  );
  const selling = await readPart(
    "selling",
    () => Promise.reject(new Gw2ScopeMissingError("tradingpost")),
  );
  assert.deepEqual(valueOf(bank), [1, 2]);
  assert.equal(valueOf(delivery), undefined);
  assert.deepEqual(unreadOf([bank, delivery, selling, delivery]), [
    { part: "delivery", scope: "tradingpost" },
    { part: "selling", scope: "tradingpost" },
  ]);
});

Deno.test("readPart(): every other failure fails the call, not one part", async () => {
  await assert.rejects(
    () => readPart("bank", () => Promise.reject(new Gw2KeyRejectedError())),
    Gw2KeyRejectedError,
  );
  await assert.rejects(
    () => readPart("bank", () => Promise.reject(new TypeError("bug"))),
    TypeError,
  );
});
