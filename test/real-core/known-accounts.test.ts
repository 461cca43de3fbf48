import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { coreMigrate, described, jsonOf } from './support/binary.js';
import { isPasswordUser, oldUsers, writeFirebaseExport, writeHashConfig } from './support/exports.js';
import { describeLive, useRealCore, type RealCore } from './support/real-core.js';

/** `--verify-credentials` on a real core: known passwords are proved before the push, and signed in after it. */
describeLive('a Firebase push with known accounts, on a real core', { core: 'memory', signerKey: true }, () => {
  let core: RealCore;
  let dir: string;
  const known = oldUsers('fb', 6).filter(isPasswordUser).slice(0, 3);

  beforeAll(async () => {
    [core, dir] = await Promise.all([useRealCore({ core: 'memory', signerKey: true }, { logRequests: true }), mkdtemp(join(tmpdir(), 'real-core-known-'))]);
    await writeFile(join(dir, 'known.txt'), `${known.map((user) => `${user.email} ${user.password}`).join('\n')}\n`, { mode: 0o600 });
  });
  afterAll(async () => {
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('a wrong mem_cost is caught before anything is sent; the right one pushes and every known account logs in', async () => {
    const [file] = await writeFirebaseExport(dir, 'users.json', oldUsers('fb', 6));
    await writeHashConfig(dir, 'wrong_hash_config.txt', { memCost: 9 });
    const wrong = await coreMigrate(['push', file, '--hash-config', 'wrong_hash_config.txt', '--verify-credentials', 'known.txt', '--core', core.url], dir);
    expect(wrong.code, described(wrong)).toBe(2);
    expect((await core.requestsReceived()).filter((line) => line.includes('"passwordHash":"$f_scrypt$'))).toEqual([]);

    const right = await coreMigrate(['push', file, '--hash-config', 'hash_config.txt', '--verify-credentials', 'known.txt', '--core', core.url, '--json'], dir);
    expect(right.code, described(right)).toBe(0);
    expect(jsonOf(right)).toMatchObject({ credentials: { checked: known.length, matchedLocally: known.length, loggedIn: known.length } });
  });
});
