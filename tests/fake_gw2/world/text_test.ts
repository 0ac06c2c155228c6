import assert from "node:assert/strict";
import { iconUrl, itemChatLink, recipeChatLink, writeProse } from "./text.ts";

Deno.test("itemChatLink() and recipeChatLink() encode ids as the game does", () => {
  assert.equal(itemChatLink(19684), "[&AgHkTAAA]");
  assert.equal(itemChatLink(29166), "[&AgHucQAA]");
  assert.equal(recipeChatLink(19), "[&CRMAAAA=]");
  assert.equal(recipeChatLink(21), "[&CRUAAAA=]");
  assert.equal(recipeChatLink(9917), "[&Cb0mAAA=]");
});

Deno.test("iconUrl() is deterministic and in the render-service format", () => {
  assert.equal(iconUrl("item", 19721), iconUrl("item", 19721));
  assert.notEqual(iconUrl("item", 19721), iconUrl("item", 19722));
  assert.match(
    iconUrl("currency", 1),
    /^https:\/\/render\.guildwars2\.com\/file\/[0-9A-F]{40}\/\d+\.png$/u,
  );
});

Deno.test("writeProse() writes fresh text of at most the requested length", async (t) => {
  await t.step("never longer, and close to the length", () => {
    for (const length of [1, 5, 12, 40, 117, 252, 600]) {
      const text = writeProse(length, { seed: [length] });
      assert.ok(text.length <= length, `${length}: ${text}`);
      assert.ok(text.length >= Math.min(length, 5) / 2, `${length}: ${text}`);
    }
  });
  await t.step("zero is empty; the same seed gives the same text", () => {
    assert.equal(writeProse(0, { seed: [1] }), "");
    assert.equal(writeProse(80, { seed: [7] }), writeProse(80, { seed: [7] }));
  });
  await t.step("flavor text is wrapped in the game's markup", () => {
    const text = writeProse(120, { seed: [3], kind: "Weapon", flavor: true });
    assert.match(text, /^<c=@flavor>A weapon .+<\/c>$/u);
    assert.ok(text.length <= 120);
  });
});
