/**
 * The most a hash may cost to check, in the plan and in every local check alike. A core verifies a password at
 * each login with the hash's own parameters, so a hash beyond these would make every login of its user take from
 * seconds to centuries (`t=4294967295`), or take gigabytes: such a hash is refused, not planted. Measured on one
 * core of a shared 2-core machine: BCrypt (bcryptjs) cost 12 in 0.27 s, so cost 16 in about 4 s; Argon2 with
 * m=256 MiB, t=4 in 0.9 s, so m × t = 4 GiB in about 4 s; the scrypt variant (p = 1), whose time grows with its
 * memory 128·r·N bytes: 16 MiB (N = 2^14, r = 8, the provider's default) in 0.3 s, 128 MiB in about 5 s.
 */
export const HASH_COST_LIMITS = {
  bcryptMaxCost: 16,
  argon2MaxMemoryKiB: 1024 * 1024,
  /** Memory × iterations: the time an Argon2 check takes grows with both. */
  argon2MaxWorkKiB: 4 * 1024 * 1024,
  argon2MaxParallelism: 64,
  /** The scrypt variant's memory, 128 · r · 2^mem_cost bytes (its time grows with it): 8 times the provider's default. */
  vendorScryptMaxMemoryBytes: 128 * 1024 * 1024,
} as const;

/** The scrypt variant's parameters at their smallest: whole numbers of at least 1 (the cost bounds them from above). */
export const VENDOR_SCRYPT_MINIMUMS = { memCost: 1, rounds: 1 } as const;

const RESET = 'a core cannot verify it in reasonable time — needs a password reset or login-time migration';

function kib(value: number): string {
  return value % (1024 * 1024) === 0 ? `${value / (1024 * 1024)} GiB` : value % 1024 === 0 ? `${value / 1024} MiB` : `${value} KiB`;
}

/** Why an Argon2 hash costs too much to check, or undefined when it is within the limits. */
export function argon2CostProblem(m: number, t: number, p: number): string | undefined {
  const limits = HASH_COST_LIMITS;
  if (m > limits.argon2MaxMemoryKiB)
    return `the Argon2 memory m=${m} KiB is above ${limits.argon2MaxMemoryKiB} KiB (${kib(limits.argon2MaxMemoryKiB)}): ${RESET}`;
  if (p > limits.argon2MaxParallelism) return `the Argon2 parallelism p=${p} is above ${limits.argon2MaxParallelism}: ${RESET}`;
  if (m * t > limits.argon2MaxWorkKiB) {
    return `the Argon2 cost m × t = ${m} × ${t} is above ${limits.argon2MaxWorkKiB} KiB (${kib(limits.argon2MaxWorkKiB)}) of memory passes: ${RESET}`;
  }
  return undefined;
}

/**
 * Why scrypt-variant parameters cost too much to check (memory 128 · r · 2^m bytes above the limit), or undefined. The
 * sentence ends with what to do: `consequence` (a hash: a password reset; a hash config: check the values).
 */
export function vendorScryptCostProblem(memCost: number, rounds: number, consequence: string = RESET): string | undefined {
  const bytes = 128 * rounds * 2 ** memCost;
  const limit = HASH_COST_LIMITS.vendorScryptMaxMemoryBytes;
  if (bytes <= limit) return undefined;
  const size = Number.isFinite(bytes) && bytes < 2 ** 60 ? kib(Math.ceil(bytes / 1024)) : 'far too much';
  return `the scrypt variant's memory 128 · r · 2^m with r=${rounds}, m=${memCost} is ${size}, above ${kib(limit / 1024)} a check may take: ${consequence}`;
}

/** Why a BCrypt cost is too high to check, or undefined. */
export function bcryptCostProblem(cost: number): string | undefined {
  return cost > HASH_COST_LIMITS.bcryptMaxCost
    ? `the BCrypt cost ${cost} is above ${HASH_COST_LIMITS.bcryptMaxCost} (each step doubles the time of every login): ${RESET}`
    : undefined;
}
