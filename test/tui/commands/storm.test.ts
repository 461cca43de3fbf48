import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../core-client/src/settings/verdict.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';
import { startStormCore, type StormCore, type StormCoreOptions } from '../../support/storm-core.js';
import { API_KEY, jsonOf, runCli, writeExport } from './push-support.js';

/**
 * A rate limit at the start (issue 20): for the first 12 s every request is answered 429 with `Retry-After: 1`, then the
 * core serves. Each command waits it out, from its pre-flight on, and ends complete with exit 0. The three run at the
 * same time: each mostly waits.
 */
const STORM_MS = 12_000;

/** A generic export of `count` users with old ids, at one mail domain: a newer one moves them all to another. */
function userLines(count: number, domain: string, hash: string): string {
  return Array.from({ length: count }, (_, index) => JSON.stringify({ id: `u-${index + 1}`, email: `u${index + 1}@${domain}`, passwordHash: hash })).join('\n');
}
const TIMEOUT_MS = 90_000;

async function withStorm(options: Omit<StormCoreOptions, 'stormMs'>, test: (core: CoreDouble, storm: StormCore, dir: string) => Promise<void>): Promise<void> {
  const core = await startCoreDouble({ apiKeys: [API_KEY] });
  const storm = await startStormCore(core, { stormMs: STORM_MS, ...options });
  const dir = await mkdtemp(join(tmpdir(), 'core-migrate-storm-'));
  try {
    await test(core, storm, dir);
  } finally {
    await storm.close();
    await core.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe.concurrent('12 s of 429 at the start, then service', () => {
  it(
    'push: the pre-flight and the probes wait it out, then every user is imported, exit 0',
    async () => {
      await withStorm({}, async (core, storm, dir) => {
        await writeExport(join(dir, 'users.ndjson'), 40);
        const run = await runCli(['push', 'users.ndjson', '--core', storm.url, '--json'], dir);
        expect(run.stderr).not.toMatch(/warning|error/i);
        expect(run.exitCode).toBe(ExitCode.ok);
        expect(jsonOf(run)).toMatchObject({ total: 40, imported: 30, thirdPartyCreated: 10, failed: 0 });
        expect(core.users()).toHaveLength(40);
        expect(storm.pushBacks()).toBeGreaterThanOrEqual(10);
      });
    },
    TIMEOUT_MS,
  );

  it(
    'check: every step and probe waits it out and passes, exit 0',
    async () => {
      await withStorm({}, async (core, storm, dir) => {
        const run = await runCli(['check', '--core', storm.url, '--json'], dir);
        expect(run.exitCode).toBe(ExitCode.ok);
        expect(JSON.parse(run.stdout)).toMatchObject({
          ok: true,
          identityFeatures: { mapping: true, verification: true, metadata: true, lookup: true, removal: true },
        });
        expect(storm.pushBacks()).toBeGreaterThanOrEqual(10);
        expect(core.writeCount()).toBe(0);
      });
    },
    TIMEOUT_MS,
  );

  it("check --give-up-after: a storm longer than the give-up time ends the check with exit 3 and the core's sentence", async () => {
    await withStorm({}, async (core, storm, dir) => {
      const run = await runCli(['check', '--core', storm.url, '--give-up-after', '2'], dir);
      expect(run.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
      expect(run.stderr).toMatch(/The core asked to slow down \(429 "Too Many Requests"\) on GET \/hello; it asked to retry after 1s\./);
      expect(storm.pushBacks()).toBeGreaterThanOrEqual(2);
      expect(storm.forwarded()).toBe(0);
      expect(core.requestCount()).toBe(0);
    });
  });

  it(
    'sync: the pre-flight and the probes wait it out, then every changed email is brought over, exit 0',
    async () => {
      await withStorm({ beginOnFirstRequest: false }, async (core, storm, dir) => {
        const hash = await bcryptHashOf('password');
        await writeFile(join(dir, 'monday.ndjson'), userLines(16, 'monday.example.com', hash));
        const pushed = await runCli(['push', 'monday.ndjson', '--core', storm.url, '--journal', 'users.journal', '--json'], dir);
        expect(pushed.exitCode).toBe(ExitCode.ok);
        await writeFile(join(dir, 'tuesday.ndjson'), userLines(16, 'tuesday.example.com', hash));
        storm.begin();
        const run = await runCli(['sync', 'tuesday.ndjson', '--core', storm.url, '--journal', 'users.journal', '--json'], dir);
        expect(run.stderr).not.toMatch(/warning|error/i);
        expect(run.exitCode).toBe(ExitCode.ok);
        expect(jsonOf(run)).toMatchObject({ sync: { changed: 16, emailChanged: 16, unchanged: 0 }, updated: 16, failed: 0 });
        expect(core.users().every((user) => user.email?.endsWith('@tuesday.example.com'))).toBe(true);
        expect(storm.pushBacks()).toBeGreaterThanOrEqual(10);
      });
    },
    TIMEOUT_MS,
  );

  it(
    'rollback: the pre-flight and the probes wait it out, then every user the push created is removed, exit 0',
    async () => {
      await withStorm({ beginOnFirstRequest: false }, async (core, storm, dir) => {
        await writeExport(join(dir, 'users.ndjson'), 16);
        const pushed = await runCli(['push', 'users.ndjson', '--core', storm.url, '--journal', 'users.journal', '--json'], dir);
        expect(pushed.exitCode).toBe(ExitCode.ok);
        expect(core.users()).toHaveLength(16);
        storm.begin();
        const run = await runCli(['rollback', '--journal', 'users.journal', '--core', storm.url, '--json'], dir);
        expect(run.stderr).not.toMatch(/warning|error/i);
        expect(run.exitCode).toBe(ExitCode.ok);
        expect(jsonOf(run)).toMatchObject({ created: 16, removed: 16, failed: 0 });
        expect(core.users()).toEqual([]);
        expect(storm.pushBacks()).toBeGreaterThanOrEqual(10);
      });
    },
    TIMEOUT_MS,
  );
});
