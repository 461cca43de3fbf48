import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../core-client/push/engine-support.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { SIGNER_KEY, writeFirebaseExport, type FirebaseFixture } from './identity-support.js';
import { API_KEY, jsonOf, runCli, writeExport } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const PLAN_REJECTIONS = 5;

/** Adds records the plan refuses (neither a password nor a provider) at the end of the export. */
async function appendRejections(exportPath: string): Promise<void> {
  const data = JSON.parse(await readFile(exportPath, 'utf8')) as { users: Record<string, unknown>[] };
  for (let index = 1; index <= PLAN_REJECTIONS; index += 1) data.users.push({ localId: `fb-none${index}`, email: `none${index}@example.com` });
  await writeFile(exportPath, `${JSON.stringify(data)}\n`);
}

describe('counts and words that agree (issue 25, item 4)', () => {
  let core: CoreDouble;
  let dir: string;
  let fixture: FirebaseFixture;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    dir = await mkdtemp(join(tmpdir(), 'counts-'));
    fixture = await writeFirebaseExport(dir, 6);
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("the plan's metadata count is the push's: every user with an old id or a disabled flag gets metadata, profile or not", async () => {
    const common = [fixture.exportPath, '--hash-config', fixture.hashConfigPath, '--disabled', 'import', '--json'];
    const plan = await runCli(['plan', ...common], dir);
    expect(plan.exitCode).toBe(0);
    const planned = (jsonOf(plan) as { identity: { withMetadata: number } }).identity.withMetadata;
    const push = await runCli(['push', ...common, '--core', core.url], dir);
    expect(push.exitCode, push.stderr).toBe(0);
    const steps = (jsonOf(push) as { steps: { metadataWritten: number } }).steps;
    expect(steps.metadataWritten).toBe(planned);
    // Grace (Google only) and Ada's separate Google account have no profile, yet get where they came from.
    expect(planned).toBe(core.users().length);
  });

  it('the summary shows the outcomes that are not zero and the total, never a row or a term at 0', async () => {
    await writeExport(join(dir, 'users.ndjson'), 8);
    const run = await runCli(['push', 'users.ndjson', '--core', core.url], dir);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^ {2}imported +6$/m);
    expect(run.stdout).toMatch(/^ {2}third-party created +2$/m);
    expect(run.stdout).toContain('6 imported + 2 third-party created = 8 operations');
    const summary = run.stdout.slice(run.stdout.indexOf('Push summary:'));
    expect(summary).not.toMatch(/^ {2}[a-z(), -]+ +0$/m);
    expect(summary).not.toMatch(/\b0 [a-z]/);
    expect(jsonOf(await runCli(['push', 'users.ndjson', '--core', core.url, '--journal', 'again.journal', '--json'], dir))).toMatchObject({
      failed: 0,
      retries: 0,
    });
  });

  it('retries are counted: a store that loses lock conflicts shows them in the summary, text and --json', async () => {
    await writeExport(join(dir, 'users.ndjson'), 24);
    core.faults.setContention({ atTwo: 0.9, atFour: 0.9, writeMs: 0 });
    core.faults.setLatencyMs(10);
    const run = await runCli(['push', 'users.ndjson', '--core', core.url, '--concurrency', '4', '--journal', 'a.journal'], dir);
    expect(run.exitCode, run.stderr).toBe(0);
    const retries = Number(/Retries: (\d+) request\(s\) sent again/.exec(run.stdout)?.[1]);
    expect(retries).toBeGreaterThan(0);
    core.reset();
    core.faults.setContention({ atTwo: 0.9, atFour: 0.9, writeMs: 0 });
    core.faults.setLatencyMs(10);
    const json = jsonOf(await runCli(['push', 'users.ndjson', '--core', core.url, '--concurrency', '4', '--journal', 'b.journal', '--json'], dir));
    expect(json).toMatchObject({ imported: 18, thirdPartyCreated: 6, failed: 0 });
    expect(json['retries']).toBeGreaterThan(0);
  });

  it("after Ctrl-C: the identity steps count only users counted by outcome, and the plan's rejections stay rejections", async () => {
    fixture = await writeFirebaseExport(dir, 60);
    await appendRejections(fixture.exportPath);
    core.faults.setLatencyMs(15);
    // --email-link reset: they stay refused, as they were before email-link users became passwordless users.
    const args = [
      'push',
      fixture.exportPath,
      '--core',
      core.url,
      '--hash-config',
      fixture.hashConfigPath,
      '--journal',
      'kill.journal',
      '--json',
      '--email-link',
      'reset',
    ];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, CORE_API_KEY: API_KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = once(child, 'exit');
    await waitFor(() => core.users().length >= 10, 'a few users created', 20_000);
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(1);
    const summary = JSON.parse(stdout) as Record<string, number> & { steps: Record<string, number>; stoppedEarly: { reason: string } };
    expect(summary.stoppedEarly.reason).toBe('interrupted');
    expect(summary.notAttempted).toBeGreaterThan(0);
    expect(summary.rejected).toBe(PLAN_REJECTIONS);
    const counted = (summary.imported ?? 0) + (summary.alreadyExisted ?? 0) + (summary.thirdPartyCreated ?? 0) + (summary.thirdPartyExisting ?? 0);
    // Every user counted got its metadata; each but Ada's separate Google account was mapped to its old id.
    expect(summary.steps.metadataWritten).toBe(counted);
    expect(summary.steps.mapped).toBe(counted - Number(summary.steps.separateAccounts));
  });
});
