import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../tui/src/cli.js';
import { captureIO, type TestInput } from './captured-io.js';

const BCRYPT = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'; // Openwall: "U*U"
const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
const SCRYPT_HASH = 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==';
const SCRYPT_SALT = '42xEC+ixf3L2lw==';

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hash-command-'));
  await writeFile(
    join(workDir, 'hash-config.txt'),
    `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${SIGNER_KEY},\n  base64_salt_separator: Bw==,\n  rounds: 8,\n  mem_cost: 14,\n}\n`,
  );
  await writeFile(join(workDir, 'bad-config.txt'), 'hash_config { base64_salt_separator: Bw==, rounds: 0, mem_cost: 14 }');
});

interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

type TtyInput = TestInput;

let lastStdin: TtyInput | undefined;

async function run(args: string[], input?: { stdin?: string; tty?: string[] }): Promise<Run> {
  const stdin: TtyInput = new PassThrough();
  lastStdin = stdin;
  if (input?.tty !== undefined) {
    stdin.isTTY = true;
    stdin.rawModes = [];
    stdin.setRawMode = (raw) => stdin.rawModes?.push(raw);
    const keys = input.tty;
    // Typed after the prompt is shown, one key at a time, as a terminal in raw mode sends them.
    setImmediate(() => keys.forEach((key) => stdin.write(key)));
  } else if (input?.stdin !== undefined) {
    stdin.end(input.stdin);
  } else {
    stdin.end();
  }
  const { io, stdout, stderr } = captureIO({ stdin, cwd: workDir });
  const exitCode = await main(['hash', ...args], io);
  return { exitCode, stdout: stdout(), stderr: stderr() };
}

describe('core-migrate hash inspect', () => {
  it('prints the family and the normalised hash, exit 0', async () => {
    const result = await run(['inspect', `{bcrypt}$2y$05$${BCRYPT.slice(7)}`]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('family: BCrypt (bcrypt)');
    expect(result.stdout).toContain(`passwordHash: ${BCRYPT}`);
    expect(result.stdout).toContain('stripped: spring {bcrypt}');
  });

  it('--json prints one object ready for the import body', async () => {
    const result = await run(['inspect', SCRYPT_HASH, '--salt', SCRYPT_SALT, '--hash-config', 'hash-config.txt', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      family: 'vendor_scrypt',
      passwordHash: `$f_scrypt$${SCRYPT_HASH}$${SCRYPT_SALT}$m=14$r=8$s=Bw==`,
      hashingAlgorithm: 'vendor_scrypt',
      warnings: [],
    });
  });

  it('reminds the operator to configure the core with the signer key, without showing it', async () => {
    const result = await run(['inspect', SCRYPT_HASH, '--salt', SCRYPT_SALT, '--hash-config', 'hash-config.txt']);
    expect(result.stdout).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    expect(result.stdout + result.stderr).not.toContain(SIGNER_KEY.slice(0, 16));
  });

  it('names the scrypt variant once', async () => {
    const result = await run(['inspect', SCRYPT_HASH, '--salt', SCRYPT_SALT, '--hash-config', 'hash-config.txt']);
    expect(result.stdout.split('\n')[0]).toBe('family: scrypt variant (vendor_scrypt)');
  });

  it('--hashing-algorithm checks the algorithm a record names against the hash, as plan does', async () => {
    const named = await run(['inspect', SCRYPT_HASH, '--salt', SCRYPT_SALT, '--hash-config', 'hash-config.txt', '--hashing-algorithm', 'firebase_scrypt']);
    expect(named.exitCode).toBe(0);
    expect(named.stdout).toContain('hashingAlgorithm: vendor_scrypt');
    const mismatch = await run(['inspect', BCRYPT, '--hashing-algorithm', 'vendor_scrypt']);
    expect(mismatch.exitCode).toBe(2);
    expect(mismatch.stdout).toContain('rejected (algorithm_mismatch)');
    const unsupported = await run(['inspect', BCRYPT, '--hashing-algorithm', 'md5']);
    expect(unsupported.stdout).toContain('rejected (unsupported_family)');
  });

  it('applies --strip-prefix, exact or re:', async () => {
    const exact = await run(['inspect', `old:${BCRYPT}`, '--strip-prefix', 'old:', '--json']);
    expect(JSON.parse(exact.stdout)).toMatchObject({ passwordHash: BCRYPT, strippedBy: 'operator prefix "old:"' });
    const regex = await run(['inspect', `v7|${BCRYPT}`, '--strip-prefix', 're:v\\d+\\|', '--json']);
    expect(JSON.parse(regex.stdout)).toMatchObject({ passwordHash: BCRYPT });
  });

  it('--json reports a rejection with its reason, exit 2', async () => {
    const result = await run(['inspect', '$y$j9T$F5Jx5fExrKuJdjYV7ChA01$hY4sP8bLIXLlJ1u9Rh1EMHdSxvBWh0fMMA4QmO/Gbv1', '--json']);
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({ rejected: true, code: 'unsupported_family', reason: expect.stringMatching(/yescrypt/) });
  });

  it('refuses a salted hash without --hash-config, exit 2', async () => {
    const result = await run(['inspect', SCRYPT_HASH, '--salt', SCRYPT_SALT]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toContain("vendor scrypt needs the provider's hashing parameters (--hash-config)");
  });

  it.each([
    [['--hash-config', 'bad-config.txt'], /bad-config.txt: rounds must be a whole number of at least 1/],
    [['--hash-config', 'missing.txt'], /missing.txt: cannot read the file \(ENOENT\)/],
    [['--strip-prefix', 're:('], /not a valid regular expression/],
  ])('reports unusable options %j on stderr, exit 2', async (options, message) => {
    const result = await run(['inspect', BCRYPT, ...options]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('core-migrate hash verify', () => {
  it('exits 0 on a match read from standard input, and never echoes the password', async () => {
    const result = await run(['verify', BCRYPT], { stdin: 'U*U\n' });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'match: BCrypt\n' });
    expect(result.stdout + result.stderr).not.toContain('U*U');
  });

  it('says the argon2i warning once', async () => {
    // The hashes page's argon2i example, a hash of "password".
    const argon2i = '$argon2i$v=19$m=256,t=2,p=1$c29tZXNhbHQ$iekCn0Y3spW+sCcFanM2xBT63UP2sghkUoHLIUpWRS8';
    const result = await run(['verify', argon2i], { stdin: 'password\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.match(/warning: argon2i/g)).toHaveLength(1);
  });

  it('exits 1 on a mismatch', async () => {
    const result = await run(['verify', BCRYPT], { stdin: 'U*U*\r\n' });
    expect(result).toMatchObject({ exitCode: 1, stdout: 'no match: BCrypt\n' });
    expect(result.stdout + result.stderr).not.toContain('U*U*');
  });

  it('takes the whole input as the password when it has no newline', async () => {
    expect((await run(['verify', BCRYPT], { stdin: 'U*U' })).exitCode).toBe(0);
  });

  it('exits 2 on a hash it cannot use, before reading any password', async () => {
    // yescrypt: neither the core nor core-migrate can check it (MD5-crypt, once here, is a legacy family it checks now).
    const result = await run(['verify', '$y$j9T$F5Jx5fExrKuJdjYV7ChA01$hY4sP8bLIXLlJ1u9Rh1EMHdSxvBWh0fMMA4QmO/Gbv1'], { stdin: 'secret-value\n' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/yescrypt/);
  });

  it('exits 2 when standard input holds no password', async () => {
    const result = await run(['verify', BCRYPT]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/no password given/);
  });

  it('checks the vendor scrypt vector with the signer key from --hash-config', async () => {
    const args = ['verify', SCRYPT_HASH, '--salt', SCRYPT_SALT, '--hash-config', 'hash-config.txt'];
    const right = await run(args, { stdin: 'user1password\n' });
    expect(right.exitCode).toBe(0);
    expect(right.stdout).toMatch(/^match: scrypt variant/);
    expect(right.stdout + right.stderr).not.toContain(SIGNER_KEY.slice(0, 16));
    expect((await run(args, { stdin: 'user2password\n' })).exitCode).toBe(1);
  });

  it('exits 2 for vendor scrypt when the hash config has no signer key', async () => {
    await writeFile(join(workDir, 'no-key.json'), JSON.stringify({ base64_salt_separator: 'Bw==', rounds: 8, mem_cost: 14 }));
    const result = await run(['verify', SCRYPT_HASH, '--salt', SCRYPT_SALT, '--hash-config', 'no-key.json'], { stdin: 'user1password\n' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/needs the signer key/);
  });

  it('on a terminal, prompts with nothing shown, handles Backspace, and restores the terminal', async () => {
    const keys = [...'U*X', '\u007f', 'U', '\r'];
    const result = await run(['verify', BCRYPT], { tty: keys });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('Password (nothing is shown): \n');
    expect(result.stdout + result.stderr).not.toMatch(/U\*|\*+X/);
    expect(lastStdin?.rawModes).toEqual([true, false]);
  });

  it('on a terminal, Ctrl-C cancels with exit 2', async () => {
    const result = await run(['verify', BCRYPT], { tty: ['U', '\u0003'] });
    expect(result.exitCode).toBe(2);
  });
});
