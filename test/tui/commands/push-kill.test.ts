import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal, JournalError } from '../../../core-client/src/journal/journal.js';
import { planSource } from '../../../core-client/src/plan/plan-source.js';
import { sourceFingerprint } from '../../../core-client/src/push/fingerprint.js';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble, type RecordedRequest } from '../../core-double/index.js';
import { API_KEY, jsonOf, notesOf, operationRequests, runCli, storeSnapshot, writeExport } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const USERS = 400;
const KILLS = 4;

/** Which operation a request is, by what the body names (email, or provider and user id). */
function identityOfBody(body: unknown): string {
  const fields = body as { email?: unknown; thirdPartyId?: unknown; thirdPartyUserId?: unknown };
  return typeof fields.thirdPartyId === 'string' ? `${fields.thirdPartyId}/${String(fields.thirdPartyUserId)}` : String(fields.email);
}

async function operationKeysByIdentity(source: string): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for await (const record of planSource(source)) {
    for (const item of record.items) if (item.kind !== 'rejection' && item.kind !== 'loginTimeWait') keys.set(identityOfBody(item.body), item.operationKey);
  }
  return keys;
}

async function journalledKeys(path: string): Promise<Set<string>> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const keys = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    try {
      // Final lines only: a step line (`s`, the write-ahead `intent` included) says a user's steps began, not that the
      // operation is done.
      const entry = JSON.parse(line) as { k: string; o?: string };
      if (entry.o !== undefined) keys.add(entry.k);
    } catch {
      // A torn last line: the process was killed mid-write; the next open cuts it off.
    }
  }
  return keys;
}

/** A small deterministic generator, so a failing run can be repeated. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('core-migrate push killed with SIGKILL and resumed', () => {
  let core: CoreDouble;
  let dir: string;
  beforeAll(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'push-kill-'));
  });
  afterAll(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ends with the same store as an uninterrupted run, and never re-sends an operation journalled before a kill', async () => {
    const source = join(dir, 'users.ndjson');
    const journal = join(dir, 'push.journal');
    await writeExport(source, USERS, { broken: true });
    const keyOf = await operationKeysByIdentity(source);
    const random = seededRandom(Number(process.env['PUSH_KILL_SEED'] ?? 20_240_601));
    core.faults.setLatencyMs(2);

    /** After each kill: how many requests the double had seen, and what the journal held. */
    const kills: { requestsSeen: number; journalled: Set<string> }[] = [];
    let killed = 0;
    for (let round = 0; round < KILLS; round += 1) {
      const seenBefore = operationRequests(core).length;
      const killAfter = seenBefore + 10 + Math.floor(random() * 60);
      const child = spawn(process.execPath, [BIN, 'push', source, '--core', core.url, '--journal', journal, '--report', join(dir, 'report.ndjson')], {
        cwd: dir,
        env: { ...process.env, CORE_API_KEY: API_KEY },
        stdio: 'ignore',
      });
      const exited = once(child, 'exit');
      let finished = false;
      void exited.then(() => (finished = true));
      while (!finished && operationRequests(core).length < killAfter) await new Promise((resolve) => setTimeout(resolve, 2));
      if (!finished) killed += Number(child.kill('SIGKILL'));
      await exited;
      kills.push({ requestsSeen: core.requests().length, journalled: await journalledKeys(journal) });
    }

    expect(killed).toBeGreaterThanOrEqual(KILLS - 1);
    expect(kills.at(-1)?.journalled.size).toBeGreaterThan(0);

    const resumed = await runCli(['push', source, '--core', core.url, '--journal', journal, '--report', join(dir, 'report.ndjson'), '--json'], dir);
    // The killed run's lock is stale (its process is gone): taken over, with one line saying so, and nothing else.
    expect(notesOf(resumed).join('\n')).toMatch(/^(The journal's lock was left by process \d+ \(started [^)]+\), which is gone; this push took it over\.)?$/);
    const summary = jsonOf(resumed) as Record<string, number>;
    expect(summary['total']).toBe(USERS + 1);

    // No operation journalled before a kill was sent again after it.
    const requests: RecordedRequest[] = core.requests();
    for (const kill of kills) {
      const later = requests.slice(kill.requestsSeen).filter((request) => request.body !== undefined && keyOf.has(identityOfBody(request.body)));
      for (const request of later) expect(kill.journalled.has(keyOf.get(identityOfBody(request.body)) ?? '')).toBe(false);
    }

    expect(summary['skipped']).toBeGreaterThan(0);

    // The same store as one uninterrupted run against a fresh core.
    const fresh = await startCoreDouble({ apiKeys: [API_KEY] });
    try {
      const straight = await runCli(
        ['push', source, '--core', fresh.url, '--journal', join(dir, 'straight.journal'), '--report', join(dir, 'straight.ndjson')],
        dir,
      );
      expect(straight.exitCode).toBe(1);
      expect(storeSnapshot(core)).toEqual(storeSnapshot(fresh));
      expect(storeSnapshot(core)).toHaveLength(USERS);
    } finally {
      await fresh.close();
    }
  });

  it('Ctrl-C stops cleanly and prints a resume command that works; a second Ctrl-C exits at once and the journal holds', async () => {
    core.reset();
    const source = join(dir, 'interrupted.ndjson');
    await writeExport(source, 600);
    const started = (twice: boolean) => {
      const journal = join(dir, `interrupted-${String(twice)}.journal`);
      const child = spawn(process.execPath, [BIN, 'push', source, '--core', core.url, '--journal', journal], {
        cwd: dir,
        env: { ...process.env, CORE_API_KEY: API_KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (twice && stderr.includes('Stopping')) child.kill('SIGINT');
      });
      return { child, journal, output: () => ({ stdout, stderr }) };
    };

    for (const twice of [false, true]) {
      // A slow core, so that the signal comes with the push under way.
      core.faults.setLatencyMs(20);
      const seenBefore = operationRequests(core).length;
      const run = started(twice);
      const exited = once(run.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      // Well past the first window of requests, so some answers are journalled before the signal.
      while (operationRequests(core).length < seenBefore + 100) await new Promise((resolve) => setTimeout(resolve, 2));
      run.child.kill('SIGINT');
      const [code, signal] = await exited;
      const journal = await Journal.open(run.journal, {
        sourceFingerprint: await sourceFingerprint(source),
        target: `${core.url} (tenant public)`,
        digestKey: (salt) => new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY) }).digestKey(salt),
      });
      expect(journal).not.toBeInstanceOf(JournalError);
      const journalled = (journal as Journal).entries;
      (journal as Journal).close();
      expect(journalled, `${run.output().stdout}${run.output().stderr}`).toBeGreaterThan(0);

      if (twice) {
        expect(signal).toBe('SIGINT');
        continue;
      }
      expect(code).toBe(1);
      const hint = /To resume, run: (?:npx )?core-migrate (.+)/.exec(run.output().stdout)?.[1];
      expect(hint).toBeDefined();
      core.faults.setLatencyMs(0);
      const resumed = await runCli([...(hint ?? '').split(' '), '--json'], dir);
      const summary = jsonOf(resumed) as Record<string, number>;
      expect(summary).toMatchObject({ skipped: journalled, total: 600, failed: 0, notAttempted: 0 });
      expect(resumed.exitCode).toBe(0);
    }
  });
});
