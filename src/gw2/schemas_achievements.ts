/**
 * Zod schemas of the achievement records and what their bits name (issue 30), apart from
 * `schemas.ts` while three helpers add schemas at once (the lead may fold them in). As there,
 * `z.object` strips what is not declared: prose (`description`, `requirement`, `locked_text`)
 * and icons never leave the client.
 *
 * @module
 */

import { z } from "zod";

const Id = z.number().int().positive();
const Count = z.number().int().nonnegative();

/**
 * One bit of an achievement: `{type: "Text", text}` or `{type: "Item" | "Skin" | "Minipet",
 * id}`; some collections carry an empty `{}` (gw2-api #15), so every field is optional.
 */
export const AchievementBitSchema = z.object({
  type: z.string().optional(),
  id: Id.optional(),
  text: z.string().optional(),
});
/** A validated bit. */
export type AchievementBit = z.infer<typeof AchievementBitSchema>;

/**
 * One reward: `{type: "Item", id, count}`, `{type: "Coins", count}`, `{type: "Mastery", id,
 * region}`, `{type: "Title", id}`; others may come (tier rewards are absent, gw2-api #98).
 */
export const AchievementRewardSchema = z.object({
  type: z.string(),
  id: Id.optional(),
  count: Count.optional(),
  region: z.string().optional(),
});
/** A validated reward. */
export type AchievementReward = z.infer<typeof AchievementRewardSchema>;

/** `/v2/achievements` record: what progress, missing bits, rewards and chains are built from. */
export const AchievementSchema = z.object({
  id: Id,
  name: z.string(),
  /** `Default` or `ItemSet` (a collection). */
  type: z.string(),
  flags: z.array(z.string()),
  /** The last tier's `count` is the achievement's total (`of`). */
  tiers: z.array(z.object({ count: Count, points: Count })),
  bits: z.array(AchievementBitSchema).optional(),
  rewards: z.array(AchievementRewardSchema).optional(),
  prerequisites: z.array(Id).optional(),
});
/** A validated achievement. */
export type Achievement = z.infer<typeof AchievementSchema>;

/**
 * `/v2/account/achievements` entry: only achievements with progress; `bits` (indices into the
 * achievement's bits) vanish once it is done; no `unlocked` means unlocked.
 */
export const AccountAchievementSchema = z.object({
  id: Id,
  bits: z.array(Count).optional(),
  current: Count.optional(),
  max: Count.optional(),
  done: z.boolean(),
  repeated: Count.optional(),
  unlocked: z.boolean().optional(),
});
/** A validated account achievement entry. */
export type AccountAchievement = z.infer<typeof AccountAchievementSchema>;

/** `/v2/account/achievements`. */
export const AccountAchievementsSchema = z.array(AccountAchievementSchema);

/** `/v2/minis` record: its name, and the item that unlocks it (which may trade). */
export const MiniSchema = z.object({ id: Id, name: z.string(), item_id: Id.optional() });
/** A validated mini. */
export type Mini = z.infer<typeof MiniSchema>;

/** `/v2/skins` record, by name (a skin does not trade; its items do). */
export const SkinSchema = z.object({ id: Id, name: z.string() });
/** A validated skin. */
export type Skin = z.infer<typeof SkinSchema>;
