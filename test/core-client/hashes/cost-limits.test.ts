import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import bcryptjs from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';
import { verifyPassword } from '../../../core-client/src/hashes/verify-password.js';
import { planSource, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { checkCredentialsLocally } from '../../../core-client/src/push/credentials.js';
import { runMigration } from '../../../core-client/src/push/migration.js';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { startJunkServer } from '../http/junk-server.js';
import { Secret } from '../../../core-client/src/secret.js';
import { withTempDir } from '../sources/support.js';

const SALT_AND_HASH = 'c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4';
const argon2 = (parameters: string): string => `$argon2id$v=19$${parameters}$${SALT_AND_HASH}`;
const BCRYPT_REST = 'CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';
const scrypt = (parameters: string): string => `$f_scrypt$${Buffer.alloc(64, 1).toString('base64')}$c2FsdA==$${parameters}$s=Bw==`;

describe('hash costs beyond what a core verifies in reasonable time are refused, naming the parameter and the bound', () => {
  it.each([
    ['Argon2 t=4294967295', argon2('m=256,t=4294967295,p=1'), /the Argon2 cost m × t = 256 × 4294967295 is above 4194304 KiB \(4 GiB\)/],
    ['Argon2 m=4294967295', argon2('m=4294967295,t=1,p=1'), /the Argon2 memory m=4294967295 KiB is above 1048576 KiB \(1 GiB\)/],
    ['Argon2 p=1000', argon2('m=65536,t=1,p=1000'), /the Argon2 parallelism p=1000 is above 64/],
    ['Argon2 m=1 GiB, t=5', argon2('m=1048576,t=5,p=1'), /m × t = 1048576 × 5 is above/],
    ['BCrypt cost 31', `$2a$31$${BCRYPT_REST}`, /the BCrypt cost 31 is above 16/],
    ['BCrypt cost 17 through a wrapper', `{bcrypt}$2b$17$${BCRYPT_REST}`, /the BCrypt cost 17 is above 16/],
    ['scrypt variant r=9, m=17', scrypt('m=17$r=9'), /memory 128 · r · 2\^m with r=9, m=17 is 144 MiB, above 128 MiB/],
    ['scrypt variant m=40', scrypt('m=40$r=1'), /with r=1, m=40 is 128 TiB|with r=1, m=40 is .*above 128 MiB/],
  ])('%s', (_name, rawHash, reason) => {
    const result = prepareHash({ rawHash });
    expect(result).toMatchObject({ ok: false, code: 'cost_too_high', reason: expect.stringMatching(reason) });
    expect((result as { reason: string }).reason).toMatch(/needs a password reset or login-time migration/);
  });

  it.each([
    ['Argon2 at the memory bound, t=4', argon2('m=1048576,t=4,p=1')],
    ['Argon2 m=64 MiB, t=64, p=64', argon2('m=65536,t=64,p=64')],
    ['BCrypt cost 16', `$2a$16$${BCRYPT_REST}`],
    ["scrypt variant r=9, m=15 (a core verifies it; above the provider's own 8 and 14)", scrypt('m=15$r=9')],
    ['scrypt variant at the bound, r=8, m=17 (128 MiB)', scrypt('m=17$r=8')],
    ['scrypt variant r=1024, m=10 (128 MiB)', scrypt('m=10$r=1024')],
  ])('%s is still accepted', (_name, rawHash) => {
    expect(prepareHash({ rawHash }).ok).toBe(true);
  });

  it('the plan refuses such a user with the sentence instead of planting the hash', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.ndjson');
      const lines = [
        { email: 'slow@example.com', passwordHash: argon2('m=256,t=4294967295,p=1') },
        { email: 'ok@example.com', passwordHash: `$2a$10$${BCRYPT_REST}` },
      ];
      await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
      const items = [];
      for await (const record of planSource(file, { format: 'ndjson' })) items.push(...record.items);
      expect(items.map((item) => item.kind)).toEqual(['rejection', 'passwordImport']);
      expect(JSON.stringify(items[0])).toMatch(/t = 256 × 4294967295 is above 4194304 KiB/);
    });
  });
});

describe('local checks stop at the first abort', () => {
  it('verifyPassword rejects with the abort reason while the check runs', async () => {
    const hash = bcryptjs.hashSync('known password', 10);
    const stop = new AbortController();
    const check = verifyPassword(new Secret('known password'), hash, { signal: stop.signal });
    stop.abort(new Error('Ctrl-C'));
    await expect(check).rejects.toThrow('Ctrl-C');
  });

  it('an already aborted signal starts no check', async () => {
    const stop = new AbortController();
    stop.abort(new Error('Ctrl-C'));
    await expect(verifyPassword(new Secret('x'), `$2a$04$${BCRYPT_REST}`, { signal: stop.signal })).rejects.toThrow('Ctrl-C');
  });

  it('--verify-credentials: checkCredentialsLocally stops at once', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.ndjson');
      const passwordHash = bcryptjs.hashSync('known password', 4);
      await writeFile(file, `${JSON.stringify({ email: 'known@example.com', passwordHash })}\n`);
      const stop = new AbortController();
      const checking = checkCredentialsLocally(
        planSource(file, { format: 'ndjson' }),
        [{ email: 'known@example.com', password: new Secret('known password'), line: 1 }],
        {
          signal: stop.signal,
        },
      );
      stop.abort(new Error('Ctrl-C'));
      await expect(checking).rejects.toThrow('Ctrl-C');
    });
  });

  it('--verify-credentials: an abort while a password is being checked ends the check at once', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.ndjson');
      // Cost 12: about a third of a second of work, which the aborted check does not wait for.
      const passwordHash = '$2b$12$oPb3bnEBRn8qk/IAYUYUg.3ymz6sLeDHQYQP0/S5HGexkmKi2z5aW';
      await writeFile(file, `${JSON.stringify({ email: 'known@example.com', passwordHash })}\n`);
      const stop = new AbortController();
      // The abort comes once the known account's record is handed over, so while its password is being checked (the
      // check stops reading as soon as every known account is found).
      async function* planThenStop(): AsyncGenerator<PlannedRecord> {
        for await (const record of planSource(file, { format: 'ndjson' })) {
          setTimeout(() => stop.abort(new Error('Ctrl-C')), 0);
          yield record;
        }
      }
      const checking = checkCredentialsLocally(planThenStop(), [{ email: 'known@example.com', password: new Secret('known password'), line: 1 }], {
        signal: stop.signal,
      });
      await expect(checking).rejects.toThrow('Ctrl-C');
    });
  });

  it('a push interrupted during --verify-credentials sends nothing and says so', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.ndjson');
      await writeFile(file, `${JSON.stringify({ email: 'known@example.com', passwordHash: bcryptjs.hashSync('known password', 4) })}\n`);
      const stop = new AbortController();
      stop.abort(new Error('Ctrl-C'));
      let requests = 0;
      const server = await startJunkServer((_request, _body, response) => {
        requests += 1;
        response.writeHead(500).end();
      });
      const client = new CoreClient({ baseUrl: server.url, apiKey: new Secret('bench-key-0123456789') });
      const summary = await runMigration({
        sourcePath: file,
        planOptions: { format: 'ndjson' },
        total: 1,
        client,
        credentials: [{ email: 'known@example.com', password: new Secret('known password'), line: 1 }],
        signal: stop.signal,
      });
      await client.close();
      await server.close();
      expect(summary).toMatchObject({ notAttempted: 1, total: 1, stoppedEarly: { reason: 'interrupted' } });
      expect(requests).toBe(0);
    });
  });
});
