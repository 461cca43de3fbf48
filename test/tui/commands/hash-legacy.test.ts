import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LEGACY_HASH_ADVICE } from '../../../core-client/src/hashes/legacy-behind.js';
import { legacyHashFamilyLabel, type LegacyHashFamily } from '../../../core-client/src/hashes/legacy/registry.js';
import { main } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';

interface Vector {
  family: LegacyHashFamily;
  password: string;
  hash: string;
  expect?: string;
}

/** One vector a reference implementation made (or its authors published) per family written as a hash string. */
function firstVectorPerFamily(): Array<Vector & { wrongPassword: string }> {
  const byFamily = new Map<LegacyHashFamily, Vector & { wrongPassword: string }>();
  for (const file of ['django', 'werkzeug', 'passlib', 'crypt', 'published']) {
    const fixture = JSON.parse(readFileSync(new URL(`../../fixtures/hash-vectors/legacy/${file}.json`, import.meta.url), 'utf8')) as {
      wrongPassword: string;
      vectors: Vector[];
    };
    for (const vector of fixture.vectors) {
      if ((vector.expect ?? 'match') !== 'match' || byFamily.has(vector.family)) continue;
      byFamily.set(vector.family, { ...vector, wrongPassword: fixture.wrongPassword });
    }
  }
  return [...byFamily.values()];
}

const VECTORS = firstVectorPerFamily();
const DJANGO = VECTORS.find((vector) => vector.family === 'django_pbkdf2_sha256');
if (DJANGO === undefined) throw new Error('the Django fixture has no PBKDF2-SHA256 vector');
/** phpass at 2^25 MD5 steps: beyond the bound of 2^21, it would take a minute to check. */
const OVER_COST_PHPASS = '$P$NabcdefghOXqXlJ6kaRzgsZ1ZBxJdOT';

async function run(args: string[], stdinText?: string) {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const { io, stdout, stderr } = captureIO({ stdin });
  const exitCode = await main(['hash', ...args], io);
  return { exitCode, stdout: stdout(), stderr: stderr(), unreadInput: stdin.readableLength };
}

describe('core-migrate hash inspect, a legacy hash', () => {
  it('covers every family but the two made from other fields (Keycloak credentials, declared salted digests)', () => {
    expect(VECTORS.map((vector) => vector.family).sort()).toHaveLength(26);
  });

  it.each(VECTORS.map((vector) => [vector.family, vector] as const))(
    '%s: names the family and its cost, says it cannot be imported, exit 2',
    async (family, vector) => {
      const result = await run(['inspect', '--hash-file', '-'], `${vector.hash}\n`);
      expect(result.exitCode).toBe(2);
      const lines = result.stdout.split('\n');
      expect(lines[0]).toBe(`family: ${legacyHashFamilyLabel(family)} (${family}), a legacy family`);
      expect(lines[1]).toMatch(/^parameters: \S/);
      expect(lines[2]).toBe(`rejected (unsupported_family): ${LEGACY_HASH_ADVICE}`);
      expect(result.stdout + result.stderr).not.toContain(vector.hash);
    },
  );

  it('--json gives the family, its label and its parameters', async () => {
    const result = await run(
      ['inspect', '--json', '--hash-file', '-'],
      `pbkdf2_sha256$1000$AHtAC50miIADqqW9ds3CGR$gYVfqq3P6DBMit3+6bOnPCaLFC40md06yokDa7FivcU=\n`,
    );
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      rejected: true,
      code: 'unsupported_family',
      reason: LEGACY_HASH_ADVICE,
      legacy: {
        family: 'django_pbkdf2_sha256',
        label: 'Django PBKDF2-SHA256',
        checkable: true,
        parameters: 'PBKDF2-HMAC-SHA-256, 1,000 iterations, 22-byte salt',
      },
    });
  });

  it('says why an over-cost hash cannot be checked', async () => {
    const result = await run(['inspect', '--json', OVER_COST_PHPASS]);
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      legacy: { family: 'phpass', checkable: false, code: 'cost_too_high', reason: expect.stringMatching(/2\^25 is above 2\^21/) },
    });
  });

  it('leaves a hash of no family it knows to the import refusal', async () => {
    const result = await run(['inspect', '$y$j9T$F5Jx5fExrKuJdjYV7ChA01$hY4sP8bLIXLlJ1u9Rh1EMHdSxvBWh0fMMA4QmO/Gbv1']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toMatch(/^rejected \(unsupported_family\): unsupported family: yescrypt/);
  });
});

describe('core-migrate hash verify, a legacy hash', () => {
  it.each(VECTORS.map((vector) => [vector.family, vector] as const))('%s: exit 0 with its password, 1 with another, neither echoed', async (family, vector) => {
    const right = await run(['verify', '--hash-file', '-'], `${vector.hash}\n${vector.password}\n`);
    expect(right).toMatchObject({ exitCode: 0, stdout: `match: ${legacyHashFamilyLabel(family)} (checked locally)\nnote: ${LEGACY_HASH_ADVICE}\n` });
    const wrong = await run(['verify', '--hash-file', '-'], `${vector.hash}\n${vector.wrongPassword}\n`);
    expect(wrong).toMatchObject({ exitCode: 1, stdout: expect.stringMatching(/^no match: /) });
    // Spring's published vectors use the password "password", a word of the advice itself: the advice is left out.
    for (const output of [right.stdout + right.stderr, wrong.stdout + wrong.stderr].map((text) => text.replace(LEGACY_HASH_ADVICE, ''))) {
      expect(output).not.toContain(vector.hash);
      expect(output).not.toContain(vector.password);
    }
  });

  it('--json answers as for an importable hash, marked legacy', async () => {
    const result = await run(['verify', '--json', '--hash-file', '-'], `${DJANGO.hash}\n${DJANGO.password}\n`);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ match: true, family: 'django_pbkdf2_sha256', legacy: true, warnings: [], notes: [LEGACY_HASH_ADVICE] });
  });

  it('refuses an over-cost hash with exit 2 before reading the password, so nothing is computed', async () => {
    const result = await run(['verify', OVER_COST_PHPASS], 'secret-value\n');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cannot check the phpass \(WordPress, phpBB\) hash \(cost_too_high\)/);
    expect(result.unreadInput).toBe('secret-value\n'.length);
  });

  it('refuses a malformed legacy hash with exit 2', async () => {
    const result = await run(['verify', '$P$Babc'], 'secret-value\n');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/malformed phpass hash/);
  });
});
