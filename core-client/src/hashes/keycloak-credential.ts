import { z } from 'zod';
import { decodeStrictBase64 } from './base64.js';
import { keycloakCredentialToHash } from './legacy/keycloak.js';
import { isUnusable } from './legacy/outcome.js';

/**
 * What a Keycloak realm export's password credential (`users[].credentials[]` of type `password`) becomes: one hash
 * string, or why it cannot be one. Keycloak keeps `secretData` and `credentialData` as JSON inside strings.
 *
 * - argon2 (Keycloak's default since version 25): `credentialData` {hashIterations, algorithm: "argon2",
 *   additionalParameters: {type: ["id"|"i"|"d"], version: ["1.3"|"1.0"], memory, parallelism, hashLength: [decimal
 *   text]}}, `secretData` {value, salt: padded base64}. Keycloak hashes the password's UTF-8 bytes with BouncyCastle's
 *   Argon2 and keeps the raw salt and output; written as the PHC string the reference library reads
 *   (`$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`, unpadded standard base64), which the core imports as it is.
 * - pbkdf2, pbkdf2-sha256, pbkdf2-sha512: core-migrate's own `$keycloak-<algorithm>$…` string
 *   (`keycloakCredentialToHash`), verified by core-migrate at the user's first sign-in.
 * - bcrypt, the algorithm of the community keycloak-bcrypt provider, whose `value` is the whole `$2a$…` hash: that hash.
 *
 * Any other algorithm (another provider's) is `unreadable`: the user has a password only the old system can check.
 */
export type KeycloakPasswordHash =
  { hash: string; family: 'argon2' | 'keycloak_pbkdf2' | 'bcrypt' } | { problem: string; field: 'secretData' | 'credentialData' } | { unreadable: string };

/** The algorithms `keycloakPasswordHash` reads; any other (a custom provider's) is named in the plan's sentence. */
export const KEYCLOAK_PASSWORD_ALGORITHMS = ['argon2', 'pbkdf2', 'pbkdf2-sha256', 'pbkdf2-sha512', 'bcrypt'] as const;

/** `additionalParameters` values are lists of text (Keycloak's MultivaluedHashMap); the first counts, as Keycloak reads it. */
const firstText = z
  .array(z.string())
  .min(1)
  .transform((values) => values[0] ?? '');
const wholeNumber = (name: string) =>
  firstText.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/, `${name} must be a whole number from 1`)
      .transform((text) => Number(text)),
  );

const ArgonParametersSchema = z.object({
  type: firstText.pipe(z.enum(['id', 'i', 'd'], { error: 'type must be "id", "i" or "d"' })),
  version: firstText.pipe(z.enum(['1.3', '1.0'], { error: 'version must be "1.3" or "1.0"' })),
  memory: wholeNumber('memory'),
  parallelism: wholeNumber('parallelism'),
  hashLength: wholeNumber('hashLength'),
});

const CredentialDataSchema = z.object({ algorithm: z.string().min(1), hashIterations: z.number().int().min(1), additionalParameters: z.unknown().optional() });
const SecretDataSchema = z.object({ value: z.string().min(1), salt: z.string().optional() });

/** The JSON inside one of the credential's strings (an object is taken as well); a message names the part, never its text. */
function jsonPart(value: unknown): Record<string, unknown> | string {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return 'is not JSON';
    }
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : 'is not a JSON object';
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  return `${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid'}`;
}

const unpadded = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

function argon2Hash(iterations: number, parameters: unknown, secret: z.infer<typeof SecretDataSchema>): KeycloakPasswordHash {
  const read = ArgonParametersSchema.safeParse(parameters);
  if (!read.success) return { problem: `the argon2 additionalParameters: ${firstIssue(read.error)}`, field: 'credentialData' };
  const { type, version, memory, parallelism, hashLength } = read.data;
  // Java's Base64 encoder pads; a cut value would be a different hash, so only exact padded base64 is read.
  const salt = decodeStrictBase64(secret.salt ?? '', 'optional');
  const value = decodeStrictBase64(secret.value, 'optional');
  if (salt === undefined || salt.length === 0) return { problem: 'the salt is not base64', field: 'secretData' };
  if (value === undefined || value.length === 0) return { problem: 'the value is not base64', field: 'secretData' };
  if (value.length !== hashLength) return { problem: `the value is ${value.length} bytes, not the hashLength ${hashLength} (cut short?)`, field: 'secretData' };
  const v = version === '1.3' ? 19 : 16;
  return { hash: `$argon2${type}$v=${v}$m=${memory},t=${iterations},p=${parallelism}$${unpadded(salt)}$${unpadded(value)}`, family: 'argon2' };
}

export function keycloakPasswordHash(credential: Readonly<Record<string, unknown>>): KeycloakPasswordHash {
  const dataJson = jsonPart(credential['credentialData']);
  if (typeof dataJson === 'string') return { problem: `credentialData ${dataJson}`, field: 'credentialData' };
  const data = CredentialDataSchema.safeParse(dataJson);
  if (!data.success) return { problem: `credentialData: ${firstIssue(data.error)}`, field: 'credentialData' };
  const secretJson = jsonPart(credential['secretData']);
  if (typeof secretJson === 'string') return { problem: `secretData ${secretJson}`, field: 'secretData' };
  const secret = SecretDataSchema.safeParse(secretJson);
  if (!secret.success) return { problem: `secretData: ${firstIssue(secret.error)}`, field: 'secretData' };
  const { algorithm, hashIterations, additionalParameters } = data.data;
  if (algorithm === 'argon2') return argon2Hash(hashIterations, additionalParameters, secret.data);
  if (algorithm === 'bcrypt') {
    return secret.data.value.startsWith('$2')
      ? { hash: secret.data.value, family: 'bcrypt' }
      : { unreadable: 'a Keycloak bcrypt credential whose value is no bcrypt hash' };
  }
  if (!(KEYCLOAK_PASSWORD_ALGORITHMS as readonly string[]).includes(algorithm)) {
    return { unreadable: `the Keycloak credential algorithm "${algorithm.slice(0, 40)}" (a password hash provider core-migrate does not know)` };
  }
  const pbkdf2 = keycloakCredentialToHash({ type: 'password', credentialData: dataJson, secretData: secretJson });
  if (isUnusable(pbkdf2)) return { problem: pbkdf2.reason, field: pbkdf2.reason.includes('secretData') ? 'secretData' : 'credentialData' };
  return { hash: pbkdf2, family: 'keycloak_pbkdf2' };
}
