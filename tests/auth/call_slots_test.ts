/** How many calls of one grant run at once: past the limit they wait their turn, others do not. */

import assert from "node:assert/strict";
import { CallSlots } from "../../src/auth/call_slots.ts";

Deno.test("CallSlots runs a grant's calls two at a time, first come first served; other grants are not held", async () => {
  const slots = new CallSlots(2);
  const never = new AbortController().signal;
  const order: string[] = [];
  const first = await slots.enter("greedy", never);
  const second = await slots.enter("greedy", never);
  const third = slots.enter("greedy", never).then((leave) => {
    order.push("third");
    return leave;
  });
  const fourth = slots.enter("greedy", never).then((leave) => {
    order.push("fourth");
    return leave;
  });
  const other = await slots.enter("other", never);
  order.push("other");
  assert.equal(slots.running("greedy"), 2);
  first();
  first();
  (await third)();
  second();
  (await fourth)();
  other();
  assert.deepEqual(order, ["other", "third", "fourth"]);
  assert.equal(slots.running("greedy"), 0, "a slot given back twice counts once");
});

Deno.test("CallSlots gives up a wait when the call's deadline passes", async () => {
  const slots = new CallSlots(1);
  const leave = await slots.enter("g", new AbortController().signal);
  const deadline = new AbortController();
  const waiting = slots.enter("g", deadline.signal);
  deadline.abort(new Error("deadline"));
  await assert.rejects(waiting, /deadline/);
  leave();
  assert.equal(slots.running("g"), 0);
  (await slots.enter("g", new AbortController().signal))();
});
