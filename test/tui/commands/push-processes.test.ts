import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, jsonOf, operationRequests, runCli, storeSnapshot, writeExport } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));

/** A private mount namespace where a tmpfs can be mounted without touching the machine's mounts. */
const canMount = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], { stdio: 'ignore' }).status === 0;

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
}

/**
 * Waits until `reached` holds while the process runs; a process that ended first fails the test with its stderr (a
 * loop that only polled would spin until the test's timeout and say nothing of why).
 */
async function whileRunning(exit: Promise<Exit>, reached: () => boolean): Promise<void> {
  let ended: Exit | undefined;
  void exit.then((value) => (ended = value));
  while (!reached()) {
    if (ended !== undefined) throw new Error(`the push ended (exit ${String(ended.code)}) before the test could go on: ${ended.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function pushProcess(args: string[], cwd: string): ChildProcess {
  return spawn(process.execPath, [BIN, 'push', ...args], { cwd, env: { ...process.env, CORE_API_KEY: API_KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs the push in a mount namespace with `mountpoint` a tmpfs prepared by `setup` (sh), then `after` (sh). */
function pushOnTmpfs(mountpoint: string, setup: string, args: string[], after: string, cwd: string): Promise<Exit> {
  const script = `mount -t tmpfs -o size=12k tmpfs "$MNT" && ${setup} && { "$NODE" "$BIN" push "$@"; code=$?; ${after}; exit $code; }`;
  const child = spawn('unshare', ['-rm', 'sh', '-c', script, 'sh', ...args], {
    cwd,
    env: { ...process.env, CORE_API_KEY: API_KEY, MNT: mountpoint, NODE: process.execPath, BIN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child);
}

/** The journal's entries after its header; the last piece is dropped (empty after a newline, or torn mid-write). */
function journalLines(text: string): { k: string; o?: string; s?: string; u?: string }[] {
  return text
    .split('\n')
    .slice(1, -1)
    .map((line) => JSON.parse(line) as { k: string; o?: string; s?: string; u?: string });
}

/** The operation key a request of `writeExport`'s users is for (`L7#pw`, `L8#tp0`). */
function keyOfRequest(body: unknown): string {
  const fields = body as { email?: string; thirdPartyUserId?: string };
  return fields.thirdPartyUserId !== undefined ? `L${fields.thirdPartyUserId.slice(2)}#tp0` : `L${/^user(\d+)@/.exec(fields.email ?? '')?.[1] ?? '?'}#pw`;
}

/**
 * A core whose answers to imports never end once `stall` is on: headers and the start of a chunked body, then nothing.
 * Every other request (and every import while `stall` is off) is passed to the double.
 */
async function stallingProxy(target: string): Promise<{ url: string; stalled: () => number; setStall: (on: boolean) => void; close: () => Promise<void> }> {
  let stall = false;
  const stuck: ServerResponse[] = [];
  const server = createServer((incoming, outgoing) => {
    if (stall && incoming.method === 'POST' && (incoming.url ?? '').endsWith('/passwordhash/import')) {
      incoming.resume();
      outgoing.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' });
      outgoing.write('{"status":');
      stuck.push(outgoing);
      return;
    }
    const forwarded = httpRequest(`${target}${incoming.url ?? '/'}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stalled: () => stuck.length,
    setStall: (on) => {
      stall = on;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('core-migrate push as real processes', () => {
  let core: CoreDouble;
  let dir: string;
  let source: string;
  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'push-processes-'));
    source = join(dir, 'users.ndjson');
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('two pushes on one journal: the second stops with a sentence (exit 2); no user is sent twice', async () => {
    await writeExport(source, 200);
    core.faults.setLatencyMs(5);
    const args = [source, '--core', core.url, '--journal', 'push.journal', '--concurrency', '2'];
    const first = pushProcess(args, dir);
    const firstExit = collect(first);
    await whileRunning(firstExit, () => operationRequests(core).length >= 10);
    // The first push is held mid-way (its imports go unanswered) until the second one has come and gone; the second's
    // pre-flight is answered at once (its probes carry no user's email).
    core.faults.holdPath('/passwordhash/import', 'POST', '@example.com');
    const second = await collect(pushProcess(args, dir));
    core.faults.releaseHeld();
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`^core-migrate push: The journal .*push\\.journal is in use by another push \\(process ${first.pid} on `));
    expect((await firstExit).code).toBe(0);
    const identities = operationRequests(core).map((request) => JSON.stringify(request.body));
    expect(new Set(identities).size).toBe(identities.length);
    expect(core.users()).toHaveLength(200);
  }, 60_000);

  it('stdout closed under the push (push | head): a sentence, exit 1, the journal intact, and a resume completes', async () => {
    await writeExport(source, 300);
    core.faults.setLatencyMs(5);
    const child = pushProcess([source, '--core', core.url, '--journal', 'push.journal', '--concurrency', '2'], dir);
    child.stdout?.once('data', () => child.stdout?.destroy());
    const exit = await collect(child);
    expect(exit.code, exit.stderr).toBe(1);
    expect(exit.stderr).toMatch(/the standard output was closed \(EPIPE\); nothing more is printed and the push stops as on Ctrl-C/);
    expect(exit.stderr).not.toMatch(/\n\s+at /);
    const journal = await readFile(join(dir, 'push.journal'), 'utf8');
    expect(journal.endsWith('\n')).toBe(true);
    for (const line of journal.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(core.users().length).toBeLessThan(300);

    const resumed = await runCli(['push', source, '--core', core.url, '--journal', 'push.journal', '--json'], dir);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(core.users()).toHaveLength(300);
  });

  it('the first Ctrl-C returns even with answers that never end: exit 1, the journal intact, the stuck ones sent again by the resume', async () => {
    await writeExport(source, 120);
    const proxy = await stallingProxy(core.url);
    try {
      const child = pushProcess([source, '--core', proxy.url, '--journal', 'push.journal', '--concurrency', '4'], dir);
      const exit = collect(child);
      await whileRunning(exit, () => operationRequests(core).length >= 10);
      proxy.setStall(true);
      await whileRunning(exit, () => proxy.stalled() > 0);
      // The request deadline (30 s) is far away: only the stop's grace can end these requests.
      child.kill('SIGINT');
      const { code, stdout, stderr } = await exit;
      expect(code, stderr).toBe(1);
      expect(stderr).toMatch(/Stopping: no new operations; waiting for those in flight/);
      expect(stderr).not.toMatch(/\n\s+at /);
      const hint = /To resume, run: (?:npx )?core-migrate (.+)/.exec(stdout)?.[1];
      expect(hint, stdout).toBeDefined();
      const journal = await readFile(join(dir, 'push.journal'), 'utf8');
      const answered = journalLines(journal).filter((entry) => entry.o !== undefined);
      expect(answered.length).toBeGreaterThan(0);
      expect(answered.length).toBeLessThan(120);

      proxy.setStall(false);
      const resumed = await runCli([...(hint ?? '').split(' '), '--json'], dir);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(jsonOf(resumed)).toMatchObject({ skipped: answered.length, failed: 0, notAttempted: 0, total: 120 });
      expect(storeSnapshot(core)).toHaveLength(120);
    } finally {
      await proxy.close();
    }
  });

  it.skipIf(!canMount)('a journal on a full disk: one sentence, exit 2, the journal intact, and a resume re-sends nothing it holds', async () => {
    await writeExport(source, 300);
    const mnt = join(dir, 'small');
    const kept = join(dir, 'kept.journal');
    await mkdir(mnt);
    const exit = await pushOnTmpfs(
      mnt,
      'true',
      [source, '--core', core.url, '--journal', `${mnt}/push.journal`, '--report', `${mnt}/report.ndjson`],
      `cp "$MNT/push.journal" "${kept}"`,
      dir,
    );
    expect(exit.code, exit.stderr).toBe(2);
    expect(exit.stderr).toMatch(
      /^core-migrate push: The (journal|report) .* cannot be written: the disk \(or your quota\) is full\. Free space, then run the same command again\./,
    );
    expect(exit.stderr).not.toMatch(/\n\s+at /);

    const keptLines = journalLines(await readFile(kept, 'utf8'));
    // Final lines only: a step line (the write-ahead `intent` included) says a request left, not that it was answered.
    const answered = new Set(keptLines.filter((entry) => entry.o !== undefined).map((entry) => entry.k));
    const announced = new Set(keptLines.filter((entry) => entry.s === 'intent' && !answered.has(entry.k)).map((entry) => entry.k));
    // A creation journalled with its core id (a `created` step line) needs no request again, whatever its kind.
    const created = new Set(keptLines.filter((entry) => entry.s === 'created' && entry.u !== undefined && !answered.has(entry.k)).map((entry) => entry.k));
    expect(answered.size).toBeGreaterThan(0);
    const sentBefore = operationRequests(core).length;
    const resumed = await runCli(['push', source, '--core', core.url, '--journal', kept, '--report', 'report.ndjson', '--json'], dir);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const resent = operationRequests(core)
      .slice(sentBefore)
      .map((request) => keyOfRequest(request.body));
    // Every user journalled as answered before the disk filled is skipped, not sent again.
    expect(resent.filter((key) => answered.has(key))).toEqual([]);
    // A password user announced but not answered before the disk filled is found by the lookup and completed, not sent
    // again, as is any user whose creation was journalled with its id; every other user not answered is sent once.
    const completed = jsonOf(resumed)['steps'] as { completedAfterResume: number };
    const everyKey = Array.from({ length: 300 }, (_, index) => `L${index + 1}${(index + 1) % 4 === 0 ? '#tp0' : '#pw'}`);
    const notResent = everyKey.filter((key) => !answered.has(key) && !resent.includes(key));
    expect(
      notResent.every((key) => created.has(key) || (announced.has(key) && key.endsWith('#pw'))),
      JSON.stringify({
        notResent: notResent.filter((key) => !created.has(key) && (!announced.has(key) || !key.endsWith('#pw'))),
        tail: keptLines.slice(-6),
        summary: jsonOf(resumed),
      }),
    ).toBe(true);
    // Third-party users cannot be looked up: those announced are sent again and, if the core has them, completed too.
    expect(completed.completedAfterResume).toBeGreaterThanOrEqual(notResent.length);
    expect(completed.completedAfterResume).toBeLessThanOrEqual(announced.size);
    expect(resent.length + notResent.length).toBe(300 - answered.size);
    expect(storeSnapshot(core)).toHaveLength(300);
  });

  it.skipIf(!canMount)('a journal on a read-only file system is refused before anything is sent (exit 2)', async () => {
    await writeExport(source, 10);
    const mnt = join(dir, 'readonly');
    await mkdir(mnt);
    const exit = await pushOnTmpfs(mnt, 'mount -o remount,ro "$MNT"', [source, '--core', core.url, '--journal', `${mnt}/push.journal`], 'true', dir);
    expect(exit.code, exit.stderr).toBe(2);
    expect(exit.stderr).toMatch(
      /^core-migrate push: The journal .*push\.journal cannot be written: .*readonly is on a read-only file system\. Choose a path on a writable one\.\n$/,
    );
    expect(core.requests()).toHaveLength(0);
  });
});
