import { mkdtemp, rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../tui/src/cli.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { captureIO } from './captured-io.js';
import { API_KEY, runCli, writeExport, type Run } from './push-support.js';

/** The whole of standard output as one JSON document: throws (and fails the test) on a sentence or a second value. */
function wholeJson(run: Run): Record<string, unknown> {
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

async function hash(args: string[], stdinText: string): Promise<Run> {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const { io, stdout, stderr } = captureIO({ stdin });
  const exitCode = await main(['hash', ...args], io);
  return { exitCode, stdout: stdout(), stderr: stderr() };
}

describe('--json: standard output is exactly one JSON document, everything for a person goes to standard error', () => {
  let core: CoreDouble;
  let dir: string;

  beforeAll(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'json-output-'));
    await writeExport(join(dir, 'users.ndjson'), 24, { broken: true });
  });
  afterAll(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('push: the plan sentence and the progress go to standard error, the summary alone to standard output', async () => {
    const run = await runCli(['push', 'users.ndjson', '--core', core.url, '--json'], dir);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(wholeJson(run)).toMatchObject({ imported: 18, thirdPartyCreated: 6, rejected: 1, total: 25 });
    expect(run.stderr).toContain('Plan: 25 operations from 25 records');
    expect(run.stderr).toMatch(/^push 25\/25 /m);
  });

  it('push on a terminal: the redrawn progress line stays off standard output too', async () => {
    const run = await runCli(['push', 'users.ndjson', '--core', core.url, '--dry-run', '--json'], dir, {}, { tty: true });
    expect(wholeJson(run)).toMatchObject({ dryRun: true, total: 25 });
    expect(run.stderr).toContain('Plan: 25 operations from 25 records');
  });

  it('push that fails before sending: the failure is the document, its sentence is on standard error', async () => {
    const run = await runCli(['push', 'missing.ndjson', '--core', core.url, '--json'], dir);
    expect(run.exitCode).toBe(2);
    const failure = wholeJson(run);
    expect(failure).toMatchObject({ error: { command: 'push', exitCode: 2, code: 'fileMissing', setting: 'file' } });
    expect(run.stderr).toContain(`core-migrate push: ${(failure['error'] as { message: string }).message}`);
  });

  it('sync, and a sync that cannot start: one document each', async () => {
    // A sync keys users by their old id: the generic export's email stands in for it, in the push and the sync alike.
    const journal = ['--journal', 'ids.journal', '--map', 'sourceId=email'];
    expect((await runCli(['push', 'users.ndjson', ...journal, '--core', core.url, '--json'], dir)).exitCode).toBe(1);
    const run = await runCli(['sync', 'users.ndjson', ...journal, '--core', core.url, '--json'], dir);
    expect(wholeJson(run)).toMatchObject({ sync: { users: 25 }, dryRun: false });
    expect(run.stderr).toMatch(/^sync \d+ /m);
    const refused = await runCli(['sync', 'users.ndjson', '--core', core.url, '--json'], dir);
    expect(refused.exitCode).toBe(2);
    expect(wholeJson(refused)).toMatchObject({ error: { command: 'sync', exitCode: 2 } });
  });

  it('rollback, dry run and real', async () => {
    const journal = ['--journal', 'users.ndjson.push-journal.ndjson'];
    const dry = await runCli(['rollback', ...journal, '--core', core.url, '--dry-run', '--json'], dir);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(wholeJson(dry)).toMatchObject({ dryRun: true, created: 24 });
    const real = await runCli(['rollback', ...journal, '--core', core.url, '--json'], dir);
    expect(real.exitCode, real.stderr).toBe(0);
    expect(wholeJson(real)).toMatchObject({ removed: 24 });
  });

  it('journal show, and a journal show that cannot read its file', async () => {
    const run = await runCli(['journal', 'show', 'users.ndjson.push-journal.ndjson', '--json'], dir);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(wholeJson(run)).toMatchObject({ version: 5, users: { created: 24 }, rollback: { state: 'complete' } });
    const refused = await runCli(['journal', 'show', 'users.ndjson', '--json'], dir);
    expect(refused.exitCode).toBe(2);
    expect(wholeJson(refused)).toMatchObject({ error: { command: 'journal show', exitCode: 2 } });
    expect(refused.stderr).toMatch(/^core-migrate journal show: The file .* is not a core-migrate push journal/);
  });

  it('plan and check', async () => {
    expect(wholeJson(await runCli(['plan', 'users.ndjson', '--json'], dir))).toMatchObject({ records: 25, rejected: 1 });
    expect(wholeJson(await runCli(['check', '--core', core.url, '--json'], dir))).toMatchObject({ ok: true });
    const refused = await runCli(['check', '--core', core.url, '--json'], dir, { CORE_API_KEY: 'wrong-key-0123456789-abcdefghijkl' });
    expect(refused.exitCode).toBe(3);
    expect(wholeJson(refused)).toMatchObject({ ok: false });
    expect(refused.stderr).toContain('core-migrate check: ');
  });

  it('hash inspect and hash verify', async () => {
    const passwordHash = bcrypt.hashSync('known password', 4);
    expect(wholeJson(await hash(['inspect', passwordHash, '--json'], ''))).toMatchObject({ family: 'bcrypt' });
    const match = await hash(['verify', passwordHash, '--json'], 'known password\n');
    expect(match.exitCode).toBe(0);
    expect(wholeJson(match)).toEqual({ match: true, family: 'bcrypt', warnings: [], notes: [] });
    const mismatch = await hash(['verify', passwordHash, '--json'], 'another\n');
    expect(mismatch.exitCode).toBe(1);
    expect(wholeJson(mismatch)).toMatchObject({ match: false });
    const unusable = await hash(['verify', '$2a$04$short', '--json'], 'known password\n');
    expect(unusable.exitCode).toBe(2);
    expect(wholeJson(unusable)).toMatchObject({ error: { command: 'hash verify', exitCode: 2 } });
  });
});
