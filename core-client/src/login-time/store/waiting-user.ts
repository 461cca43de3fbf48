import { z } from 'zod';
import { LegacyHashCheckSchema, OldSystemCheckSchema } from '../../plan/operation.js';

/**
 * A user parked by a push for a login-time migration: what it must get in the core when it first signs in with its
 * old password (each identity step already decided by the push's settings), and how that password is checked: against
 * its legacy hash, or by asking the old system (`oldSystem`). The hash lives only in the store: nothing read from the
 * store for output carries it.
 */
const ParkedIdentitySchema = z.object({
  /** Normalised as the core does (trimmed, lower-cased): the key of the store. */
  email: z.string().min(1),
  /** The old system's id, for the waiting list and the mapping. */
  sourceId: z.string().optional(),
  /** The old id becomes the user's id in the core (`/recipe/userid/map`). */
  mapSourceId: z.boolean(),
  /** The free text stored beside the mapping. */
  mappingInfo: z.string().optional(),
  /** The email is verified in the core once the user is created. */
  emailVerified: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  roles: z.array(z.string()).optional(),
});

export const ParkedUserSchema = z.union([ParkedIdentitySchema.extend(LegacyHashCheckSchema.shape), ParkedIdentitySchema.extend(OldSystemCheckSchema.shape)]);
export type ParkedUser = z.infer<typeof ParkedUserSchema>;

export const waitingStates = ['waiting', 'migrating', 'migrated'] as const;
export type WaitingState = (typeof waitingStates)[number];

/** A user as the store holds it: what the push parked, where it is in its migration, and when. */
export type StoredWaitingUser = ParkedUser & {
  state: WaitingState;
  parkedAt: number;
  /** Set once migrated: the id the core answers for the user (the old id once mapped). */
  coreUserId?: string;
  migratedAt?: number;
};

/** A user still waiting, for the list of users a password reset must reach once the window ends. Never its hash. */
export type WaitingListEntry = { email: string; sourceId?: string };

/** How the store stands: how many wait, how many arrived, and per day (UTC) when. Never an email or a hash. */
export type StoreCounts = {
  waiting: number;
  /** Claimed by a sign-in now (or by one that crashed, until its lease ends). */
  migrating: number;
  migrated: number;
  /** `YYYY-MM-DD` (UTC) → users migrated that day, oldest first. */
  arrivalsPerDay: Array<{ day: string; migrated: number }>;
};
