import { createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import bcryptjs from 'bcryptjs';
import { LegacyVerifierPool } from '../core-client/src/hashes/legacy/verifier-pool.js';
import { verifyLegacyPassword } from '../core-client/src/hashes/legacy/verify-legacy.js';
import { startLoginService } from '../core-client/src/login-time/service/login-service.js';
import { Secret } from '../core-client/src/secret.js';
import { BENCH_PASSWORD, BENCH_SERVICE_KEY } from './login-service.js';

/**
 * The login-time service in its own process for `npm run bench login-service`: every `user<n>@bench.example` waits
 * with one legacy hash of "password" (the bench's stand-in for the store; the cost of a check is the hash's alone).
 * Prints its URL, answers `cpu` on stdin with its process's CPU time (every thread's), and stops on `stop`.
 */

const [family = 'pbkdf2', mode = 'pool'] = process.argv.slice(2);
const salt = randomBytes(16)
  .toString('base64')
  .replace(/[^A-Za-z0-9]/g, '')
  .slice(0, 22);
const hash =
  family === 'pbkdf2'
    ? `pbkdf2_sha256$600000$${salt}$${pbkdf2Sync(BENCH_PASSWORD, salt, 600_000, 32, 'sha256').toString('base64')}`
    : `bcrypt_sha256$${bcryptjs.hashSync(createHash('sha256').update(BENCH_PASSWORD).digest('hex'), 12)}`;
const pool = mode === 'pool' ? new LegacyVerifierPool() : undefined;
const verify = pool?.verify ?? verifyLegacyPassword;
const service = await startLoginService({
  settings: { port: 0, limits: { maxFailuresPerClient: 100_000 } },
  serviceKey: new Secret(BENCH_SERVICE_KEY),
  async migrate({ email, password }) {
    if (!/^user\d+@bench\.example$/.test(email)) return { outcome: 'notWaiting' };
    const checked = await verify(password, hash);
    return checked.outcome === 'match' ? { outcome: 'migrated', userId: `old-${email}` } : { outcome: 'wrongCredentials' };
  },
});
process.stdout.write(`${service.url} ${pool?.size ?? 0}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'cpu') process.stdout.write(`${JSON.stringify(process.cpuUsage())}\n`);
  if (line === 'stop') break;
}
await service.close();
await pool?.close();
// The readline left standard input open; without this the process would wait for its end.
process.stdin.destroy();
