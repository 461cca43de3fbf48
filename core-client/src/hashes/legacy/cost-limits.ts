/**
 * The most a legacy hash may cost to check, as HASH_COST_LIMITS bounds BCrypt and Argon2: a login-time migration
 * checks the hash with its own parameters, so a hostile or mistaken hash beyond these would stall the service. Such a
 * hash is unusable with a reason and never computed. Measured on one core of a shared 2-core machine (Node 24):
 * PBKDF2 600,000 iterations in 0.08 s (SHA-256), 0.16 s (SHA-1), 0.24 s (SHA-512), so the bound is about 4 s of
 * SHA-512; scrypt N = 2^17, r = 8 (128 MiB) in 0.35 s; a SHA512-crypt round in 2.7 µs of CPU (656,000 rounds in
 * 1.75 s) and a phpass step in about 2 µs, so 1,500,000 rounds or 2^21 steps are about 4 s.
 */
export const LEGACY_COST_LIMITS = {
  pbkdf2MaxIterations: 10_000_000,
  /** scrypt's memory, 128 · N · r bytes. */
  scryptMaxMemoryBytes: 256 * 1024 * 1024,
  /** N · r · p: the time of a scrypt check grows with each. */
  scryptMaxWork: 2 ** 23,
  /** SHA-crypt `rounds=` (the specification allows up to 999,999,999). */
  shaCryptMaxRounds: 1_500_000,
  /** phpass's count is 2^log2; phpass itself allows 2^30. */
  phpassMaxLog2: 21,
} as const;

const STALL = 'checking it would stall a login-time migration — needs a password reset';

export function pbkdf2CostProblem(family: string, iterations: number): string | undefined {
  const bound = LEGACY_COST_LIMITS.pbkdf2MaxIterations;
  return iterations > bound ? `the ${family} iterations ${iterations} are above ${bound.toLocaleString('en-US')}: ${STALL}` : undefined;
}

export function scryptCostProblem(family: string, cost: { N: number; r: number; p: number }): string | undefined {
  const { scryptMaxMemoryBytes, scryptMaxWork } = LEGACY_COST_LIMITS;
  if (128 * cost.N * cost.r > scryptMaxMemoryBytes) {
    return `the ${family} memory 128 · N · r = ${128 * cost.N * cost.r} bytes is above ${scryptMaxMemoryBytes / 2 ** 20} MiB: ${STALL}`;
  }
  if (cost.N * cost.r * cost.p > scryptMaxWork) return `the ${family} work N · r · p = ${cost.N * cost.r * cost.p} is above 2^23: ${STALL}`;
  return undefined;
}

export function shaCryptCostProblem(family: string, rounds: number): string | undefined {
  const bound = LEGACY_COST_LIMITS.shaCryptMaxRounds;
  return rounds > bound ? `the ${family} rounds ${rounds} are above ${bound.toLocaleString('en-US')}: ${STALL}` : undefined;
}

export function phpassCostProblem(family: string, log2: number): string | undefined {
  const bound = LEGACY_COST_LIMITS.phpassMaxLog2;
  return log2 > bound ? `the ${family} count 2^${log2} is above 2^${bound}: ${STALL}` : undefined;
}
