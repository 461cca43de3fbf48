import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { LoginMigrationAnswer } from '../../core-client/src/login-time/login-answer.js';
import type { Migrate } from '../../core-client/src/login-time/service/login-service.js';
import type { LegacyVerification } from '../../core-client/src/hashes/legacy/verify-legacy.js';
import type { Secret } from '../../core-client/src/secret.js';

/** A user as a waiting store would hold it: the email, the old id and the legacy hash (the test knows the password). */
export interface WaitingUser {
  email: string;
  oldId: string;
  hash: string;
  password: string;
  family: string;
}

const FixtureSchema = z.object({
  vectors: z.array(z.object({ family: z.string(), password: z.string(), hash: z.string().optional(), expect: z.string().optional() })),
});

/** One user per family named, each with the first matching reference vector of that family (real hashes, real passwords). */
export function waitingUsersFromFixtures(families: readonly string[]): WaitingUser[] {
  const vectors = ['django', 'crypt', 'passlib', 'werkzeug'].flatMap((file) => {
    const url = new URL(`../fixtures/hash-vectors/legacy/${file}.json`, import.meta.url);
    return FixtureSchema.parse(JSON.parse(readFileSync(url, 'utf8'))).vectors;
  });
  return families.map((family, index) => {
    const vector = vectors.find((candidate) => candidate.family === family && candidate.hash !== undefined && (candidate.expect ?? 'match') === 'match');
    if (vector?.hash === undefined) throw new Error(`no reference vector of ${family}`);
    return { email: `user${index}@example.com`, oldId: `old-${family}`, hash: vector.hash, password: vector.password, family };
  });
}

export type Verify = (password: Secret, hash: string) => Promise<LegacyVerification>;

/**
 * The test's stand-in for a store: the waiting users in memory, each checked with a real legacy verifier. A user
 * whose password matched is no longer waiting (the store would mark it migrated), as the library call does.
 */
export function fixtureMigrate(users: readonly WaitingUser[], verify: Verify): Migrate & { calls: () => number } {
  const waiting = new Map(users.map((user) => [user.email, user]));
  let calls = 0;
  const migrate = async (attempt: { email: string; password: Secret }): Promise<LoginMigrationAnswer> => {
    calls += 1;
    const user = waiting.get(attempt.email);
    if (user === undefined) return { outcome: 'notWaiting' };
    const verification = await verify(attempt.password, user.hash);
    if (verification.outcome !== 'match') return { outcome: 'wrongCredentials' };
    waiting.delete(attempt.email);
    return { outcome: 'migrated', userId: user.oldId };
  };
  return Object.assign(migrate, { calls: () => calls });
}
