import { z } from 'zod';

/**
 * Every closed choice an operator makes, one enum each: the settings schema, the flags' `choices`, the app's fields
 * and the code that acts on the choice all read it from here. Kept at the bottom of core-client (not beside the
 * settings table) because the plan and the push, below the settings, act on these values too.
 */

/** Two records with one old id: the first one read is imported, or the last (which reads the file twice). */
export const DuplicatePolicySchema = z.enum(['first-wins', 'last-wins']);
export type DuplicatePolicy = z.infer<typeof DuplicatePolicySchema>;

/** A disabled account of the old system: left out (reported), or imported. */
export const DisabledPolicySchema = z.enum(['skip', 'import']);
export type DisabledPolicy = z.infer<typeof DisabledPolicySchema>;

/** A user already in the core: left untouched (reported), or its hash replaced. */
export const ExistingPolicySchema = z.enum(['skip', 'replace']);
export type ExistingPolicy = z.infer<typeof ExistingPolicySchema>;

/** A sync: a user gone from the newer export is kept on the core, or removed. */
export const DeletedPolicySchema = z.enum(['keep', 'remove']);
export type DeletedPolicy = z.infer<typeof DeletedPolicySchema>;

/**
 * A user with an email and no password nor provider (a Firebase email-link user): created as a passwordless email
 * user, or refused as today and listed for a password reset.
 */
export const EmailLinkPolicySchema = z.enum(['passwordless', 'reset']);
export type EmailLinkPolicy = z.infer<typeof EmailLinkPolicySchema>;

/**
 * The old system a login-time migration asks whether a password is right, for users whose hashes were never available
 * (`--verify-with FILE`): the plan counts parked users by it and the waiting store records it for each.
 */
export const OldSystemKindSchema = z.enum(['firebase', 'cognito', 'openid', 'http', 'okta']);
export type OldSystemKind = z.infer<typeof OldSystemKindSchema>;
