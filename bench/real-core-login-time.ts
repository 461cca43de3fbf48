import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LegacyVerifierPool } from '../core-client/src/hashes/legacy/verifier-pool.js';
import { migrateAtLogin, openLoginMigration, type LegacyVerifier, type LoginMigration } from '../core-client/src/login-time/migrate-at-login.js';
import { openWaitingStore } from '../core-client/src/login-time/store/open-store.js';
import type { WaitingStore } from '../core-client/src/login-time/store/waiting-store.js';
import { Secret } from '../core-client/src/secret.js';
import { clientOf } from '../core-client/src/run/connection-of.js';
import { Problem } from '../core-client/src/problem.js';
import { median, medianAndSpread } from './medians.js';
import { BENCH_SIGN_UP_PASSWORD, rawLoad, userEmail } from './raw-load.js';
import { REAL_CORE_API_KEY, type RealCore, startRealCore, stopRealCore } from './real-core.js';

const LEVELS = [1, 2, 4, 8] as const;
/** What `login-migration serve` gives a sign-in's requests to the core (its SIGN_IN_GIVE_UP_AFTER_SECONDS). */
const SIGN_IN_GIVE_UP_AFTER_SECONDS = 10;
/**
 * A cheap legacy hash (Django PBKDF2-SHA256, 1,000 iterations: a fraction of a millisecond), so the figure is the
 * core's and the service's, not the hash's: `npm run bench -- legacy-hashes verifier-pool login-service` measures that.
 */
const CHEAP_ITERATIONS = 1_000;
/**
 * Users parked before each figure, per second of it: above what a core that hashes every sign-up's password (bcrypt)
 * creates on this machine, so no worker runs out. A figure that did would say so.
 */
const PARKED_PER_SECOND = 150;

export interface LoginTimeBenchOptions {
  /** Seconds a figure. */
  seconds?: number;
  /** Rounds of the figures, their order reversed every other round; medians and spreads are printed. */
  rounds?: number;
  /** Parts of core names to run (all when absent). */
  only?: string[];
}

interface Measured {
  perSecond: number;
  cpuMsEach: number;
}

interface Figure {
  name: string;
  run: () => Promise<Measured>;
}

/**
 * Issue 29: the login-time migration's line. Users parked in a real waiting store (a SQLite file) as a push parks
 * them, with their identity fields (old id mapped, verified email, metadata) and a cheap legacy hash, are migrated by
 * `migrateAtLogin` through a `CoreClient` built as `login-migration serve` builds it (its verifier pool too), C
 * sign-ins at once; beside each level, a raw load at the same concurrency sends what a migration sends the core per
 * user (sign-up, id mapping, verification token and its use, metadata) with prebuilt bodies. Both run in this process:
 * its CPU time over a figure, divided by the users, is what the store, the verification and the client add.
 */
export async function benchRealCoreLoginTime(options: LoginTimeBenchOptions = {}): Promise<void> {
  const seconds = options.seconds ?? 8;
  const rounds = options.rounds ?? 3;
  const cores: Pick<RealCore, 'name' | 'postgresql'>[] = [
    { name: 'real in-memory, empty', postgresql: false },
    { name: 'real PostgreSQL', postgresql: true },
  ].filter((core) => options.only === undefined || options.only.some((part) => core.name.includes(part)));
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-login-time-'));
  const store = await openWaitingStore(join(folder, 'waiting.sqlite'));
  const pool = new LegacyVerifierPool();
  const legacyHash = cheapLegacyHash(BENCH_SIGN_UP_PASSWORD);
  const rows: Record<string, string | number>[] = [];
  let batch = 0;
  const tag = (kind: string): string => `lt${kind}${(batch += 1)}`;
  try {
    for (const core of cores) {
      const url = await startRealCore(core);
      try {
        rows.push(...(await measureCore(core.name, url, { store, verify: pool.verify, legacyHash, seconds, rounds, tag })));
      } finally {
        await stopRealCore(core);
      }
    }
  } finally {
    await pool.close();
    await store.close();
    await rm(folder, { recursive: true, force: true });
  }
  console.log(
    `\nreal-core-login-time: users a second, median (min-max) of ${rounds} rounds, ${seconds} s a figure; migrated ÷ raw: each round's ratio at that concurrency; CPU: this process's (the service's side, or the raw load's) ms a user; measured ${new Date().toISOString()}`,
  );
  console.table(rows);
}

/** Each concurrency's row of one core: its figures, the order of a round reversed every other round. */
async function measureCore(
  core: string,
  url: string,
  bench: { store: WaitingStore; verify: LegacyVerifier; legacyHash: string; seconds: number; rounds: number; tag: (kind: string) => string },
): Promise<Record<string, string | number>[]> {
  const { store, legacyHash, seconds, tag } = bench;
  const client = clientOf(
    { coreUrl: url, coreUrls: [url], apiKey: new Secret(REAL_CORE_API_KEY), source: 'flags', sources: { coreUrl: 'flags', apiKey: 'flags' } },
    { giveUpAfter: SIGN_IN_GIVE_UP_AFTER_SECONDS },
  );
  if (client instanceof Problem) throw client;
  const login = await openLoginMigration({ store, core: client, verify: bench.verify });
  try {
    // The core's JIT compiles the sign-up path first (a fresh core's first seconds are several times slower).
    await rawLoad(url, REAL_CORE_API_KEY, tag('warm'), 4, { ms: 3_000, steps: 'signUp' });
    await signIns(login, await park(store, tag('warm'), 20, legacyHash), 2, Number.POSITIVE_INFINITY);
    const figures = LEVELS.flatMap((level): Figure[] => [
      {
        name: `migrated ${level}`,
        run: async () => migrateFor(login, await park(store, tag('mig'), seconds * PARKED_PER_SECOND, legacyHash), level, seconds),
      },
      { name: `raw ${level}`, run: () => rawFor(url, tag('raw'), level, seconds) },
    ]);
    const measured = new Map<string, Measured[]>(figures.map((figure) => [figure.name, []]));
    for (let round = 0; round < bench.rounds; round += 1) {
      for (const figure of round % 2 === 0 ? figures : [...figures].reverse()) measured.get(figure.name)?.push(await figure.run());
    }
    return LEVELS.map((level) => {
      const row = summaryRow(core, level, measured.get(`migrated ${level}`) ?? [], measured.get(`raw ${level}`) ?? []);
      // Each row as soon as it is measured: a run cut short still tells what it measured.
      console.log(JSON.stringify(row));
      return row;
    });
  } finally {
    await login.close();
    await client.close();
  }
}

/** `pbkdf2_sha256$1000$<salt>$<key>`: what Django writes, at a cost that is next to nothing. */
function cheapLegacyHash(password: string): string {
  const salt = randomBytes(16).toString('hex').slice(0, 22);
  return `pbkdf2_sha256$${CHEAP_ITERATIONS}$${salt}$${pbkdf2Sync(password, salt, CHEAP_ITERATIONS, 32, 'sha256').toString('base64')}`;
}

/** Parks `users` users as a push with the identity steps parks them; answers their emails. */
async function park(store: WaitingStore, tag: string, users: number, legacyHash: string): Promise<string[]> {
  const emails = Array.from({ length: users }, (_, index) => userEmail(tag, index));
  for (const email of emails) {
    await store.park({
      email,
      sourceId: `old-${email}`,
      mapSourceId: true,
      mappingInfo: 'core-migrate: bench id',
      emailVerified: true,
      // What a push parks (plan/metadata.ts) and the raw load sends.
      metadata: { displayName: email, migratedFrom: { system: 'bench', sourceId: `old-${email}` } },
      family: 'django_pbkdf2_sha256',
      legacyHash,
    });
  }
  return emails;
}

/** `inFlight` sign-ins at once, each taking the next parked user, until the users or the time run out. */
async function signIns(login: LoginMigration, emails: readonly string[], inFlight: number, deadline: number): Promise<{ migrated: number; ranOut: boolean }> {
  const password = new Secret(BENCH_SIGN_UP_PASSWORD);
  let next = 0;
  let migrated = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < emails.length && performance.now() < deadline; index = next++) {
      const email = emails[index];
      if (email === undefined) return;
      const answer = await migrateAtLogin(login, { email, password });
      if (answer.outcome !== 'migrated') throw new Error(`real-core-login-time: a sign-in answered ${answer.outcome}, not migrated`);
      migrated += 1;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  // Every worker stopped before the deadline: the parked users were all taken.
  return { migrated, ranOut: performance.now() < deadline };
}

async function migrateFor(login: LoginMigration, emails: readonly string[], inFlight: number, seconds: number): Promise<Measured> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { migrated, ranOut } = await signIns(login, emails, inFlight, started + seconds * 1000);
  const elapsedMs = performance.now() - started;
  if (ranOut) console.log(`real-core-login-time: the ${emails.length} users parked for ${inFlight} at once ran out before ${seconds} s`);
  return { perSecond: migrated / (elapsedMs / 1000), cpuMsEach: cpuMs(process.cpuUsage(cpuBefore)) / migrated };
}

async function rawFor(url: string, tag: string, inFlight: number, seconds: number): Promise<Measured> {
  const cpuBefore = process.cpuUsage();
  // As many users as a migration's figure has parked: the raw load builds its bodies inside this CPU figure.
  const users = seconds * PARKED_PER_SECOND;
  const figures = await rawLoad(url, REAL_CORE_API_KEY, tag, inFlight, { users, ms: seconds * 1000, steps: 'signUp' });
  if (figures.users === users) console.log(`real-core-login-time: the raw load's ${users} users at ${inFlight} at once ran out before ${seconds} s`);
  return { perSecond: figures.perSecond, cpuMsEach: cpuMs(process.cpuUsage(cpuBefore)) / figures.users };
}

function cpuMs(used: NodeJS.CpuUsage): number {
  return (used.user + used.system) / 1000;
}

function summaryRow(core: string, level: number, migrated: Measured[], raw: Measured[]): Record<string, string | number> {
  const ratios = migrated.map((figure, round) => figure.perSecond / (raw[round]?.perSecond ?? Number.NaN));
  return {
    core,
    'in flight': level,
    'migrated/s': medianAndSpread(migrated.map((figure) => figure.perSecond)),
    'raw users/s': medianAndSpread(raw.map((figure) => figure.perSecond)),
    'migrated ÷ raw': medianAndSpread(ratios, 2),
    'service CPU ms each': median(migrated.map((figure) => figure.cpuMsEach)).toFixed(2),
    'raw CPU ms each': median(raw.map((figure) => figure.cpuMsEach)).toFixed(2),
  };
}
