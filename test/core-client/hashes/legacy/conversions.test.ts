import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keycloakCredentialToHash } from '../../../../core-client/src/hashes/legacy/keycloak.js';
import { saltedDigestHash } from '../../../../core-client/src/hashes/legacy/salted-digest.js';
import { verifyLegacyPassword } from '../../../../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { loadLegacyVectors } from './legacy-vectors.js';

const keycloak = loadLegacyVectors('keycloak').vectors.flatMap((vector) => ('credential' in vector ? [vector] : []));

describe('keycloakCredentialToHash', () => {
  const [first] = keycloak;
  if (first === undefined) throw new Error('no Keycloak vector');
  const { credentialData, secretData } = first.credential;

  it('takes credentialData and secretData as objects as well as the JSON strings Keycloak writes', async () => {
    const asObjects = { ...first.credential, credentialData: JSON.parse(String(credentialData)), secretData: JSON.parse(String(secretData)) };
    const hash = keycloakCredentialToHash(asObjects);
    expect(hash).toBe(keycloakCredentialToHash(first.credential));
    expect(await verifyLegacyPassword(new Secret(first.password), String(hash))).toEqual({ outcome: 'match', family: 'keycloak_pbkdf2' });
  });

  it.each([
    ['secretData that is not JSON', { ...first.credential, secretData: '{"value":' }, /secretData/],
    [
      'an algorithm Keycloak has no PBKDF2 for',
      { ...first.credential, credentialData: '{"hashIterations":1,"algorithm":"argon2"}' },
      /credentialData\.algorithm/,
    ],
    ['a credential that is not a password', { ...first.credential, type: 'otp' }, /type/],
  ])('refuses %s, saying which field', (_name, credential, field) => {
    expect(keycloakCredentialToHash(credential)).toMatchObject({ usable: false, code: 'malformed_hash', reason: expect.stringMatching(field) });
  });
});

describe('saltedDigestHash: a scheme the operator declares as data', () => {
  it('verifies a hex salt and the position declared, and not the other position', async () => {
    const salt = Buffer.from('c0ffee00', 'hex');
    const digestHex = createHash('sha256')
      .update(Buffer.concat([salt, Buffer.from('s3cret')]))
      .digest('hex');
    const before = saltedDigestHash({ digest: 'sha256', saltPosition: 'salt-before-password', saltEncoding: 'hex' }, { digestHex, salt: 'c0ffee00' });
    const after = saltedDigestHash({ digest: 'sha256', saltPosition: 'salt-after-password', saltEncoding: 'hex' }, { digestHex, salt: 'c0ffee00' });
    expect(await verifyLegacyPassword(new Secret('s3cret'), String(before))).toEqual({ outcome: 'match', family: 'salted_digest' });
    expect(await verifyLegacyPassword(new Secret('s3cret'), String(after))).toEqual({ outcome: 'mismatch', family: 'salted_digest' });
  });

  it.each([
    ['an unknown digest', { digest: 'sha3', saltPosition: 'salt-after-password' }, { digestHex: 'ab'.repeat(16), salt: 'salt' }, /scheme/],
    ['a digest of the wrong length', { digest: 'md5', saltPosition: 'salt-after-password' }, { digestHex: 'abcd', salt: 'salt' }, /32 hexadecimal/],
    ['an empty salt', { digest: 'md5', saltPosition: 'salt-after-password' }, { digestHex: 'ab'.repeat(16), salt: '' }, /salt is empty/],
  ] as const)('refuses %s', (_name, scheme, record, reason) => {
    expect(saltedDigestHash(scheme, record)).toMatchObject({ usable: false, reason: expect.stringMatching(reason) });
  });
});
