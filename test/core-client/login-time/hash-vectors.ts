import { type LEGACY_VECTOR_FILES, loadLegacyVectors } from '../hashes/legacy/legacy-vectors.js';

/** A legacy hash (one string) of a fixture file, made by its family's reference implementation, with its password. */
export function legacyHashVector(
  file: (typeof LEGACY_VECTOR_FILES)[number],
  pick: (hash: string) => boolean,
): { password: string; wrongPassword: string; hash: string; family: string } {
  const { wrongPassword, vectors } = loadLegacyVectors(file);
  for (const vector of vectors) {
    if ('hash' in vector && vector.expect === 'match' && pick(vector.hash))
      return { password: vector.password, wrongPassword, hash: vector.hash, family: vector.family };
  }
  throw new Error(`no such vector in ${file}.json`);
}
