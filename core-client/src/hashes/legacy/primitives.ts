import { createHash, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { z } from 'zod';

/** The digests the legacy families use, under Node's names for them. */
export const DigestNameSchema = z.enum(['md5', 'sha1', 'sha256', 'sha512']);
export type DigestName = z.infer<typeof DigestNameSchema>;
export const DIGEST_LENGTHS = { md5: 16, sha1: 20, sha256: 32, sha512: 64 } as const satisfies Record<DigestName, number>;

/** PBKDF2 in libuv's thread pool: the event loop answers other requests while it runs. */
export function pbkdf2Async(password: Buffer, salt: Buffer, iterations: number, keyLength: number, digest: DigestName): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    pbkdf2(password, salt, iterations, keyLength, digest, (error, key) => (error === null ? resolve(key) : reject(error)));
  });
}

/** scrypt in libuv's thread pool; `maxmem` is set from the parameters, which the cost limits have already bounded. */
export function scryptAsync(password: Buffer, salt: Buffer, keyLength: number, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { ...cost, maxmem: scryptMemoryBytes(cost) + 1024 * 1024 }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** What scrypt holds in memory: 128 · N · r bytes (plus 128 · r · p, small beside it). */
export function scryptMemoryBytes(cost: { N: number; r: number; p: number }): number {
  return 128 * cost.N * cost.r + 128 * cost.r * cost.p;
}

export function digest(name: DigestName, ...parts: readonly Buffer[]): Buffer {
  const hash = createHash(name);
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** Constant-time comparison; a length difference is answered at once (the length of a hash is no secret). */
export function sameBytes(computed: Buffer, stored: Buffer): boolean {
  return computed.length === stored.length && timingSafeEqual(computed, stored);
}

/**
 * Node has no thread-pool call for iterated digests (phpass, crypt(3), Spring's StandardPasswordEncoder), so those
 * loops run here in slices of about a millisecond: after each, the event loop answers what is waiting, then the loop
 * goes on. The clock is read every few dozen steps (a step is one to three microseconds).
 */
const SLICE_MS = 1;
const STEPS_BETWEEN_CLOCK_READS = 64;

export async function inSlices(count: number, step: (index: number) => void): Promise<void> {
  let sliceStarted = performance.now();
  for (let index = 0; index < count; index += 1) {
    step(index);
    if (index % STEPS_BETWEEN_CLOCK_READS === STEPS_BETWEEN_CLOCK_READS - 1 && performance.now() - sliceStarted >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStarted = performance.now();
    }
  }
}
