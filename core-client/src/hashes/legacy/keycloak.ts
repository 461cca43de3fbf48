import { z } from 'zod';
import { type LegacyFamilyRules } from './family.js';
import { base64Field, decimalField, matchShape, parseParts } from './fields.js';
import { isUnusable, unusable, type LegacyUnusable } from './outcome.js';
import { describePbkdf2 } from './parameters.js';
import { pbkdf2Cost, verifyPbkdf2, type Pbkdf2Parameters } from './pbkdf2.js';
import type { DigestName } from './primitives.js';

const LABEL = 'Keycloak PBKDF2';

/** Keycloak's algorithm names and the HMAC each uses. */
const KEYCLOAK_ALGORITHMS = { pbkdf2: 'sha1', 'pbkdf2-sha256': 'sha256', 'pbkdf2-sha512': 'sha512' } as const satisfies Record<string, DigestName>;
/** Keycloak derives a 512-bit key by default; a provider set to a 256-bit derivedKeySize writes 32 bytes. */
const KEYCLOAK_KEY_LENGTHS: readonly number[] = [32, 64];
const KeycloakAlgorithmSchema = z.enum(['pbkdf2', 'pbkdf2-sha256', 'pbkdf2-sha512']);

/** Keycloak writes `credentialData` and `secretData` as JSON inside strings; an object is taken as well. */
function jsonOrObject<Schema extends z.ZodType>(schema: Schema) {
  return z
    .union([
      z.string().transform((text, context) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          context.addIssue({ code: 'custom', message: 'is not JSON' });
          return z.NEVER;
        }
      }),
      z.record(z.string(), z.unknown()),
    ])
    .pipe(schema);
}

/** One credential of a Keycloak realm export (`users[].credentials[]`) of type password. */
export const KeycloakCredentialSchema = z.object({
  type: z.literal('password'),
  credentialData: jsonOrObject(z.object({ hashIterations: z.number().int().min(1), algorithm: KeycloakAlgorithmSchema })),
  secretData: jsonOrObject(z.object({ value: z.string().min(1), salt: z.string().min(1) })),
});
export type KeycloakCredential = z.input<typeof KeycloakCredentialSchema>;

/**
 * Turns a Keycloak PBKDF2 credential into one verifiable string of core-migrate's own form,
 * `$keycloak-<algorithm>$<iterations>$<base64 salt>$<base64 key>`, so a waiting store keeps one hash per user. Keycloak
 * derives a key as long as the stored one; the password is its UTF-8 bytes, as Java's PBKDF2 reads it.
 */
export function keycloakCredentialToHash(credential: unknown): string | LegacyUnusable {
  const parsed = KeycloakCredentialSchema.safeParse(credential);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return unusable('malformed_hash', `malformed ${LABEL} credential: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  const { credentialData, secretData } = parsed.data;
  return `$keycloak-${credentialData.algorithm}$${credentialData.hashIterations}$${secretData.salt}$${secretData.value}`;
}

export const keycloakPbkdf2: LegacyFamilyRules<Pbkdf2Parameters> = {
  detect: (hash) => hash.startsWith('$keycloak-'),
  parse(hash) {
    const shape = matchShape(hash, /^\$keycloak-([a-z0-9-]+)\$([^$]*)\$([^$]*)\$([^$]*)$/, LABEL, '$keycloak-<algorithm>$<iterations>$<salt>$<key>');
    if (isUnusable(shape)) return shape;
    const algorithm = KeycloakAlgorithmSchema.safeParse(shape[1]);
    if (!algorithm.success)
      return unusable(
        'unsupported_family',
        `${LABEL} with the algorithm "${(shape[1] ?? '').slice(0, 20)}" is not supported (pbkdf2, pbkdf2-sha256, pbkdf2-sha512)`,
      );
    const schema = z.object({
      iterations: decimalField('iterations'),
      salt: base64Field('salt', 'optional', { min: 8 }),
      key: base64Field('key', 'optional').refine((key) => KEYCLOAK_KEY_LENGTHS.includes(key.length), {
        message: 'the key is not the 32 or 64 bytes Keycloak derives',
      }),
    });
    const parts = parseParts(schema, { iterations: shape[2], salt: shape[3], key: shape[4] }, LABEL);
    return isUnusable(parts) ? parts : { ...parts, digest: KEYCLOAK_ALGORITHMS[algorithm.data] };
  },
  costProblem: pbkdf2Cost(LABEL),
  parameters: describePbkdf2,
  verify: verifyPbkdf2,
};
