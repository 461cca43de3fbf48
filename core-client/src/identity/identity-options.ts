import { z } from 'zod';
import { ExistingPolicySchema } from '../choices.js';

/** The identity calls beyond the contract, as the pre-flight finds them (core-behaviour.md). */
export const identityFeatures = ['mapping', 'verification', 'metadata', 'lookup', 'removal', 'roles', 'emailChange', 'passwordless'] as const;
export type IdentityFeature = (typeof identityFeatures)[number];

export const featureLabels: Record<IdentityFeature, string> = {
  mapping: 'user id mapping (/recipe/userid/map)',
  verification: 'email verification (/recipe/user/email/verify)',
  metadata: 'user metadata (/recipe/user/metadata)',
  lookup: 'user lookup by email (/recipe/user?email=)',
  removal: 'user removal (/user/remove)',
  roles: 'user roles (/recipe/role)',
  emailChange: 'email change (PUT /recipe/user)',
  passwordless: 'passwordless users (/recipe/signinup/code, /users/by-accountinfo)',
};

/**
 * What a push does after creating each user. The defaults keep who the user was; each can be turned off, and a
 * step whose core feature is missing is off too (the push refuses to start when the operator did not turn it off).
 */
export const IdentityOptionsSchema = z.object({
  /** Map each created user's core id to its old id (`--no-keep-ids` turns it off). */
  keepIds: z.boolean().default(true),
  /** Verify in the core the emails the source marks verified. */
  verifyEmails: z.boolean().default(true),
  /** Write the profile into the user's metadata (`--no-metadata` turns it off). */
  metadata: z.boolean().default(true),
  /** A password user already in the core: left untouched (`skip`, default) or its hash replaced (`replace`). */
  existing: ExistingPolicySchema.default('skip'),
  /** Look each password user's email up before importing it (needs the lookup feature; `skip` depends on it). */
  lookup: z.boolean().default(true),
  /**
   * Whether the run may meet phone-number and email-link users (the plan leaves them out with `--no-passwordless`):
   * the pre-flight then needs the core's passwordless calls. Not a step: such users are created whatever it says.
   */
  passwordless: z.boolean().default(true),
  /** Give each user the roles the plan read for it (`--no-roles` turns it off; nothing to do without `--roles-from`). */
  roles: z.boolean().default(true),
  /** Roles the core refused to create (role → its sentence): no user gets them, each record's report says so. */
  refusedRoles: z.record(z.string(), z.string()).default({}),
  /**
   * A sync: the roles the migration gives (every role of the newer export's plan, and those it created). A role the
   * old system took from a user is taken from the core user only when it is one of these, never a role the
   * application gave there.
   */
  managedRoles: z.array(z.string()).default([]),
});
export type IdentityOptions = z.infer<typeof IdentityOptionsSchema>;

export const defaultIdentityOptions: IdentityOptions = IdentityOptionsSchema.parse({});

/** No identity step at all: the contract's two operations only (today's behaviour before issue 13). */
export const contractOnlyIdentityOptions: IdentityOptions = {
  keepIds: false,
  verifyEmails: false,
  metadata: false,
  existing: 'replace',
  lookup: false,
  passwordless: true,
  roles: false,
  refusedRoles: {},
  managedRoles: [],
};
