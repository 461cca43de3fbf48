import { z } from 'zod';
import { RecordLocationSchema } from '../location.js';

/** A link to a third-party account, with the provider named as the export names it (`google.com`, `google-oauth2`). */
export const LinkedProviderSchema = z.object({
  providerId: z.string(),
  providerUserId: z.string(),
  email: z.string().optional(),
});
export type LinkedProvider = z.infer<typeof LinkedProviderSchema>;

/**
 * One user as read from any export format, before any rule is applied: every reader yields this shape,
 * so the plan knows nothing of files. Values are as exported (not trimmed, not validated).
 */
export const SourceUserSchema = z.object({
  kind: z.literal('user'),
  location: RecordLocationSchema,
  /** The old system's id (Firebase localId, Auth0 user_id), for messages and joins. */
  sourceId: z.string().optional(),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  passwordHash: z.string().optional(),
  /** Per-user salt, for the vendor scrypt family (standard or web-safe base64, as exported). */
  salt: z.string().optional(),
  /** An algorithm named by the record itself (generic formats), e.g. `vendor_scrypt`. */
  hashingAlgorithm: z.string().optional(),
  providers: z.array(LinkedProviderSchema),
});
export type SourceUser = z.infer<typeof SourceUserSchema>;

/** A record that could not be read as a user; the reader goes on with the next one. */
export const MalformedRecordSchema = z.object({
  kind: z.literal('malformed'),
  location: RecordLocationSchema,
  reason: z.string(),
});
export type MalformedRecord = z.infer<typeof MalformedRecordSchema>;

export type SourceRecord = SourceUser | MalformedRecord;
