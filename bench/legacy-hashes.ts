import { createHash, randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import bcryptjs from 'bcryptjs';
import { type LegacyHashFamily } from '../core-client/src/hashes/legacy/registry.js';
import { inspectLegacyHash, verifyLegacyPassword } from '../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../core-client/src/secret.js';

/** Checks in flight at once: libuv's thread pool has four threads unless UV_THREADPOOL_SIZE says otherwise. */
const IN_FLIGHT = 4;
/** The period of the timer whose lateness shows how long the event loop was held. */
const TIMER_MS = 10;
const CRYPT64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const bytes = (length: number): Buffer => randomBytes(length);
const hex = (length: number): string => bytes(length).toString('hex');
const b64 = (length: number): string => bytes(length).toString('base64');
const ab64 = (length: number): string => b64(length).replace(/=+$/, '').replace(/\+/g, '.');
const crypt64 = (characters: number): string => Array.from(bytes(characters), (byte) => CRYPT64[byte & 63]).join('');

function aspnetV3(prf: number, iterations: number): string {
  const header = Buffer.alloc(13);
  header.writeUInt8(1, 0);
  header.writeUInt32BE(prf, 1);
  header.writeUInt32BE(iterations, 5);
  header.writeUInt32BE(16, 9);
  return Buffer.concat([header, bytes(48)]).toString('base64');
}

/**
 * One hash per family at the cost its reference implementation writes today. The digests are random, so each check
 * is of a wrong password: it costs exactly what a right one does (every family computes in full, then compares).
 */
export async function usualHashes(): Promise<Array<{ family: LegacyHashFamily; cost: string; hash: string }>> {
  const preHashed = createHash('sha256').update('password').digest('hex');
  const bcrypt12 = await bcryptjs.hash(preHashed, 12);
  return [
    { family: 'django_pbkdf2_sha256', cost: '1,000,000 iterations (Django 5.2)', hash: `pbkdf2_sha256$1000000$${crypt64(22)}$${b64(32)}` },
    { family: 'django_pbkdf2_sha1', cost: '1,000,000 iterations', hash: `pbkdf2_sha1$1000000$${crypt64(22)}$${b64(20)}` },
    { family: 'django_bcrypt_sha256', cost: 'bcrypt cost 12', hash: `bcrypt_sha256$${bcrypt12}` },
    { family: 'werkzeug_pbkdf2', cost: '1,000,000 iterations (Werkzeug 3.1)', hash: `pbkdf2:sha256:1000000$${crypt64(16)}$${hex(32)}` },
    { family: 'werkzeug_pbkdf2', cost: '600,000 iterations (Werkzeug 2.3, OWASP)', hash: `pbkdf2:sha256:600000$${crypt64(16)}$${hex(32)}` },
    { family: 'werkzeug_scrypt', cost: 'N = 32768, r = 8, p = 1', hash: `scrypt:32768:8:1$${crypt64(16)}$${hex(64)}` },
    { family: 'better_auth_scrypt', cost: 'N = 16384, r = 16, p = 1 (fixed)', hash: `${hex(16)}:${hex(64)}` },
    { family: 'passlib_pbkdf2_sha256', cost: '29,000 rounds', hash: `$pbkdf2-sha256$29000$${ab64(16)}$${ab64(32)}` },
    { family: 'passlib_pbkdf2_sha512', cost: '25,000 rounds', hash: `$pbkdf2-sha512$25000$${ab64(16)}$${ab64(64)}` },
    { family: 'passlib_pbkdf2_sha1', cost: '131,000 rounds', hash: `$pbkdf2$131000$${ab64(16)}$${ab64(20)}` },
    { family: 'passlib_bcrypt_sha256', cost: 'bcrypt cost 12', hash: `$bcrypt-sha256$v=2,t=2b,r=12$${bcrypt12.slice(7, 29)}$${bcrypt12.slice(29)}` },
    { family: 'passlib_scrypt', cost: 'ln = 16, r = 8, p = 1', hash: `$scrypt$ln=16,r=8,p=1$${b64(16).replace(/=+$/, '')}$${b64(32).replace(/=+$/, '')}` },
    { family: 'spring_pbkdf2', cost: '{pbkdf2}: 185,000 (SHA-1)', hash: `{pbkdf2}${hex(40)}` },
    { family: 'spring_pbkdf2', cost: '{pbkdf2@SpringSecurity_v5_8}: 310,000 (SHA-256)', hash: `{pbkdf2@SpringSecurity_v5_8}${hex(48)}` },
    { family: 'spring_sha256', cost: '1,024 SHA-256', hash: `{sha256}${hex(40)}` },
    { family: 'keycloak_pbkdf2', cost: '210,000 (SHA-512, Keycloak 24+)', hash: `$keycloak-pbkdf2-sha512$210000$${b64(16)}$${b64(64)}` },
    { family: 'keycloak_pbkdf2', cost: '27,500 (SHA-256, before 24)', hash: `$keycloak-pbkdf2-sha256$27500$${b64(16)}$${b64(64)}` },
    { family: 'aspnet_identity_v2', cost: '1,000 (SHA-1)', hash: Buffer.concat([Buffer.alloc(1), bytes(48)]).toString('base64') },
    { family: 'aspnet_identity_v3', cost: '100,000 (SHA-512, .NET 7+)', hash: aspnetV3(2, 100_000) },
    { family: 'aspnet_identity_v3', cost: '10,000 (SHA-256, before .NET 7)', hash: aspnetV3(1, 10_000) },
    { family: 'phpass', cost: '2^13 MD5 (WordPress $P$B)', hash: `$P$B${crypt64(8)}${crypt64(21)}.` },
    { family: 'md5_crypt', cost: '1,000 rounds', hash: `$1$${crypt64(8)}$${crypt64(21)}.` },
    { family: 'sha256_crypt', cost: '5,000 rounds', hash: `$5$${crypt64(16)}$${crypt64(43)}` },
    { family: 'sha512_crypt', cost: '5,000 rounds', hash: `$6$${crypt64(16)}$${crypt64(86)}` },
    { family: 'sha512_crypt', cost: '656,000 rounds (passlib default)', hash: `$6$rounds=656000$${crypt64(16)}$${crypt64(86)}` },
    { family: 'ldap_ssha', cost: 'one SHA-1', hash: `{SSHA}${b64(24)}` },
    { family: 'ldap_ssha512', cost: 'one SHA-512', hash: `{SSHA512}${b64(72)}` },
    { family: 'salted_digest', cost: 'one SHA-256', hash: `$salted-digest$sha256$salt-after-password$${b64(8)}$${hex(32)}` },
  ];
}

interface Row {
  family: string;
  cost: string;
  'verifications/s': number;
  'CPU ms each': string;
  'loop lateness p50 / max ms': string;
}

/** verifyLegacyPassword, or anything of its signature (the verifier pool's `verify`). */
export type VerifyLegacy = typeof verifyLegacyPassword;

export async function measure(
  hash: string,
  seconds: number,
  verify: VerifyLegacy = verifyLegacyPassword,
): Promise<{ perSecond: number; cpuMsEach: number; loopDelay: string }> {
  const password = new Secret('password');
  await verify(password, hash); // warm up
  const delay = monitorEventLoopDelay({ resolution: TIMER_MS });
  delay.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let done = 0;
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < deadline) {
        const outcome = await verify(password, hash);
        if (outcome.outcome === 'unusable') throw new Error(`the bench hash is unusable: ${outcome.reason}`);
        done += 1;
        // As requests arriving over the network would: without this, checks that finish at once (one digest) chain
        // as microtasks and the loop never turns, which the delay column would misread as a free loop.
        await yieldToEventLoop();
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  delay.disable();
  // The histogram holds the time between the timer's runs: what exceeds its period is how late the loop was.
  const late = (nanoseconds: number): string => Math.max(0, nanoseconds / 1e6 - TIMER_MS).toFixed(0);
  const loopDelay = `${late(delay.percentile(50))} / ${late(delay.max)}`;
  return { perSecond: done / elapsed, cpuMsEach: (used.user + used.system) / 1000 / done, loopDelay };
}

/**
 * Verifications per second of each legacy family at its usual cost, four in flight, with the CPU each took (the
 * thread pool's included) and how long the event loop was held meanwhile (a 10 ms timer's lateness, median and worst;
 * on a loaded machine both include the operating system's scheduling): the figure a login-time migration
 * service can sustain per process, and whether it still answers other requests while it verifies.
 */
export async function benchLegacyHashes(secondsEach: number): Promise<void> {
  const rows: Row[] = [];
  for (const { family, cost, hash } of await usualHashes()) {
    const inspected = inspectLegacyHash(hash);
    if (!inspected.usable || inspected.family !== family) throw new Error(`the bench hash of ${family} reads as ${JSON.stringify(inspected)}`);
    const { perSecond, cpuMsEach, loopDelay } = await measure(hash, secondsEach);
    rows.push({
      family,
      cost,
      'verifications/s': perSecond >= 100 ? Math.round(perSecond) : Number(perSecond.toFixed(1)),
      'CPU ms each': cpuMsEach.toFixed(cpuMsEach >= 10 ? 0 : 2),
      'loop lateness p50 / max ms': loopDelay,
    });
  }
  console.log(
    `\nlegacy hash verification (${IN_FLIGHT} in flight, ${secondsEach} s each, Node ${process.versions.node}, ${process.env.UV_THREADPOOL_SIZE ?? 4} pool threads)`,
  );
  console.table(rows);
}
