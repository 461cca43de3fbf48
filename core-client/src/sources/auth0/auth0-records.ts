import { z } from 'zod';

const Auth0IdentitySchema = z.object({
  provider: z.string().min(1),
  connection: z.string().optional(),
  // Some social connections (GitHub, Facebook) give numeric ids.
  user_id: z.union([z.string().min(1), z.number()]).transform(String),
  isSocial: z.boolean().optional(),
});

/** A line of the Auth0 user export (the fields read here; the export job may add others). */
export const Auth0UserSchema = z.object({
  user_id: z.string().min(1),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  identities: z.array(Auth0IdentitySchema).optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
  created_at: z.string().optional(),
  last_login: z.string().optional(),
  phone_number: z.string().optional(),
  user_metadata: z.record(z.string(), z.unknown()).optional(),
  app_metadata: z.record(z.string(), z.unknown()).optional(),
  blocked: z.boolean().optional(),
});
export type Auth0User = z.infer<typeof Auth0UserSchema>;

/** A line of the password-hash export Auth0 support delivers separately (MongoDB extended JSON). */
export const Auth0PasswordSchema = z.object({
  _id: z.object({ $oid: z.string().min(1) }),
  alt_id: z.string().min(1).optional(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  passwordHash: z.string().min(1),
});
export type Auth0Password = z.infer<typeof Auth0PasswordSchema>;

/** The database connection's prefix: `auth0|<id>` is a password user, any other prefix a social one. */
export const DATABASE_PROVIDER = 'auth0';

/**
 * Auth0's passwordless connections: a code sent by SMS to `phone_number`, or a code or link sent to `email`. Their
 * users are the core's passwordless users, not linked accounts.
 */
export const SMS_PROVIDER = 'sms';
export const EMAIL_PROVIDER = 'email';

/** The id a password entry is joined on, without the `auth0|` prefix of the user export's user_id. */
export function passwordJoinId(entry: Auth0Password): string {
  return entry.alt_id ?? entry._id.$oid;
}

/** The user export's user_id without the `auth0|` prefix, or undefined for a social user. */
export function userJoinId(userId: string): string | undefined {
  const prefix = `${DATABASE_PROVIDER}|`;
  return userId.startsWith(prefix) ? userId.slice(prefix.length) : undefined;
}

export function issueField(error: z.ZodError): string {
  const path = error.issues[0]?.path ?? [];
  return (
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '') || 'line'
  );
}
