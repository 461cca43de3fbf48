import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
/** `firebase emulators:export` of seven users made through the Auth emulator's REST API (README.md beside it). */
const EMULATOR_EXPORT = fileURLToPath(new URL('../../fixtures/exports/firebase/emulator/accounts.json', import.meta.url));

interface BinaryRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function plan(args: string[], cwd: string): Promise<BinaryRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, 'plan', ...args], { cwd });
    return { exitCode: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { exitCode: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('core-migrate plan reads an export by its shape, without --format (issue 43)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plan-shape-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("plans the seven users of the Firebase Auth emulator's export (one line, kind first)", async () => {
    const run = await plan([EMULATOR_EXPORT, '--json'], dir);
    // The emulator's password hashes are no real scrypt: without --hash-config they are refused, and so is the disabled user.
    expect(run.exitCode, run.stderr).toBe(1);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      records: 7,
      thirdPartySignInUps: 1,
      byProvider: { google: 1 },
      passwordlessByLogin: { phone: 1, email: 1 },
      rejected: 4,
      rejectionsByCode: [
        { code: 'unusableHash', count: 3 },
        { code: 'disabledAccount', count: 1 },
      ],
    });
    expect(run.stdout).not.toContain('missingEmail');
  });

  it('refuses a file that is one JSON object of no known shape before planning: exit 2, the shapes it reads, and --format', async () => {
    const path = join(dir, 'export.json');
    await writeFile(path, '{"kind":"identitytoolkit#DownloadAccountResponse","accounts":[{"localId":"a","email":"a@example.com"}]}\n');
    const run = await plan([path], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `${path}: one JSON object of no shape core-migrate reads; it reads a Firebase export (an object whose "users" key holds the users), a JSON array of users, and one user object per line (NDJSON, Auth0): set --format if the file is one of these`,
    );
  });
});
