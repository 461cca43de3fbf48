import { describe, expect, it } from 'vitest';
import { isAscii } from '../../../../core-client/src/hashes/base64.js';
import { keycloakCredentialToHash } from '../../../../core-client/src/hashes/legacy/keycloak.js';
import { LegacyHashFamilySchema } from '../../../../core-client/src/hashes/legacy/registry.js';
import { saltedDigestHash } from '../../../../core-client/src/hashes/legacy/salted-digest.js';
import { inspectLegacyHash, verifyLegacyPassword } from '../../../../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { LEGACY_VECTOR_FILES, loadLegacyVectors, type LegacyVector } from './legacy-vectors.js';

/** The vector as one verifiable string: Keycloak credentials and declared salted digests are converted first. */
function hashOf(vector: LegacyVector): string {
  if ('hash' in vector) return vector.hash;
  const converted = 'credential' in vector ? keycloakCredentialToHash(vector.credential) : saltedDigestHash(vector.scheme, vector);
  if (typeof converted !== 'string') throw new Error(converted.reason);
  return converted;
}

const expected = (vector: LegacyVector): string => ('expect' in vector ? vector.expect : 'match');

describe.each(LEGACY_VECTOR_FILES)('hashes made by the reference implementation (%s.json)', (file) => {
  const { wrongPassword, vectors } = loadLegacyVectors(file);
  const cases = vectors.map((vector, index) => ({ name: `${index}: ${vector.family}, ${vector.source}`, vector }));

  it.each(cases)('$name', async ({ vector }) => {
    const hash = hashOf(vector);
    const outcome = await verifyLegacyPassword(new Secret(vector.password), hash);
    expect(outcome).toMatchObject({ outcome: expected(vector), family: vector.family });
    if (expected(vector) === 'match') {
      expect(await verifyLegacyPassword(new Secret(wrongPassword), hash)).toEqual({ outcome: 'mismatch', family: vector.family });
      expect(await verifyLegacyPassword(new Secret(''), hash)).toEqual({ outcome: 'mismatch', family: vector.family });
      expect(inspectLegacyHash(hash)).toEqual({ usable: true, family: vector.family, parameters: expect.stringMatching(/^\S.*\d/) });
    }
  });
});

describe('the fixtures cover every family', () => {
  it('has a matching vector made outside core-migrate for each family of the registry', () => {
    const covered = new Set(LEGACY_VECTOR_FILES.flatMap((file) => loadLegacyVectors(file).vectors.map((vector) => vector.family)));
    expect([...LegacyHashFamilySchema.options].filter((family) => !covered.has(family))).toEqual([]);
  });

  it('has non-ASCII passwords for the families that hash UTF-8 text', () => {
    const nonAscii = LEGACY_VECTOR_FILES.flatMap((file) => loadLegacyVectors(file).vectors.filter((vector) => !isAscii(vector.password)));
    expect(new Set(nonAscii.map((vector) => vector.family)).size).toBeGreaterThanOrEqual(20);
  });
});
